import Foundation

/// A fixed set of threads taking work items from a bounded queue. `submit` blocks while the
/// queue is full, which is how a fast producer (the fetch loop) is held to the pace of the
/// consumers (parsing and auditing) and memory stays bounded: at most `capacity` page bodies
/// wait at any time, and (beyond the first) no more than `maximumWeight` bytes of them.
final class WorkerPool<Item: Sendable>: @unchecked Sendable {
    // @unchecked: `items`, `queuedWeight` and `closed` are only touched while holding `condition`.
    private let condition = NSCondition()
    private var items: [Item] = []
    private var queuedWeight = 0
    private var closed = false
    private let capacity: Int
    private let weight: @Sendable (Item) -> Int
    private let maximumWeight: Int
    private let finished = DispatchGroup()

    /// - Parameters:
    ///   - weight: what an item costs to hold (a page's body size); queued items together stay
    ///     under `maximumWeight`, except that one item is always let in.
    init(
        workers: Int, capacity: Int, weight: @escaping @Sendable (Item) -> Int = { _ in 0 }, maximumWeight: Int = .max, name: String,
        work: @escaping @Sendable (consuming Item) -> Void
    ) {
        self.capacity = max(1, capacity)
        self.weight = weight
        self.maximumWeight = maximumWeight
        for index in 0..<max(1, workers) {
            finished.enter()
            let thread = Thread { [self] in
                // Handed over, not lent: what `work` lets go of (a page's body once parsed) is
                // freed then, not when `work` returns.
                while let item = next() { work(consume item) }
                finished.leave()
            }
            thread.name = "\(name)-\(index)"
            // Parsing deeply nested pages recurses; the default secondary-thread stack is small.
            thread.stackSize = 16 << 20
            thread.start()
        }
    }

    /// Queues an item, waiting while the queue is full.
    func submit(_ item: consuming Item) {
        let itemWeight = weight(item)
        condition.lock()
        while (items.count >= capacity || (!items.isEmpty && queuedWeight + itemWeight > maximumWeight)) && !closed { condition.wait() }
        items.append(consume item)
        queuedWeight += itemWeight
        condition.broadcast()
        condition.unlock()
    }

    /// No more items will come: the workers finish the queue and stop.
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for every worker to stop (after `close`).
    func wait() { finished.wait() }

    private func next() -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty && !closed { condition.wait() }
        guard !items.isEmpty else { return nil }
        // Taken out of the queue, not read past: items left behind a read index kept up to 512
        // fetched pages alive (14 MB of a styled java.base crawl's peak heap). The queue holds
        // `capacity` items at most, so shifting them is nothing.
        let item = items.removeFirst()
        queuedWeight -= weight(item)
        condition.broadcast()
        return item
    }
}
