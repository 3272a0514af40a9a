import CanopyStyle
import Foundation

/// Loads the stylesheets pages link to, each URL once per crawl whatever the number of pages
/// that use it: the first worker that needs a sheet fetches it while others that need it wait,
/// and every later page gets the parsed sheet from memory.
///
/// Sheets are fetched with the crawl's own request settings (headers, credentials for the
/// crawl's hosts, timeouts, body limit) on the worker's thread: a site has a handful of sheets,
/// so they are not worth a place in the page queue and its politeness delay.
public final class StyleSheetFetcher: StyleSheetLoading, @unchecked Sendable {
    /// The request for an absolute http(s) URL, or nil when the crawl may not fetch it (out of
    /// scope): the sheet then counts as failed.
    public typealias RequestPolicy = @Sendable (String) -> FetchRequest?

    private let fetcher: Fetcher
    private let requestPolicy: RequestPolicy
    private let readsFiles: Bool
    /// Each sheet's load, with what its answer was this crawl (its bytes' digest, or why there were none).
    private let loads = OncePerKey<String, (load: StyleSheetLoad, digest: String)>()
    private let countsLock = NSLock()
    private var counts = StyleSheetStatistics()

    /// `readsFiles`: `file:` URLs (a page checked from disk) are read from disk.
    public init(fetcher: Fetcher = Fetcher(), readsFiles: Bool = false, requestPolicy: @escaping RequestPolicy) {
        self.fetcher = fetcher
        self.readsFiles = readsFiles
        self.requestPolicy = requestPolicy
    }

    public var statistics: StyleSheetStatistics { countsLock.withLock { counts } }

    public func resolve(_ href: String, relativeTo base: String?) -> String {
        let baseURL = base.flatMap { URL(string: $0) }
        guard let url = URL(string: href, relativeTo: baseURL)?.absoluteURL else { return href }
        let string = url.absoluteString
        // The fragment names no other sheet. Looked for as a byte: by characters, the search cost
        // as much as resolving the URL, for every sheet of every page.
        guard let hash = string.utf8.firstIndex(of: UInt8(ascii: "#")) else { return string }
        return String(string[..<hash])
    }

    public func load(_ href: String, relativeTo base: String?) -> StyleSheetLoad {
        loadOnce(resolve(href, relativeTo: base)).load
    }

    private func loadOnce(_ url: String) -> (load: StyleSheetLoad, digest: String) {
        var bytes = 0
        let (answer, computed) = loads.value(for: url) {
            let (load, size, digest) = fetch(url)
            bytes = size
            return (load, digest)
        }
        if computed {
            countsLock.withLock {
                counts.requested += 1
                counts.bytes += bytes
                switch answer.load {
                case .failed: counts.failed += 1
                case .loaded(_, _, missing: _?): counts.missing += 1
                case .loaded: break
                }
            }
        }
        return answer
    }

    /// One digest for the sheets at `urls` as this crawl finds them (each fetched once per crawl):
    /// it changes when any of them changes, goes missing or fails, so a page whose markup did not
    /// change is audited again when its styles did.
    public func digest(ofSheetsAt urls: [String]) -> String {
        var lines: [UInt8] = []
        for url in urls {
            lines.append(contentsOf: Array("\(url)\t\(loadOnce(resolve(url, relativeTo: nil)).digest)\n".utf8))
        }
        return SHA256.hexDigest(lines)
    }

    private func fetch(_ url: String) -> (StyleSheetLoad, Int, String) {
        let (load, body) = fetchBody(url)
        switch load {
        case .failed(_, let reason): return (load, body?.count ?? 0, "failed: \(reason)")
        case .loaded(_, _, let missing?): return (load, body?.count ?? 0, "missing: \(missing)")
        case .loaded: return (load, body?.count ?? 0, SHA256.hexDigest(body ?? []))
        }
    }

    private func fetchBody(_ url: String) -> (StyleSheetLoad, [UInt8]?) {
        let lowered = url.lowercased()
        if lowered.hasPrefix("file:") {
            guard readsFiles, let path = URL(string: url)?.path else {
                return (.failed(url: url, reason: "local files are read only for pages checked from disk"), nil)
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                // As a browser opening the file finds it: no sheet, no rules.
                return (.loaded(url: url, sheet: ParsedStyleSheet(parsing: ""), missing: "no such file"), nil)
            }
            return (.loaded(url: url, sheet: ParsedStyleSheet(parsing: Self.decode(data))), [UInt8](data))
        }
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://") else {
            return (.failed(url: url, reason: "not an http(s) URL"), nil)
        }
        guard let request = requestPolicy(url) else {
            return (.failed(url: url, reason: "outside the crawl's scope, so not fetched"), nil)
        }
        do {
            let response = try fetcher.fetch(request)
            // Gone for every visitor: a browser gets the same answer and applies nothing, so the
            // page is styled exactly as Canopy sees it. Counted as missing, not as unknown.
            if response.status == 404 || response.status == 410 {
                return (.loaded(url: url, sheet: ParsedStyleSheet(parsing: ""), missing: "HTTP \(response.status)"), response.body)
            }
            guard (200..<300).contains(response.status) else {
                return (.failed(url: url, reason: "HTTP \(response.status)"), response.body)
            }
            // Browsers refuse a sheet served as anything but CSS in standards mode; so does Canopy.
            if let type = response.contentType?.lowercased(), !type.isEmpty, !type.hasPrefix("text/css") {
                return (.failed(url: url, reason: "served as \(type), not text/css"), response.body)
            }
            let sheet = ParsedStyleSheet(parsing: Self.decode(Data(response.body)))
            return (.loaded(url: response.finalURL, sheet: sheet), response.body)
        } catch {
            return (.failed(url: url, reason: error.description), nil)
        }
    }

    /// UTF-8, as nearly every sheet is; a byte-order mark is dropped.
    private static func decode(_ data: Data) -> String {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// How many stylesheets a crawl loaded, for its summary.
public struct StyleSheetStatistics: Sendable, Hashable, Codable {
    /// Distinct sheet URLs fetched (or read).
    public var requested = 0
    /// Could not be used, so the rules they could change leave their pages for review.
    public var failed = 0
    /// Gone (404, 410, no such file): browsers apply nothing either, so nothing is left undecided.
    public var missing = 0
    public var bytes = 0

    public init() {}
}
