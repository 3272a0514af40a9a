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

    @Test("submit waits while the queue is full")
    func boundedQueue() {
        let gate = NSCondition()
        let open = Mutex(false)
        let started = Mutex(0)
        let pool = WorkerPool<Int>(workers: 1, capacity: 2, name: "test-bounded") { _ in
            started.withLock { $0 += 1 }
            gate.lock()
            while !open.withLock({ $0 }) { gate.wait() }
            gate.unlock()
        }
        let submitted = Mutex(0)
        let producer = Thread {
            for number in 0..<10 {
                pool.submit(number)
                submitted.withLock { $0 += 1 }
            }
        }
        producer.start()
        // One item taken by the blocked worker, two queued, the fourth submit waiting: three go
        // through, and no more however long the producer is left alone.
        var deadline = Date().addingTimeInterval(10)
        while submitted.withLock({ $0 }) < 3, Date() < deadline { usleep(1_000) }
        usleep(100_000)
        #expect(submitted.withLock { $0 } == 3)
        gate.lock()
        open.withLock { $0 = true }
        gate.broadcast()
        gate.unlock()
        deadline = Date().addingTimeInterval(10)
        while submitted.withLock({ $0 }) < 10, Date() < deadline { usleep(1_000) }
        pool.close()
        pool.wait()
        #expect(started.withLock { $0 } == 10)
    }

    @Test("submit waits while the queued items outweigh the limit, and always lets one in")
    func weightBoundedQueue() {
        let gate = NSCondition()
        let open = Mutex(false)
        // Items are their own weight: a worker held at the gate takes the first, then the queue
        // (capacity 8, weight 10) holds 4 + 5 = 9; 9 + 3 is over, so that submit waits.
        let pool = WorkerPool<Int>(workers: 1, capacity: 8, weight: { $0 }, maximumWeight: 10, name: "test-weighted") { _ in
            gate.lock()
            while !open.withLock({ $0 }) { gate.wait() }
            gate.unlock()
        }
        let weights = [1, 4, 5, 3, 50, 2]
        let submitted = Mutex(0)
        let producer = Thread {
            for weight in weights {
                pool.submit(weight)
                submitted.withLock { $0 += 1 }
            }
        }
        producer.start()
        var deadline = Date().addingTimeInterval(10)
        while submitted.withLock({ $0 }) < 3, Date() < deadline { usleep(1_000) }
        usleep(100_000)
        #expect(submitted.withLock { $0 } == 3)
        gate.lock()
        open.withLock { $0 = true }
        gate.broadcast()
        gate.unlock()
        // The item of 50, over the limit alone, goes in once the queue is empty.
        deadline = Date().addingTimeInterval(10)
        while submitted.withLock({ $0 }) < weights.count, Date() < deadline { usleep(1_000) }
        #expect(submitted.withLock { $0 } == weights.count)
        pool.close()
        pool.wait()
    }
}
