import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What Linux says about a process, for the tests and benchmarks that measure memory in child
/// processes (tests share one process, so a page's memory can only be told apart in its own).
public enum ProcessStatus {
    /// A `Vm…` field of /proc/PID/status (`VmHWM`, `VmRSS`...) in KiB, for `pid` or this process;
    /// nil when the process is gone or the field is missing.
    public static func kibibytes(_ field: String, of pid: pid_t? = nil) -> Int? {
        let path = "/proc/\(pid.map(String.init) ?? "self")/status"
        guard let status = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    /// A `wait` status as a shell reports it: the exit status, or 128 + the signal that ended it.
    public static func exitCode(fromWaitStatus status: Int32) -> Int32 {
        let signal = status & 0x7F
        return signal == 0 ? (status >> 8) & 0xFF : 128 + signal
    }
}
