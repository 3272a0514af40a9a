import CanopyHistory
import CanopyCrawl
import Foundation

/// The pages a sitemap (or a tree of sitemap indexes) lists, for `canopy gate --sitemap`: read
/// in file order with the configuration's credentials, which go only to the hosts allowed to
/// receive them, hop by hop across redirects as in a crawl. Never cut silently: when a limit
/// stops the list short, `cut` says which and how much was left out.
struct SitemapPageList {
    struct Pages: Equatable {
        /// Page URLs, rewritten, without repeats, in the order the sitemaps list them.
        var urls: [String]
        /// Why the list is shorter than the sitemaps; nil when it is all of it.
        var cut: String?
    }

    /// A sitemap that could not be read: the gate cannot know its pages (exit 3).
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    var maxPages: Int
    var maxSitemaps: Int
    var maxRedirects: Int
    var timeout: Double
    var connectTimeout: Double
    var maxBytes: Int
    var userAgent: String
    var credentialHeaders: [HTTPHeader]
    /// Host names (any port) or `host:port` pairs that may receive `credentialHeaders`.
    var credentialHosts: Set<String>
    var rewrites: [URLRewrite]
    var normalizer: URLNormalizer
    var fetcher = Fetcher()

    /// The configuration's limits and credentials; credentials go to `auth.hosts`, or by
    /// default to the sitemap's own host (as a crawl sends them to its start URLs' hosts).
    init(configuration: CrawlConfiguration, sitemap: CrawlURL, rewrites: [URLRewrite]) {
        maxPages = configuration.limits.maxPages
        maxSitemaps = CrawlPlan.defaultMaxSitemaps
        maxRedirects = configuration.limits.maxRedirects
        timeout = configuration.limits.timeout
        connectTimeout = configuration.limits.connectTimeout
        maxBytes = configuration.limits.maxBytes
        userAgent = configuration.politeness.userAgent
        credentialHeaders = configuration.revealedCredentialHeaders()
        credentialHosts = Set(configuration.auth.hosts ?? [sitemap.host])
        self.rewrites = rewrites
        normalizer = configuration.normalizer
    }

    func pages(from sitemap: CrawlURL) throws(Unreadable) -> Pages {
        var queue = [sitemap], queued: Set<CrawlURL> = [sitemap]
        var read = 0
        var urls: [String] = [], seenPages: Set<String> = []
        var incomplete: [String] = []
        while !queue.isEmpty, read < maxSitemaps {
            let next = queue.removeFirst()
            let parsed: Sitemap
            do {
                parsed = try SitemapParser().parse(try body(of: next))
            } catch let error as Unreadable {
                throw error
            } catch {
                throw Unreadable(description: "the sitemap \(next) could not be read: \(error)")
            }
            read += 1
            if let reason = parsed.incompleteReason { incomplete.append("\(next) was read only in part: \(reason)") }
            for child in parsed.sitemapURLs {
                guard let url = try? normalizer.normalize(rewrites.apply(child)), queued.insert(url).inserted else { continue }
                queue.append(url)
            }
            for page in parsed.pageURLs where seenPages.insert(page).inserted { urls.append(rewrites.apply(page)) }
        }
        var reasons = incomplete
        if !queue.isEmpty {
            reasons.append("only the first \(read) sitemaps were read; \(queue.count) more are listed")
        }
        if urls.count > maxPages {
            reasons.append("the sitemaps list \(urls.count) pages; the gate audits the first \(maxPages) (limits.max-pages)")
            urls.removeLast(urls.count - maxPages)
        }
        return Pages(urls: urls, cut: reasons.isEmpty ? nil : reasons.joined(separator: "; "))
    }

    /// One sitemap's body, following redirects hop by hop so that each hop gets only the
    /// credentials meant for its host.
    private func body(of sitemap: CrawlURL) throws(Unreadable) -> [UInt8] {
        var url = sitemap
        for _ in 0...maxRedirects {
            let request = FetchRequest(
                url: url.string, headers: mayReceiveCredentials(url) ? credentialHeaders : [], timeout: timeout,
                connectTimeout: connectTimeout, maxBodyBytes: maxBytes, maxRedirects: 0, userAgent: userAgent, followRedirects: false
            )
            let response: FetchResponse
            do {
                response = try fetcher.fetch(request)
            } catch {
                throw Unreadable(description: "the sitemap \(sitemap) could not be fetched: \(error.description)")
            }
            if (300..<400).contains(response.status), let location = response.header("Location") {
                do {
                    url = try normalizer.resolve(location, against: url)
                } catch {
                    throw Unreadable(description: "the sitemap \(sitemap) redirects to \(location), which cannot be fetched: \(error)")
                }
                continue
            }
            guard (200..<300).contains(response.status) else {
                throw Unreadable(description: "the sitemap \(url) answered HTTP \(response.status)")
            }
            return response.body
        }
        throw Unreadable(description: "the sitemap \(sitemap) redirects more than \(maxRedirects) times")
    }

    private func mayReceiveCredentials(_ url: CrawlURL) -> Bool {
        credentialHosts.contains(url.host) || credentialHosts.contains("\(url.host):\(url.effectivePort)")
    }
}
