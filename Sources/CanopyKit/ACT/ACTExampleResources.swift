import CanopyHTML
import CanopyRules
import CanopyStyle
import Foundation

/// Stylesheets of the ACT examples, read from the files beside them. `/test-assets/...` is the
/// examples' own site root; nothing outside the folder is loaded.
struct ACTExampleStyleSheets: StyleSheetLoading {
    let root: URL

    func resolve(_ href: String, relativeTo base: String?) -> String {
        if href.hasPrefix("/") { return root.appendingPathComponent(String(href.dropFirst())).absoluteString }
        guard let base = base.flatMap(URL.init(string:)), let url = URL(string: href, relativeTo: base) else { return href }
        return url.absoluteURL.absoluteString
    }

    func load(_ href: String, relativeTo base: String?) -> StyleSheetLoad {
        let url = resolve(href, relativeTo: base)
        guard url.hasPrefix("file:"), let path = URL(string: url)?.path, let data = FileManager.default.contents(atPath: path) else {
            return .failed(url: url, reason: "not among the test assets")
        }
        return .loaded(url: url, sheet: ParsedStyleSheet(parsing: String(decoding: data, as: UTF8.self)))
    }
}

/// Frames of the ACT examples, read from the files beside them, `/test-assets/...` from the
/// examples' site root; no other address is loaded.
struct ACTExampleFrames: FrameLoading {
    let root: URL

    func frameDocument(at url: String) -> FrameContent {
        guard let parsed = URL(string: url), parsed.isFileURL else { return .unavailable(reason: "not among the test assets") }
        let path = parsed.path.hasPrefix("/test-assets/") ? root.appendingPathComponent(String(parsed.path.dropFirst())).path : parsed.path
        guard let data = FileManager.default.contents(atPath: path) else { return .unavailable(reason: "not among the test assets") }
        return .document(HTMLParser().parse(bytes: [UInt8](data), url: URL(fileURLWithPath: path).absoluteString))
    }
}
