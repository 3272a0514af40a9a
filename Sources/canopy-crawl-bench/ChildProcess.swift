import CanopyMeasurement
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs a program to its end and returns its standard output, exit status and resource usage,
/// peak memory (`ru_maxrss`, KiB) included.
///
/// posix_spawn and wait4 rather than Foundation's `Process`: Process reaps its child itself on a
/// thread of its own, and whichever of the two waits first gets the child's usage; the other
/// gets nothing. On Linux a spawned child's `ru_maxrss` is at least this process's own high-water
/// mark at the spawn (the exec records the memory it leaves), so children that measure memory
/// also report their own `VmHWM`, which counts from their exec.
struct ChildProcess {
    struct Ending {
        var status: Int32
        var output: Data
        var usage: rusage
    }

    enum Failure: Error, CustomStringConvertible {
        case call(String, Int32)

        var description: String {
            switch self {
            case .call(let name, let code): "\(name) failed: \(String(cString: strerror(code)))"
            }
        }
    }

    static func run(_ path: String, _ arguments: [String]) throws -> Ending {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw Failure.call("pipe", errno) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
        close(ends[1])
        guard spawned == 0 else {
            close(ends[0])
            throw Failure.call("posix_spawn \(path)", spawned)
        }
        var output = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(ends[0], $0.baseAddress, $0.count) }
            if count > 0 {
                output.append(contentsOf: buffer[..<count])
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        close(ends[0])
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else { throw Failure.call("wait4", errno) }
        }
        return Ending(status: ProcessStatus.exitCode(fromWaitStatus: status), output: output, usage: usage)
    }
}

/// This process's peak resident set since its exec (VmHWM), in KiB.
func ownHighWaterMark() -> Int { ProcessStatus.kibibytes("VmHWM") ?? 0 }
