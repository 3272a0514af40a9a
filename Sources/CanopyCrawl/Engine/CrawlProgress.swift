import Foundation

/// Where a crawl stands, for the progress line and log.
public struct CrawlProgress: Sendable, Equatable {
    public var pagesDone = 0
    public var queued = 0
    public var failed = 0
    public var bytes = 0
    public var elapsed: Double = 0

    public var pagesPerSecond: Double { elapsed > 0 ? Double(pagesDone) / elapsed : 0 }
    /// Seconds left at the current pace, when there is a pace to go by.
    public var estimatedSecondsLeft: Double? {
        pagesPerSecond > 0 && queued > 0 ? Double(queued) / pagesPerSecond : nil
    }

    public init() {}
}

/// How much a crawl says while it runs.
public enum Verbosity: Sendable, Comparable {
    case quiet, normal, verbose
}

/// Turns progress into output (a live terminal line is not a log record, which is why this is not
/// swift-log): on a terminal, one line rewritten in place a few times a second;
/// when piped or in CI, a plain log line every `logInterval` seconds, so logs stay readable.
/// Between `start` and `finish` it also asks for progress every `heartbeat` seconds, so a
/// crawl that is stuck on slow pages still says where it stands.
public final class CrawlProgressReporter: @unchecked Sendable {
    // @unchecked: the mutable state is only touched under `lock`.
    private let write: @Sendable (String) -> Void
    private let isTerminal: Bool
    private let verbosity: Verbosity
    private let logInterval: Double
    private let heartbeatInterval: Double
    private let lock = NSLock()
    private var lastWritten: Double = -.infinity
    private var lineIsOpen = false
    private var heartbeat: Heartbeat?

    public init(
        verbosity: Verbosity, isTerminal: Bool, logInterval: Double = 10, heartbeat: Double = 1,
        write: @escaping @Sendable (String) -> Void
    ) {
        self.verbosity = verbosity
        self.isTerminal = isTerminal
        self.logInterval = logInterval
        self.heartbeatInterval = heartbeat
        self.write = write
    }

    deinit {
        heartbeat?.stop()
    }

    /// Progress to standard error, as a live line when it is a terminal.
    public static func standardError(verbosity: Verbosity) -> CrawlProgressReporter {
        CrawlProgressReporter(verbosity: verbosity, isTerminal: isatty(STDERR_FILENO) == 1) { text in
            FileHandle.standardError.write(Data(text.utf8))
        }
    }

    /// Reports `snapshot()` every `heartbeat` seconds until `finish`; `report` still decides
    /// what is written, so this adds lines only when pages are slow to finish. A nil snapshot
    /// (the crawl is gone) writes nothing.
    public func start(_ snapshot: @escaping @Sendable () -> CrawlProgress?) {
        guard verbosity > .quiet else { return }
        let beat = Heartbeat(interval: heartbeatInterval) { [weak self] in
            if let progress = snapshot() { self?.report(progress) }
        }
        let previous = lock.withLock { () -> Heartbeat? in
            defer { heartbeat = beat }
            return heartbeat
        }
        previous?.stop()
    }

    public func report(_ progress: CrawlProgress) {
        guard verbosity > .quiet else { return }
        lock.withLock {
            let interval = isTerminal ? 0.2 : logInterval
            guard progress.elapsed - lastWritten >= interval else { return }
            lastWritten = progress.elapsed
            if isTerminal {
                write("\r\u{1B}[K" + Self.describe(progress))
                lineIsOpen = true
            } else {
                write(Self.describe(progress) + "\n")
            }
        }
    }

    /// A line about one page, shown with `--verbose` only.
    public func note(_ line: String) {
        guard verbosity == .verbose else { return }
        lock.withLock {
            write((lineIsOpen ? "\r\u{1B}[K" : "") + line + "\n")
            lineIsOpen = false
        }
    }

    /// Stops the heartbeat and ends the live line, so what follows starts on a line of its own.
    public func finish(_ progress: CrawlProgress) {
        lock.withLock { () -> Heartbeat? in
            defer { heartbeat = nil }
            return heartbeat
        }?.stop()
        guard verbosity > .quiet else { return }
        lock.withLock {
            write((isTerminal ? "\r\u{1B}[K" : "") + Self.describe(progress) + "\n")
            lineIsOpen = false
        }
    }

    static func describe(_ progress: CrawlProgress) -> String {
        var text = "\(progress.pagesDone) pages done, \(progress.queued) queued, "
            + String(format: "%.0f pages/s, ", progress.pagesPerSecond)
            + "\(progress.failed) failed"
        if let left = progress.estimatedSecondsLeft {
            text += String(format: ", about %.0f s left", left.rounded(.up))
        }
        return text
    }
}

/// Calls `beat` every `interval` seconds on a thread of its own until `stop()`, which returns
/// once that thread is done (so no beat arrives after it).
final class Heartbeat: @unchecked Sendable {
    // @unchecked: `stopped` and `exited` are only touched under `condition`.
    private let condition = NSCondition()
    private var stopped = false
    private var exited = false

    init(interval: Double, beat: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            condition.lock()
            while !stopped {
                // Waiting on the condition rather than sleeping lets stop() end the wait at once.
                if !condition.wait(until: Date(timeIntervalSinceNow: max(0.001, interval))), !stopped {
                    condition.unlock()
                    beat()
                    condition.lock()
                }
            }
            exited = true
            condition.broadcast()
            condition.unlock()
        }
        thread.name = "canopy-progress"
        thread.start()
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        while !exited { condition.wait() }
        condition.unlock()
    }
}
