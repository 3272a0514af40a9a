import Foundation

extension Document {
    /// What relative URLs of the document resolve against: its first `<base href>`, resolved
    /// against the document's own address (the address itself without one).
    public var baseURL: String? {
        guard let href = elements(named: "base").first(where: { $0.isHTML && $0.hasAttribute("href") })?.attribute("href") else { return url }
        let trimmed = href.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let resolved = URL(string: trimmed, relativeTo: url.flatMap(URL.init(string:))) else { return url }
        return resolved.absoluteString
    }
}
