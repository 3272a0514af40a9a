import Foundation

/// What a link leads to, in the parts that decide whether two links lead to the same resource
/// without fetching either (axe-core's URL comparison of links): the scheme, with `https` taken
/// as `http` and `ftps` as `ftp` since sites serve both alike; the host; the port unless it is
/// the default; the folder, with or without a trailing slash; the file name, except an `index.*`
/// file, which is the folder's own page; the query as a set of pairs, in any order; and the
/// fragment only when it routes a single-page app (`#/`, `#!`), since any other fragment points
/// into the same page.
struct LinkResource: Hashable, Sendable {
    let scheme: String
    let host: String
    let port: String
    let folder: String
    let fileName: String
    let query: [String: String]
    let route: String

    /// The resource of `href` resolved against `base`, or nil when it does not resolve.
    init?(href: String, base: String?) {
        let trimmed = href.trimmingCharacters(in: .whitespacesAndNewlines)
        // A page without an address still compares its relative links among themselves.
        let baseURL = URL(string: base ?? "file:///") ?? URL(fileURLWithPath: "/")
        // An empty href is the page itself, which Foundation will not parse as a URL.
        guard let url = (trimmed.isEmpty ? baseURL : URL(string: trimmed, relativeTo: baseURL))?.absoluteURL,
            let components = URLComponents(url: url, resolvingAgainstBaseURL: true), let rawScheme = components.scheme
        else { return nil }
        let lowered = rawScheme.lowercased()
        scheme = lowered == "https" ? "http" : lowered == "ftps" ? "ftp" : lowered
        host = (components.host ?? "").lowercased()
        port = components.port.map { $0 == 80 || $0 == 443 ? "" : String($0) } ?? ""

        let path = components.percentEncodedPath.hasPrefix("/") ? components.percentEncodedPath : "/" + components.percentEncodedPath
        let lastSegment = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        if !lastSegment.isEmpty, lastSegment.contains(".") {
            let withoutFile = String(path.dropLast(lastSegment.count))
            folder = withoutFile
            fileName = lastSegment.range(of: "index.") != nil ? "" : lastSegment
        } else {
            folder = path.hasSuffix("/") ? path : path + "/"
            fileName = ""
        }

        var pairs: [String: String] = [:]
        for item in components.queryItems ?? [] { pairs[item.name] = item.value ?? "" }
        query = pairs

        let fragment = components.fragment ?? ""
        route = fragment.hasPrefix("!") || fragment.hasPrefix("/") ? "#" + fragment : ""
    }
}
