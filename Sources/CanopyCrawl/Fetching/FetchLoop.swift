import CCurl
import Foundation

/// A request handed to a `FetchLoop`, with the caller's tag to recognise its completion.
public struct FetchJob: Sendable {
    public var request: FetchRequest
    public var tag: Int

    public init(request: FetchRequest, tag: Int) {
        self.request = request
        self.tag = tag
    }
}

/// The final outcome of a job, after any retries.
public struct FetchCompletion: Sendable {
    public let job: FetchJob
    public let result: Result<FetchResponse, FetchError>
    /// How many times the request was sent (1 when it was not retried).
    public let attempts: Int
    /// The wait, in seconds, that a retryable response's `Retry-After` asked for when it was
    /// longer than `FetchPolicy.maxBackoff`: the request was not tried again, and the response
    /// is the outcome. Nil otherwise.
    public let refusedRetryAfter: Double?

    /// The bytes the completion holds while it waits to be processed: its body.
    var queuedBytes: Int {
        if case .success(let response) = result { return response.body.count }
        return 0
    }

    /// The outcome, taken out of the completion, which is gone after: the response's body then
    /// has one owner, who can free it before the page's processing is done.
    consuming func takeResult() -> Result<FetchResponse, FetchError> { result }

    init(job: FetchJob, result: Result<FetchResponse, FetchError>, attempts: Int, refusedRetryAfter: Double? = nil) {
        self.job = job
        self.result = result
        self.attempts = attempts
        self.refusedRetryAfter = refusedRetryAfter
    }
}

/// How hard a `FetchLoop` may push, and when it tries again.
public struct FetchPolicy: Sendable {
    /// Transfers in flight at once, over all hosts.
    public var maxInFlight: Int
    /// Transfers in flight at once to one host (scheme, host and port).
    public var maxPerHost: Int
    /// Seconds between the starts of two requests to one host (0: no pause). `Crawl-delay`
    /// can raise it for a host with `FetchLoop.setMinimumInterval(_:forHostOf:)`.
    public var minimumInterval: Double
    /// Further attempts after a timeout, a connection failure or a retryable status.
    public var retries: Int
    /// The pause before the first retry; each further retry doubles it.
    public var backoff: Double
    /// The longest pause before a retry. Exponential backoff stops growing here; a
    /// `Retry-After` asking for longer is not waited for at all (a crawl would stall on one
    /// URL for an hour), so the response is the outcome, with `refusedRetryAfter` set.
    public var maxBackoff: Double
    /// Statuses worth asking again for: rate limiting and temporary server trouble.
    public var retryStatuses: Set<Int>

    public init(
        maxInFlight: Int = 16,
        maxPerHost: Int = 8,
        minimumInterval: Double = 0,
        retries: Int = 2,
        backoff: Double = 0.5,
        maxBackoff: Double = 30,
        retryStatuses: Set<Int> = [429, 500, 502, 503, 504]
    ) {
        self.maxInFlight = max(1, maxInFlight)
        self.maxPerHost = max(1, maxPerHost)
        self.minimumInterval = max(0, minimumInterval)
        self.retries = max(0, retries)
        self.backoff = max(0, backoff)
        self.maxBackoff = max(0, maxBackoff)
        self.retryStatuses = retryStatuses
    }
}

/// Many transfers on one thread with libcurl's multi interface: connections are reused
/// across requests to a host (HTTP/1.1 keep-alive, HTTP/2 multiplexing where libcurl has it),
/// each host gets at most `maxPerHost` transfers and one start per `minimumInterval`, and
/// timeouts, connection failures and retryable statuses are retried with exponential backoff
/// (honouring `Retry-After`).
///
/// `submit` may be called from any thread; `run` drives the transfers on the calling thread
/// and calls `onComplete` there, once per job, so the handler should hand work off quickly.
/// `run` returns after `finish()` once every submitted job has completed.
public final class FetchLoop: @unchecked Sendable {
    private struct Waiting {
        var job: FetchJob
        var attempt: Int
        var notBefore: ContinuousClock.Instant
    }

