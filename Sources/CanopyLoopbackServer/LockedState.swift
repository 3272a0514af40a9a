import Glibc

/// A value guarded by a pthread mutex. Used instead of Synchronization.Mutex,
/// whose futex-based lock ThreadSanitizer cannot see (it reports false races),
/// so that test runs under --sanitize=thread stay clean.
public final class LockedState<Value>: @unchecked Sendable {
    // @unchecked: every access to `value` happens between lock and unlock below.
    private var value: Value
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
