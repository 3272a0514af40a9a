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

/// Turns progress into output: on a terminal, one line rewritten in place a few times a second;
/// when piped or in CI, a plain log line every `logInterval` seconds, so logs stay readable.
public final class CrawlProgressReporter: @unchecked Sendable {
    // @unchecked: the mutable state is only touched under `lock`.
    private let write: @Sendable (String) -> Void
    private let isTerminal: Bool
    private let verbosity: Verbosity
    private let logInterval: Double
    private let lock = NSLock()
    private var lastWritten: Double = -.infinity
    private var lineIsOpen = false

    public init(verbosity: Verbosity, isTerminal: Bool, logInterval: Double = 10, write: @escaping @Sendable (String) -> Void) {
        self.verbosity = verbosity
        self.isTerminal = isTerminal
        self.logInterval = logInterval
        self.write = write
    }

    /// Progress to standard error, as a live line when it is a terminal.
    public static func standardError(verbosity: Verbosity) -> CrawlProgressReporter {
        CrawlProgressReporter(verbosity: verbosity, isTerminal: isatty(STDERR_FILENO) == 1) { text in
            FileHandle.standardError.write(Data(text.utf8))
        }
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

    /// Ends the live line, so what follows starts on a line of its own.
    public func finish(_ progress: CrawlProgress) {
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
