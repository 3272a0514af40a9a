import CanopyCrawl
import CanopyTestSupport
import Foundation
import Testing

/// Runs a FetchLoop over `urls` until every job completes, and returns the completions by tag.
func fetchAll(_ urls: [String], policy: FetchPolicy, configure: (FetchLoop) -> Void = { _ in }) throws -> [Int: FetchCompletion] {
    let completions = LockedState<[Int: FetchCompletion]>([:])
    let loop = try FetchLoop(policy: policy) { completion in
        completions.withLock { $0[completion.job.tag] = completion }
    }
    configure(loop)
    for (index, url) in urls.enumerated() {
        loop.submit(FetchJob(request: FetchRequest(url: url, timeout: 5), tag: index))
    }
    loop.finish()
    loop.run()
    return completions.withLock { $0 }
}

/// Counts requests in flight at the server, to check the loop's limits from the outside.
final class ConcurrencyProbe: Sendable {
    private let state = LockedState((current: 0, peak: 0))

    func enter() { state.withLock { $0.current += 1; $0.peak = max($0.peak, $0.current) } }
    func leave() { state.withLock { $0.current -= 1 } }
    var peak: Int { state.withLock { $0.peak } }
}

@Suite("FetchLoop: many transfers on libcurl's multi interface")
struct FetchLoopTests {
    @Test("fetches every URL once, over few reused connections")
    func fetchesEverythingWithConnectionReuse() throws {
        let server = try TestHTTPServer { request in .html("<p>\(request.path)</p>") }
        let urls = (0..<200).map { server.url("/page/\($0)") }

        let completions = try fetchAll(urls, policy: FetchPolicy(maxInFlight: 8, maxPerHost: 4))

        #expect(completions.count == 200)
        for (tag, completion) in completions {
            let response = try completion.result.get()
            #expect(String(decoding: response.body, as: UTF8.self) == "<p>/page/\(tag)</p>")
            #expect(completion.attempts == 1)
        }
        #expect(server.requests.count == 200)
        // Keep-alive: the 200 requests travel over a handful of connections, not 200.
        #expect(server.connectionCount <= 8)
    }

    @Test("never has more than maxPerHost requests in flight to one host")
    func perHostLimit() throws {
        let probe = ConcurrencyProbe()
        let server = try TestHTTPServer { _ in
            probe.enter()
            defer { probe.leave() }
            Thread.sleep(forTimeInterval: 0.02)
            return .html("<p>ok</p>")
        }
        let urls = (0..<30).map { server.url("/\($0)") }

        let completions = try fetchAll(urls, policy: FetchPolicy(maxInFlight: 16, maxPerHost: 3))

        #expect(completions.count == 30)
        #expect(probe.peak <= 3)
        #expect(probe.peak >= 2, "the loop should run transfers in parallel")
    }

    @Test("spaces requests to a host by the minimum interval (crawl-delay)")
    func minimumInterval() throws {
        let server = try TestHTTPServer { _ in .html("<p>ok</p>") }
        let urls = (0..<5).map { server.url("/\($0)") }

        let completions = try fetchAll(urls, policy: FetchPolicy()) { loop in
            loop.setMinimumInterval(0.1, forHostOf: server.baseURL)
        }

        #expect(completions.count == 5)
        let arrivals = server.requests.map(\.receivedAt).sorted()
        for (earlier, later) in zip(arrivals, arrivals.dropFirst()) {
            #expect(later.timeIntervalSince(earlier) >= 0.09)
        }
    }

    @Test("retries a 503 and a 429, honouring Retry-After, and reports the attempts")
    func retriesRetryableStatuses() throws {
        let hits = LockedState([String: Int]())
        let server = try TestHTTPServer { request in
            let count = hits.withLock { $0[request.path, default: 0] += 1; return $0[request.path]! }
            switch request.path {
            case "/flaky": return count < 3 ? .text("busy", status: 503) : .html("<p>finally</p>")
            case "/limited": return count < 2 ? TestHTTPResponse.text("slow down", status: 429).withHeader("Retry-After", "0") : .html("<p>ok</p>")
            case "/broken": return .text("always down", status: 500)
            default: return .notFound
            }
        }
        let policy = FetchPolicy(retries: 2, backoff: 0.01)

        let completions = try fetchAll([server.url("/flaky"), server.url("/limited"), server.url("/broken"), server.url("/missing")], policy: policy)

        #expect(try completions[0]?.result.get().status == 200)
        #expect(completions[0]?.attempts == 3)
        #expect(try completions[1]?.result.get().status == 200)
        #expect(completions[1]?.attempts == 2)
        // Out of retries: the last response is the outcome.
        #expect(try completions[2]?.result.get().status == 500)
        #expect(completions[2]?.attempts == 3)
        // 404 is an answer, not a hiccup.
        #expect(try completions[3]?.result.get().status == 404)
        #expect(completions[3]?.attempts == 1)
    }

