import CanopyTestSupport
import Foundation
import Glibc
import Testing

/// The built `canopy` executable running as a child process, which a test can signal while it
/// works. Output is drained on background threads, so a chatty child never blocks on a full pipe.
final class CanopyProcess: @unchecked Sendable {
    // @unchecked: `process` is set up before `run()` and then only read; the output buffers are locked.
    struct Ending {
        let status: Int32
        /// True when a signal ended the process (`status` is then the signal's number).
        let killedBySignal: Bool
        let stdout: String
        let stderr: String

        var description: String {
            (killedBySignal ? "killed by signal \(status)" : "exit \(status)") + "\n--- stdout:\n\(stdout)\n--- stderr:\n\(stderr)"
        }
    }

    private let process = Process()
    private let collected = LockedState((stdout: Data(), stderr: Data()))
    private let readers = DispatchGroup()
    private let exited = DispatchSemaphore(value: 0)

    /// Starts `canopy arguments`; `environment` is added to this process's environment.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        let binary = try #require(CommandLineTests.binary, "the canopy executable is not built next to the tests (run `swift build --build-tests`)")
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
        drain(out.fileHandleForReading) { $0.stdout.append($1) }
        drain(err.fileHandleForReading) { $0.stderr.append($1) }
    }

    var pid: Int32 { process.processIdentifier }

    func send(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Waits for the process to end and reaps it. `limit` only guards against a hung child (it is
    /// then killed and the test fails); it is not a measure of speed.
    func wait(limit: Duration = .seconds(300)) throws -> Ending {
        let (seconds, attoseconds) = limit.components
        if exited.wait(timeout: .now() + .milliseconds(Int(seconds * 1000 + attoseconds / 1_000_000_000_000_000))) == .timedOut {
            kill(pid, SIGKILL)
            exited.wait()
            readers.wait()
            Issue.record("canopy did not end within \(limit); killed it")
        }
        process.waitUntilExit()
        readers.wait()
        let output = collected.withLock { $0 }
        return Ending(
            status: process.terminationStatus, killedBySignal: process.terminationReason == .uncaughtSignal,
            stdout: String(decoding: output.stdout, as: UTF8.self), stderr: String(decoding: output.stderr, as: UTF8.self)
        )
    }

    /// Runs `canopy arguments` to its end.
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> Ending {
        try CanopyProcess(arguments, environment: environment).wait()
    }

    private func drain(_ handle: FileHandle, into append: @escaping @Sendable (inout (stdout: Data, stderr: Data), Data) -> Void) {
        readers.enter()
        let collected = collected, readers = readers
        DispatchQueue.global().async {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                collected.withLock { append(&$0, chunk) }
            }
            readers.leave()
        }
    }
}

/// Seeds for the tests' random schedules (SplitMix64): a failing run can be replayed from its
/// printed seed.
enum TestSeed {
    /// The seed named by `variable` in the environment (to replay a failure), or a new one.
    static func from(_ variable: String) -> UInt64 {
        ProcessInfo.processInfo.environment[variable].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64(UInt32.max))
    }
}
