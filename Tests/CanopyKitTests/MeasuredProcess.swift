import CanopyTestSupport
import Foundation
import Glibc
import Testing

/// The built `canopy` executable run to its end in a child process, with the child's peak memory.
/// Tests run in parallel in one process, so a page's memory can only be told apart in a process
/// of its own.
///
/// The peak is the child's `VmHWM` (/proc/PID/status), read every 10 ms while it runs: `ru_maxrss`
/// cannot serve, since a child spawned from this process (vfork and exec) starts with this
/// process's own high-water mark, hundreds of megabytes when the tests around it parse big pages.
/// A peak in the last 10 ms of the child's life could be missed; the peaks measured here come
/// while a page is parsed and audited, well before the crawl writes its reports and ends.
/// Output goes to files, not pipes, so that no other test's child inheriting a pipe end can hold
/// up the end of this one.
struct MeasuredProcess {
    let status: Int32
    /// Peak resident set of the child, in bytes.
    let peakBytes: Int
    let stdout: String
    let stderr: String

    var description: String {
        "exit \(status), peak \(peakBytes / 1_048_576) MB\n--- stdout:\n\(stdout)\n--- stderr:\n\(stderr)"
    }

    /// Runs `canopy arguments`, its output kept in `folder`.
    static func canopy(_ arguments: [String], outputIn folder: String) throws -> MeasuredProcess {
        let binary = try #require(CommandLineTests.binary, "the canopy executable is not built next to the tests (run `swift build --build-tests`)")
        let outPath = folder + "/stdout.txt", errPath = folder + "/stderr.txt"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv: [UnsafeMutablePointer<CChar>?] = ([binary.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, binary.path, &actions, nil, argv, environ)
        try #require(spawned == 0, "posix_spawn failed: \(String(cString: strerror(spawned)))")
        let peak = LockedState(0)
        let exited = LockedState(false)
        let child = pid
        let sampler = Thread {
            while !exited.withLock({ $0 }) {
                if let kib = ProcessStatus.kibibytes("VmHWM", of: child) { peak.withLock { $0 = max($0, kib) } }
                usleep(10_000)
            }
        }
        sampler.start()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            try #require(errno == EINTR, "waitpid failed: \(String(cString: strerror(errno)))")
        }
        exited.withLock { $0 = true }
        return MeasuredProcess(
            status: ProcessStatus.exitCode(fromWaitStatus: status), peakBytes: peak.withLock { $0 } * 1024,
            stdout: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? ""
        )
    }
}
