import CanopyFuzzing
import CanopyHTML
import CanopyRules
import Foundation
import Testing

/// Replays Tests/FuzzCorpus (inputs that once crashed, hung or exhausted memory in a fuzz target,
/// and hand-made hostile ones: deep nesting, huge attributes, NUL bytes, invalid UTF-8,
/// unterminated constructs, pathological selectors) through FuzzHarness, the code the fuzzer runs
/// (docs/fuzzing.md). Passing means: no crash, no broken invariant, and every input finishes.
@Suite(.serialized)  // one input at a time, so that a slow one is not slowed further by the others
struct FuzzCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("FuzzCorpus")

    /// How long one input may take before it counts as hung. Not a speed requirement: a debug
    /// build on a loaded machine takes a few seconds for the largest inputs; the bugs this
    /// catches (quadratic audits of 64 KB pages, runaway table grids) took minutes or forever.
    static let hangLimit: Duration = .seconds(30)

    static func inputs(_ target: FuzzTarget) -> [String] {
        let folder = corpus.appendingPathComponent(target.rawValue).path
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { target.rawValue + "/" + $0 }
    }

    @Test func corpusIsThere() {
        #expect(Self.inputs(.parse).count >= 10)
        #expect(Self.inputs(.selector).count >= 10)
    }

    @Test(arguments: inputs(.parse))
    func parse(_ input: String) async throws {
        try await Self.replay(input, through: .parse)
    }

    @Test(arguments: inputs(.selector))
    func selector(_ input: String) async throws {
        try await Self.replay(input, through: .selector)
    }

    static func replay(_ input: String, through target: FuzzTarget) async throws {
        let bytes = [UInt8](try Data(contentsOf: corpus.appendingPathComponent(input)))
        let harness = FuzzHarness(target: target)
        switch await HangGuard.run(within: hangLimit, { try harness.run(bytes) }) {
        case nil: Issue.record("\(input) did not finish within \(hangLimit)")
        case .failure(let violation)?: Issue.record("\(input): \(violation)")
        case .success?: break
        }
    }

    @Test func hangGuardReportsWorkThatDoesNotFinish() async {
        // The worker outlives the test by design (a hung input cannot be stopped), so it waits
        // on a semaphore that is signalled afterwards instead of spinning.
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let outcome = await HangGuard.run(within: .milliseconds(200)) { release.wait() }
        #expect(outcome == nil)
        let finished = await HangGuard.run(within: .seconds(30)) {}
        #expect(finished != nil)
    }

    @Test func selectorNestingIsCappedWithAnError() throws {
        let page = HTMLParser().parse(html: FuzzHarness.selectorPage)
        let nested = { (levels: Int) in String(repeating: ":not(:is(", count: levels / 2) + "a" + String(repeating: "))", count: levels / 2) }
        // 16 × :not(:is( … )) is 32 levels, an even number of :not: it selects the two links.
        #expect(page.querySelectorAll(try SelectorList(nested(32))).count == 2)
        #expect(throws: SelectorParseError.self) { try SelectorList(nested(34)) }
        #expect(throws: SelectorParseError.self) { try SelectorList(String(repeating: ":is(", count: 100_000)) }
    }
}

/// Runs work on a thread of its own and gives up waiting after a time limit, so that an input
/// that hangs fails its test instead of stalling the whole run.
enum HangGuard {
    /// The work's outcome, or nil when it had not finished within `limit` (it is left running).
    static func run(
        within limit: Duration, _ work: @escaping @Sendable () throws -> Void
    ) async -> Result<Void, any Error>? {
        await withCheckedContinuation { continuation in
            let once = ResumeOnce(continuation)
            let thread = Thread { once.resume(with: Result { try work() }) }
            // The fuzzer runs inputs on the main thread; give this one as much stack (8 MB).
            thread.stackSize = 8 << 20
            thread.start()
            let (seconds, attoseconds) = limit.components
            let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) {
                once.resume(with: nil)
            }
        }
    }

    /// Whichever of the worker and the timer comes first resumes the waiting test; the other is ignored.
    private final class ResumeOnce: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Result<Void, any Error>?, Never>?

        init(_ continuation: CheckedContinuation<Result<Void, any Error>?, Never>) {
            self.continuation = continuation
        }

        func resume(with outcome: Result<Void, any Error>?) {
            let waiting = lock.withLock { () -> CheckedContinuation<Result<Void, any Error>?, Never>? in
                defer { continuation = nil }
                return continuation
            }
            waiting?.resume(returning: outcome)
        }
    }
}