    private struct HostState {
        var queue: [Waiting] = []
        var queueHead = 0
        var inFlight = 0
        var nextStart: ContinuousClock.Instant

        var hasWaiting: Bool { queueHead < queue.count }

        mutating func popFirst() -> Waiting {
            let first = queue[queueHead]
            queueHead += 1
            if queueHead > 1024, queueHead * 2 > queue.count {
                queue.removeFirst(queueHead)
                queueHead = 0
            }
            return first
        }

        mutating func pushFront(_ waiting: Waiting) {
            if queueHead > 0 {
                queueHead -= 1
                queue[queueHead] = waiting
            } else {
                queue.insert(waiting, at: 0)
            }
        }
    }

    private struct Running {
        let transfer: CurlTransfer
        let job: FetchJob
        let attempt: Int
        let host: String
        let started: ContinuousClock.Instant
    }

    public let policy: FetchPolicy
    private let onComplete: @Sendable (consuming FetchCompletion) -> Void
    private let clock = ContinuousClock()
    private let multi: UnsafeMutableRawPointer

    // Shared with submitting threads, under `lock`.
    private let lock = NSLock()
    private var inbox: [FetchJob] = []
    private var finishRequested = false
    private var stopRequested = false
    private var intervalOverrides: [String: Double] = [:]
    private var outstanding = 0

    // The loop thread's own state.
    private var hosts: [String: HostState] = [:]
    private var running: [UnsafeMutableRawPointer: Running] = [:]
    private var delayed: [Waiting] = []

