@testable import CanopyKit
import CanopyLoopbackServer
import Foundation
import Testing

/// Large pages are audited one at a time (their memory adds up otherwise); others in parallel.
struct LargePageGateTests {
    /// The most bodies that ran at once when four threads each ran one of `size` bytes (threads
    /// of their own, which overlap on any number of cores while they sleep).
    func mostAtOnce(size: Int) -> Int {
        let gate = LargePageGate()
        let state = LockedState((running: 0, most: 0))
        let done = DispatchGroup()
        for _ in 0..<4 {
            done.enter()
            Thread {
                gate.oneAtATime(ifSized: size) {
                    state.withLock { $0.running += 1; $0.most = max($0.most, $0.running) }
                    Thread.sleep(forTimeInterval: 0.05)
                    state.withLock { $0.running -= 1 }
                }
                done.leave()
            }.start()
        }
        done.wait()
        return state.withLock { $0.most }
    }

    @Test func largePagesTakeTurns() {
        #expect(mostAtOnce(size: LargePageGate.threshold) == 1)
    }

    @Test func smallerPagesRunTogether() {
        #expect(mostAtOnce(size: LargePageGate.threshold - 1) > 1)
    }
}
