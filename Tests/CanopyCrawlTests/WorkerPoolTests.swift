import Foundation
import Synchronization
import Testing

@testable import CanopyCrawl

@Suite("Worker pool")
struct WorkerPoolTests {
    /// Stands for a fetched page: what a worker is done with must be freed, not kept by the queue.
    final class Body: Sendable {
        let number: Int
        init(number: Int) { self.number = number }
    }

    @Test("every item is worked once, and the queue keeps none it handed out")
    func releasesHandedOutItems() {
        let done = Mutex<[Int]>([])
        let pool = WorkerPool<Body>(workers: 2, capacity: 4, name: "test-pool") { body in
            done.withLock { $0.append(body.number) }
        }
        var watchers: [() -> Bool] = []
        for number in 0..<300 {
            let body = Body(number: number)
            watchers.append { [weak body] in body == nil }
            pool.submit(body)
        }
        // Wait for the work without closing: a closed pool is dropped, and with it whatever
        // its queue held, which would hide the leak this test is about.
        let deadline = Date().addingTimeInterval(10)
        while done.withLock({ $0.count }) < 300, Date() < deadline { usleep(1_000) }
        #expect(done.withLock { $0.sorted() } == Array(0..<300))
        // A worker drops its item just after working it: give the last ones that moment.
        while !watchers.allSatisfy({ $0() }), Date() < deadline { usleep(1_000) }
        #expect(watchers.allSatisfy { $0() }, "items still alive after being worked")
        pool.close()
        pool.wait()
    }

    /// Holds workers until opened, so that a test sees how much the queue takes meanwhile.
    final class Gate: @unchecked Sendable {
        // @unchecked: `isOpen` is only touched while holding `condition`.
        private let condition = NSCondition()
        private var isOpen = false

        func pass() {
            condition.lock()
            while !isOpen { condition.wait() }
            condition.unlock()
        }

        func open() {
            condition.lock()
            isOpen = true
            condition.broadcast()
            condition.unlock()
        }
    }

    /// How many of `items` a producer thread got into `pool`: submitted one after another, each
    /// counted once `submit` returned.
    final class Producer<Item: Sendable>: Sendable {
        private let submitted = Mutex(0)

        init(_ items: [Item], into pool: WorkerPool<Item>) {
            Thread { [self] in
                for item in items {
                    pool.submit(item)
                    submitted.withLock { $0 += 1 }
                }
            }.start()
        }

        var count: Int { submitted.withLock { $0 } }

        /// Waits (up to 10 s) until `count` reaches `expected`, then a moment more for any
        /// further submit that was going to return.
        func settle(at expected: Int) -> Int {
            let deadline = Date().addingTimeInterval(10)
            while count < expected, Date() < deadline { usleep(1_000) }
            usleep(100_000)
            return count
        }
    }

    @Test("submit waits while the queue is full")
    func boundedQueue() {
        let gate = Gate()
        let started = Mutex(0)
        let pool = WorkerPool<Int>(workers: 1, capacity: 2, name: "test-bounded") { _ in
            started.withLock { $0 += 1 }
            gate.pass()
        }
        let producer = Producer(Array(0..<10), into: pool)
        // One item taken by the blocked worker, two queued, the fourth submit waiting: three go
        // through, and no more however long the producer is left alone.
        #expect(producer.settle(at: 3) == 3)
        gate.open()
        #expect(producer.settle(at: 10) == 10)
        pool.close()
        pool.wait()
        #expect(started.withLock { $0 } == 10)
    }

    @Test("submit waits while the queued items outweigh the limit, and always lets one in")
    func weightBoundedQueue() {
        let gate = Gate()
        // Items are their own weight: a worker held at the gate takes the first, then the queue
        // (capacity 8, weight 10) holds 4 + 5 = 9; 9 + 3 is over, so that submit waits.
        let pool = WorkerPool<Int>(workers: 1, capacity: 8, weight: { $0 }, maximumWeight: 10, name: "test-weighted") { _ in gate.pass() }
        let weights = [1, 4, 5, 3, 50, 2]
        let producer = Producer(weights, into: pool)
        #expect(producer.settle(at: 3) == 3)
        gate.open()
        // The item of 50, over the limit alone, goes in once the queue is empty.
        #expect(producer.settle(at: weights.count) == weights.count)
        pool.close()
        pool.wait()
    }
}
