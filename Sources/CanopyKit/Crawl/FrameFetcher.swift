import CanopyCrawl
import CanopyHTML
import CanopyRules
import Foundation

/// Loads the documents of the frames pages show, each URL once per crawl however many pages
/// frame it (a checkout frame on every page is one request), within the crawl's origins, its
/// robots.txt, headers, credentials, timeouts and size limit. A frame on another origin is
/// not fetched: it is reported as not audited, and the rules that needed it leave it for review.
///
/// Frames are fetched on the worker auditing the page, as stylesheets are: a site has few
/// distinct frame documents, so they are not worth a place in the crawl's page queue.
public final class FrameFetcher: FrameLoading, @unchecked Sendable {
    // Unchecked: `counts` is only touched under `countsLock`.
    private let crawl: CrawlPlan
    /// A signed-in crawl's session: its cookies go with frame requests as with pages.
    private let session: SignInSession?
    private let fetcher: Fetcher
    private let readsFiles: Bool
    /// Each frame's content, with what its answer was this crawl (its bytes' digest, or why there
    /// were none), for incremental crawls.
    private let documents = OncePerKey<String, (content: FrameContent, digest: String)>()
    private let robots = OncePerKey<Origin, RobotsTxt>()
    private let countsLock = NSLock()
    private var counts = FrameFetchStatistics()

    /// `readsFiles`: `file:` frames (a page checked from disk) are read from disk.
    public init(crawl: CrawlPlan, session: SignInSession? = nil, fetcher: Fetcher = Fetcher(), readsFiles: Bool = false) {
        self.crawl = crawl
        self.session = session
        self.fetcher = fetcher
        self.readsFiles = readsFiles
    }

    public var statistics: FrameFetchStatistics { countsLock.withLock { counts } }

    public func frameDocument(at url: String) -> FrameContent { loadOnce(url).content }

    /// One digest for the frame documents at `urls` as this crawl finds them (each fetched once
    /// per crawl): a page whose markup did not change is audited again when one of them did.
    public func digest(ofFramesAt urls: [String]) -> String {
        SHA256.hexDigest(Array(urls.map { "\($0)\t\(loadOnce($0).digest)\n" }.joined().utf8))
    }

    private func loadOnce(_ url: String) -> (content: FrameContent, digest: String) {
        let (answer, computed) = documents.value(for: url) {
            var bytes: [UInt8] = []
            let content = load(url, body: &bytes)
            if case .unavailable(let reason) = content { return (content, "unavailable: \(reason)") }
            return (content, SHA256.hexDigest(bytes))
        }
        if computed {
            countsLock.withLock {
                counts.requested += 1
                if case .unavailable = answer.content { counts.unavailable += 1 }
            }
        }
        return answer
    }

    private func load(_ url: String, body: inout [UInt8]) -> FrameContent {
        if url.lowercased().hasPrefix("file:") {
            guard readsFiles, let path = URL(string: url)?.path else { return .unavailable(reason: "local files are read only for pages checked from disk") }
            guard let data = FileManager.default.contents(atPath: path) else { return .unavailable(reason: "no such file") }
            body = [UInt8](data)
            return .document(HTMLParser().parse(bytes: body, url: url))
        }
        guard var next = try? crawl.normalizer.normalize(url) else { return .unavailable(reason: "its address is not a URL Canopy can fetch") }
        for _ in 0...crawl.maxRedirects {
            guard crawl.scope.allowsResource(next) else {
                return .unavailable(reason: "\(next.origin) is outside the crawl's origins (a cross-origin frame), so it was not fetched")
            }
            if crawl.honoursRobots, !robotsRules(for: next.origin).isAllowed(next) {
                return .unavailable(reason: "robots.txt of \(next.origin) disallows it")
            }
            if session?.isSignInEndpoint(next) == true || crawl.avoid.contains(where: { $0.matches(next) }) {
                return .unavailable(reason: "a signed-in crawl never requests it (the sign-in page, or a link auth.avoid names)")
            }
            var request = crawl.request(for: next)
            session?.authorize(&request, for: next)
            let response: FetchResponse
            do {
                response = try fetcher.fetch(request)
            } catch {
                return .unavailable(reason: error.description)
            }
            session?.receive(response, from: next)
            if let sign = session?.lossSign(response, at: next) {
                // The pages around it are what notice a lost session; the frame is just not audited.
                return .unavailable(reason: "it showed a signed-out page (\(sign))")
            }
            if (300..<400).contains(response.status), let location = response.header("location") {
                guard let target = try? crawl.normalizer.resolve(location, against: next) else {
                    return .unavailable(reason: "HTTP \(response.status) to an address Canopy cannot fetch")
                }
                next = target
                continue
            }
            guard (200..<300).contains(response.status) else { return .unavailable(reason: "HTTP \(response.status)") }
            let type = response.contentType?.lowercased() ?? ""
            guard type.isEmpty || type.hasPrefix("text/html") || type.hasPrefix("application/xhtml+xml") else {
                return .unavailable(reason: "served as \(type), not HTML")
            }
            body = response.body
            return .document(HTMLParser().parse(bytes: response.body, contentType: response.contentType, url: next.string))
        }
        return .unavailable(reason: "more than \(crawl.maxRedirects) redirects")
    }

    /// The origin's robots.txt, fetched once per crawl by this fetcher (the crawler keeps its own).
    private func robotsRules(for origin: Origin) -> RobotsTxt {
        robots.value(for: origin) {
            guard let url = try? crawl.normalizer.normalize("\(origin)/robots.txt") else { return .allowAll }
            guard let response = try? fetcher.fetch(crawl.request(for: url)) else { return .disallowAll }
            return RobotsTxt.forResponse(status: response.status, body: response.body, userAgent: crawl.userAgent)
        }.value
    }
}

/// How many distinct frame documents a crawl asked for, and how many it could not audit.
public struct FrameFetchStatistics: Sendable, Hashable, Codable {
    public var requested = 0
    public var unavailable = 0

    public init() {}
}
