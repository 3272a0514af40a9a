import CanopyTestSupport
import Foundation

/// Runs `body` on `threadCount` separate OS threads at once and returns every
/// result, in thread order. Swift concurrency would cap parallelism at the core
/// count; these tests want real threads calling the blocking fetcher together.
func runOnThreads<Result: Sendable>(
    _ threadCount: Int,
    _ body: @escaping @Sendable (_ threadIndex: Int) -> Result
) -> [Result] {
    let results = ResultSlots<Result>(count: threadCount)
    let finished = DispatchGroup()
    for index in 0..<threadCount {
        finished.enter()
        let thread = Thread {
            results.store(body(index), at: index)
            finished.leave()
        }
        thread.start()
    }
    finished.wait()
    return results.all()
}

private final class ResultSlots<Result: Sendable>: Sendable {
    private let slots: LockedState<[Result?]>

    init(count: Int) {
        slots = LockedState(Array(repeating: nil, count: count))
    }

    func store(_ result: Result, at index: Int) {
        slots.withLock { $0[index] = result }
    }

    func all() -> [Result] {
        slots.withLock { $0.map { $0! } }
    }
}

/// Polls `condition` until it holds or `timeout` passes; true if it held.
func waitUntil(timeout: Duration = .seconds(5), _ condition: () -> Bool) -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while clock.now < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    }
    return condition()
}
