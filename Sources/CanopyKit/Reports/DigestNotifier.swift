import CanopyCrawl
import CanopyHistory
import CanopyReports
import Foundation

/// Posts the weekly digest to a chat webhook as JSON: `text` carries digest.md (what Slack,
/// Mattermost, Rocket.Chat and Teams' incoming webhooks show), `digest` the digest.json object
/// for anything that reads more. A failed post is reported and never fails the crawl: the run
/// is recorded and its reports written before the post is tried.
public struct DigestNotifier: Sendable {
    public struct Delivery: Sendable, Equatable {
        public var delivered: Bool
        public var attempts: Int
        /// The last answer or transport error, for the log.
        public var lastProblem: String?
    }

    private let fetcher: Fetcher
    /// Waits before a retry: one second, then two, four… (a test passes a shorter clock).
    private let pause: @Sendable (Int) -> Void

    public init(fetcher: Fetcher = Fetcher(), pause: @escaping @Sendable (Int) -> Void = { attempt in
        Thread.sleep(forTimeInterval: Double(1 << min(attempt - 1, 5)))
    }) {
        self.fetcher = fetcher
        self.pause = pause
    }

    public func post(markdown: String, digest: WeeklyDigest, to notify: CrawlConfiguration.Notify) -> Delivery {
        guard let url = notify.url else { return Delivery(delivered: false, attempts: 0, lastProblem: "no webhook address") }
        let body: [UInt8]
        do {
            body = try Self.payload(markdown: markdown, digest: digest)
        } catch {
            return Delivery(delivered: false, attempts: 0, lastProblem: "the digest could not be encoded: \(error)")
        }
        let request = FetchRequest(
            url: url.revealed(), headers: [HTTPHeader(name: "Content-Type", value: "application/json")], timeout: notify.timeout,
            connectTimeout: min(notify.timeout, 10), maxBodyBytes: 1 << 20, maxRedirects: 0, acceptCompressed: false,
            followRedirects: false, postBody: body
        )
        var problem: String?
        for attempt in 1...(notify.retries + 1) {
            if attempt > 1 { pause(attempt - 1) }
            do {
                let response = try fetcher.fetch(request)
                if (200..<300).contains(response.status) { return Delivery(delivered: true, attempts: attempt, lastProblem: nil) }
                problem = "HTTP \(response.status)"
                // A client error other than rate limiting will not change by asking again.
                if response.status < 500 && response.status != 429 { return Delivery(delivered: false, attempts: attempt, lastProblem: problem) }
            } catch {
                // The message names the URL, and a webhook's URL is its secret.
                problem = Self.kind(of: error)
            }
        }
        return Delivery(delivered: false, attempts: notify.retries + 1, lastProblem: problem)
    }

    static func payload(markdown: String, digest: WeeklyDigest) throws -> [UInt8] {
        struct Payload: Encodable {
            let text: String
            let digest: WeeklyDigest
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(Payload(text: markdown, digest: digest)))
    }

    private static func kind(of error: FetchError) -> String {
        switch error {
        case .timedOut: "timed out"
        case .couldNotConnect: "could not connect"
        case .transport(let code, _): "transfer failed (libcurl error \(code))"
        default: "the request failed"
        }
    }

    /// Where the digest went, without the path and query that hold a webhook's token.
    public static func describe(_ url: Secret) -> String {
        guard let components = URLComponents(string: url.revealed()), let host = components.host else { return "the webhook" }
        return components.port.map { "\(host):\($0)" } ?? host
    }
}
