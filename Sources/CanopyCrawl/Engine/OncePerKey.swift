import Foundation

/// Values a crawl computes once per key (a stylesheet, a frame document) and shares between its
/// worker threads: the first thread to ask computes the value, outside the lock, while others
/// asking for the same key wait for it; every later ask is answered from memory.
public final class OncePerKey<Key: Hashable & Sendable, Value>: @unchecked Sendable {
    // Unchecked: `values` and `inFlight` are only touched under `condition`.
    private let condition = NSCondition()
    private var values: [Key: Value] = [:]
    private var inFlight: Set<Key> = []

    public init() {}

    /// The value for `key`, computed by `compute` the first time; `computed` is true for the one
    /// call that computed it (the place to count it).
    public func value(for key: Key, compute: () -> Value) -> (value: Value, computed: Bool) {
        condition.lock()
        while inFlight.contains(key) { condition.wait() }
        if let known = values[key] {
            condition.unlock()
            return (known, false)
        }
        inFlight.insert(key)
        condition.unlock()

        let value = compute()
        condition.lock()
        values[key] = value
        inFlight.remove(key)
        condition.broadcast()
        condition.unlock()
        return (value, true)
    }
}
