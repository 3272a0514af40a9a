import Glibc

/// A joinable POSIX thread. Foundation's Thread cannot be joined, and the test
/// server's stop() must wait until every one of its threads has ended.
struct POSIXThread {
    private let id: pthread_t

    /// The closure travels to the new thread in a retained box, released there.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    init(_ body: @escaping @Sendable () -> Void) throws(LoopbackServerError) {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var id = pthread_t()
        let result = pthread_create(&id, nil, { argument in
            guard let argument else { return nil }
            Unmanaged<Body>.fromOpaque(argument).takeRetainedValue().run()
            return nil
        }, box)
        guard result == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw LoopbackServerError(operation: "pthread_create", errorNumber: result)
        }
        self.id = id
    }

    func join() {
        pthread_join(id, nil)
    }
}

/// A failed system call while starting the test server.
public struct LoopbackServerError: Error, CustomStringConvertible {
    public let operation: String
    public let errorNumber: Int32

    public var description: String {
        "\(operation) failed: \(String(cString: strerror(errorNumber)))"
    }
}