    @Test("waits as long as Retry-After says, given in seconds or as an HTTP date")
    func retryAfterIsWaitedFor() throws {
        let hits = LockedState([String: Int]())
        let server = try TestHTTPServer { request in
            let count = hits.withLock { $0[request.path, default: 0] += 1; return $0[request.path]! }
            guard count == 1 else { return .html("<p>ok</p>") }
            switch request.path {
            case "/seconds": return TestHTTPResponse.text("busy", status: 503).withHeader("Retry-After", "1")
            // Whole seconds only: three seconds ahead is at least two from now.
            case "/date": return TestHTTPResponse.text("slow down", status: 429).withHeader("Retry-After", HTTPDate.string(from: Date(timeIntervalSinceNow: 3)))
            default: return .notFound
            }
        }
        // Without Retry-After the pause would be the 10 ms backoff.
        let policy = FetchPolicy(retries: 1, backoff: 0.01, maxBackoff: 30)

        let completions = try fetchAll([server.url("/seconds"), server.url("/date")], policy: policy)

        for tag in [0, 1] {
            #expect(try completions[tag]?.result.get().status == 200)
            #expect(completions[tag]?.attempts == 2)
            #expect(completions[tag]?.refusedRetryAfter == nil)
        }
        func gap(_ path: String) -> TimeInterval? {
            let arrivals = server.requests.filter { $0.path == path }.map(\.receivedAt)
            guard arrivals.count == 2 else { return nil }
            return arrivals[1].timeIntervalSince(arrivals[0])
        }
        #expect(try #require(gap("/seconds")) >= 0.95, "the retry came after the second the server asked for")
        #expect(try #require(gap("/date")) >= 1.95, "the retry came after the date the server named")
    }

    @Test("a Retry-After longer than maxBackoff is not waited for: the response is the outcome, with the wait it asked for")
    func retryAfterBeyondMaxBackoff() throws {
        let server = try TestHTTPServer { request in
            switch request.path {
            case "/hour": return TestHTTPResponse.text("later", status: 503).withHeader("Retry-After", "3600")
            case "/tomorrow": return TestHTTPResponse.text("later", status: 429).withHeader("Retry-After", HTTPDate.string(from: Date(timeIntervalSinceNow: 86_400)))
            default: return .notFound
            }
        }
        let policy = FetchPolicy(retries: 3, backoff: 0.01, maxBackoff: 5)

        let completions = try fetchAll([server.url("/hour"), server.url("/tomorrow")], policy: policy)

        #expect(try completions[0]?.result.get().status == 503)
        #expect(completions[0]?.attempts == 1)
        #expect(completions[0]?.refusedRetryAfter == 3600)
        #expect(try completions[1]?.result.get().status == 429)
        #expect(completions[1]?.attempts == 1)
        #expect(completions[1]?.refusedRetryAfter.map { $0 > 86_000 && $0 <= 86_400 } == true)
        #expect(server.requests.count == 2, "neither was asked for again")
    }

    @Test("retries a timeout and gives up with timedOut")
    func retriesTimeouts() throws {
        let server = try TestHTTPServer { _ in TestHTTPResponse.text("late").delayed(by: .seconds(3)) }
        let completions = LockedState<[FetchCompletion]>([])
        let loop = try FetchLoop(policy: FetchPolicy(retries: 1, backoff: 0.01)) { completion in
            completions.withLock { $0.append(completion) }
        }
        loop.submit(FetchJob(request: FetchRequest(url: server.url("/slow"), timeout: 0.2), tag: 1))
        loop.finish()
        loop.run()

        let completion = try #require(completions.withLock { $0.first })
        #expect(completion.attempts == 2)
        guard case .failure(.timedOut) = completion.result else {
            Issue.record("expected a timeout, got \(completion.result)")
            return
        }
    }

    @Test("refuses a non-http URL at once and goes on with the rest")
    func refusesOtherSchemes() throws {
        let server = try TestHTTPServer { _ in .html("<p>ok</p>") }

        let completions = try fetchAll(["file:///etc/passwd", "gopher://127.0.0.1/", server.url("/")], policy: FetchPolicy())

        #expect(completions[0]?.attempts == 0 || completions[0]?.attempts == 1)
        guard case .failure(.unsupportedScheme) = completions[0]?.result, case .failure(.unsupportedScheme) = completions[1]?.result else {
            Issue.record("expected unsupportedScheme failures")
            return
        }
        #expect(try completions[2]?.result.get().status == 200)
    }

    @Test("stop() abandons queued work and returns")
    func stopAbandonsWork() throws {
        let server = try TestHTTPServer { _ in TestHTTPResponse.html("<p>ok</p>").delayed(by: .milliseconds(200)) }
        let completions = LockedState<[FetchCompletion]>([])
        let loop = try FetchLoop(policy: FetchPolicy(maxInFlight: 1)) { completion in
            completions.withLock { $0.append(completion) }
        }
        for index in 0..<20 { loop.submit(FetchJob(request: FetchRequest(url: server.url("/\(index)")), tag: index)) }
        let stopper = Thread {
            Thread.sleep(forTimeInterval: 0.3)
            loop.stop()
        }
        stopper.start()
        loop.run()

        let all = completions.withLock { $0 }
        #expect(all.count == 20, "every job completes, abandoned ones with an error")
        #expect(all.filter { (try? $0.result.get()) != nil }.count < 20)
        #expect(loop.outstandingCount == 0)
    }

    @Test("Retry-After as seconds or an HTTP date")
    func retryAfterParsing() {
        #expect(FetchLoop.retryAfterSeconds("120") == 120)
        let inTenSeconds = Date(timeIntervalSinceNow: 10)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        let seconds = FetchLoop.retryAfterSeconds(formatter.string(from: inTenSeconds))
        #expect(seconds.map { $0 > 8 && $0 <= 10 } == true)
        #expect(FetchLoop.retryAfterSeconds("soon") == nil)
    }
}