    public init(policy: FetchPolicy = FetchPolicy(), onComplete: @escaping @Sendable (consuming FetchCompletion) -> Void) throws(FetchError) {
        try CurlLibrary.ensureInitialized()
        guard let multi = canopy_curl_multi_init() else {
            throw .transport(code: Int(CURLE_FAILED_INIT.rawValue), message: "could not create a curl multi handle")
        }
        self.policy = policy
        self.onComplete = onComplete
        self.multi = multi
        // Several requests share one HTTP/2 connection where the server offers it.
        _ = canopy_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        _ = canopy_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, policy.maxPerHost)
        _ = canopy_curl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, policy.maxInFlight)
    }

    deinit {
        for handle in running.keys { canopy_curl_multi_remove_handle(multi, handle) }
        running.removeAll()
        canopy_curl_multi_cleanup(multi)
    }

    /// Queues a job; its completion arrives through `onComplete` on the loop's thread.
    public func submit(_ job: FetchJob) {
        lock.withLock {
            inbox.append(job)
            outstanding += 1
        }
        canopy_curl_multi_wakeup(multi)
    }

    /// Jobs submitted and not yet completed.
    public var outstandingCount: Int { lock.withLock { outstanding } }

    /// Spaces the starts of requests to `url`'s host by at least `seconds` (e.g. its
    /// robots.txt `Crawl-delay`), when that is longer than the policy's interval.
    public func setMinimumInterval(_ seconds: Double, forHostOf url: String) {
        let host = Self.hostKey(of: url)
        lock.withLock { intervalOverrides[host] = max(0, seconds) }
        canopy_curl_multi_wakeup(multi)
    }

    /// Lets `run` return once every submitted job has completed.
    public func finish() {
        lock.withLock { finishRequested = true }
        canopy_curl_multi_wakeup(multi)
    }

    /// Abandons queued jobs (they complete with no further attempt) and returns from `run`
    /// after the transfers in flight are aborted.
    public func stop() {
        lock.withLock { stopRequested = true }
        canopy_curl_multi_wakeup(multi)
    }

    /// Drives the transfers until `finish()` (and nothing is left) or `stop()`.
    public func run() {
        while true {
            let (arrivals, finishing, stopping, overrides) = lock.withLock {
                let arrivals = inbox
                inbox.removeAll(keepingCapacity: true)
                return (arrivals, finishRequested, stopRequested, intervalOverrides)
            }
            let now = clock.now
            for job in arrivals { enqueue(Waiting(job: job, attempt: 1, notBefore: now)) }
            if stopping {
                abandonEverything()
                return
            }
            releaseDueRetries(now: now)
            startEligibleTransfers(now: now, overrides: overrides)

            var stillRunning: Int32 = 0
            canopy_curl_multi_perform(multi, &stillRunning)
            collectFinishedTransfers()

            if finishing, running.isEmpty, delayed.isEmpty, !hosts.values.contains(where: \.hasWaiting),
               lock.withLock({ inbox.isEmpty }) {
                return
            }
            var ready: Int32 = 0
            canopy_curl_multi_poll(multi, nil, 0, Int32(pollTimeoutMilliseconds(now: clock.now)), &ready)
        }
    }

    // MARK: - Scheduling

    private func enqueue(_ waiting: Waiting) {
        let host = Self.hostKey(of: waiting.job.request.url)
        hosts[host, default: HostState(nextStart: clock.now)].queue.append(waiting)
    }

    private func releaseDueRetries(now: ContinuousClock.Instant) {
        guard !delayed.isEmpty else { return }
        var stillWaiting: [Waiting] = []
        for waiting in delayed {
            if waiting.notBefore <= now {
                let host = Self.hostKey(of: waiting.job.request.url)
                hosts[host, default: HostState(nextStart: now)].pushFront(waiting)
            } else {
                stillWaiting.append(waiting)
            }
        }
        delayed = stillWaiting
    }

    private func startEligibleTransfers(now: ContinuousClock.Instant, overrides: [String: Double]) {
        guard running.count < policy.maxInFlight else { return }
        for host in Array(hosts.keys) {
            guard var state = hosts[host] else { continue }
            let interval = max(policy.minimumInterval, overrides[host] ?? 0)
            while running.count < policy.maxInFlight, state.hasWaiting, state.inFlight < policy.maxPerHost, state.nextStart <= now {
                let waiting = state.popFirst()
                if start(waiting, host: host, now: now) {
                    state.inFlight += 1
                    state.nextStart = now + .milliseconds(Int64((interval * 1000).rounded(.up)))
                }
                if interval > 0 { break }
            }
            if state.hasWaiting || state.inFlight > 0 || state.nextStart > now {
                hosts[host] = state
            } else {
                hosts[host] = nil  // forget idle hosts, so a long crawl keeps no state per host it left
            }
        }
    }

    /// Starts one transfer; a request that cannot even start completes at once.
    private func start(_ waiting: Waiting, host: String, now: ContinuousClock.Instant) -> Bool {
        let request = waiting.job.request
        do throws(FetchError) {
            try FetchURL.validate(request.url)
            for header in request.headers
            where !HTTPHeader.isValidName(header.name) || !HTTPHeader.isValidValue(header.value) {
                throw .invalidHeader(header.name)
            }
            let transfer = try CurlTransfer(request: request)
            let code = canopy_curl_multi_add_handle(multi, transfer.handle)
            guard code == CURLM_OK else {
                throw .transport(code: Int(code.rawValue), message: "\(request.url): \(String(cString: canopy_curl_multi_strerror(code)))")
            }
            running[transfer.handle] = Running(transfer: transfer, job: waiting.job, attempt: waiting.attempt, host: host, started: now)
            return true
        } catch {
            complete(waiting.job, .failure(error), attempts: waiting.attempt)
            return false
        }
    }

    private func collectFinishedTransfers() {
        var remaining: Int32 = 0
        while let message = canopy_curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                  let finished = running.removeValue(forKey: handle)
            else { continue }
            let code = message.pointee.data.result
            canopy_curl_multi_remove_handle(multi, handle)
            hosts[finished.host, default: HostState(nextStart: clock.now)].inFlight -= 1
            let elapsed = CurlTransfer.seconds(clock.now - finished.started)
            let result: Result<FetchResponse, FetchError>
            do throws(FetchError) {
                result = .success(try finished.transfer.complete(code: code, elapsed: elapsed))
            } catch {
                result = .failure(error)
            }
            let decision = finished.attempt <= policy.retries ? retryDecision(after: result, attempt: finished.attempt) : .final
            switch decision {
            case .retry(let pause):
                delayed.append(Waiting(job: finished.job, attempt: finished.attempt + 1, notBefore: clock.now + .milliseconds(Int64(pause * 1000))))
            case .final:
                complete(finished.job, consume result, attempts: finished.attempt)
            case .waitTooLong(let seconds):
                complete(finished.job, consume result, attempts: finished.attempt, refusedRetryAfter: seconds)
            }
        }
    }

    /// Hands the outcome over: the worker that takes it is the only owner of its body.
    private func complete(_ job: FetchJob, _ result: consuming Result<FetchResponse, FetchError>, attempts: Int, refusedRetryAfter: Double? = nil) {
        onComplete(FetchCompletion(job: job, result: result, attempts: attempts, refusedRetryAfter: refusedRetryAfter))
        lock.withLock { outstanding -= 1 }
    }

    private enum RetryDecision {
        /// Ask again after this many seconds.
        case retry(after: Double)
        /// Asking again would not help: the result is the outcome.
        case final
        /// `Retry-After` asks for a longer wait than `maxBackoff` allows.
        case waitTooLong(Double)
    }

    private func retryDecision(after result: Result<FetchResponse, FetchError>, attempt: Int) -> RetryDecision {
        let exponential = min(policy.maxBackoff, policy.backoff * Double(1 << min(attempt - 1, 20)))
        switch result {
        case .success(let response):
            guard policy.retryStatuses.contains(response.status) else { return .final }
            if let retryAfter = response.header("Retry-After").flatMap(Self.retryAfterSeconds) {
                guard retryAfter <= policy.maxBackoff else { return .waitTooLong(retryAfter) }
                return .retry(after: max(0, retryAfter))
            }
            return .retry(after: exponential)
        case .failure(let error):
            switch error {
            case .timedOut, .couldNotConnect: return .retry(after: exponential)
            case .transport(let code, _) where Self.transientCurlCodes.contains(code): return .retry(after: exponential)
            default: return .final
            }
        }
    }

    /// Failures of the connection rather than of the request: a reset, an empty reply, a cut body.
    private static let transientCurlCodes: Set<Int> = [
        Int(CURLE_RECV_ERROR.rawValue), Int(CURLE_SEND_ERROR.rawValue), Int(CURLE_GOT_NOTHING.rawValue),
        Int(CURLE_PARTIAL_FILE.rawValue), Int(CURLE_HTTP2.rawValue), Int(CURLE_HTTP2_STREAM.rawValue),
    ]

    /// `Retry-After` is either delay seconds or an HTTP date (RFC 9110 §10.2.3).
    public static func retryAfterSeconds(_ value: String) -> Double? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(trimmed) { return Double(seconds) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return date.timeIntervalSinceNow
    }

    private func pollTimeoutMilliseconds(now: ContinuousClock.Instant) -> Int {
        var wake = now + .milliseconds(500)
        for waiting in delayed where waiting.notBefore < wake { wake = waiting.notBefore }
        for state in hosts.values where state.hasWaiting && state.nextStart < wake { wake = state.nextStart }
        let (seconds, attoseconds) = (wake - now).components
        return max(0, Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000))
    }

    private func abandonEverything() {
        for (handle, running) in running {
            canopy_curl_multi_remove_handle(multi, handle)
            complete(running.job, .failure(.transport(code: Int(CURLE_ABORTED_BY_CALLBACK.rawValue), message: "\(running.job.request.url): crawl stopped")), attempts: running.attempt)
        }
        running.removeAll()
        for waiting in delayed + hosts.values.flatMap({ $0.queue[$0.queueHead...] }) {
            complete(waiting.job, .failure(.transport(code: Int(CURLE_ABORTED_BY_CALLBACK.rawValue), message: "\(waiting.job.request.url): crawl stopped")), attempts: waiting.attempt - 1)
        }
        delayed.removeAll()
        hosts.removeAll()
    }

    /// "scheme://host:port", lowercased: what politeness limits are counted against.
    static func hostKey(of url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url.lowercased() }
        let afterScheme = url[schemeEnd.upperBound...]
        let authorityEnd = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? afterScheme.endIndex
        var authority = afterScheme[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        return (url[..<schemeEnd.lowerBound] + "://" + authority).lowercased()
    }
}
