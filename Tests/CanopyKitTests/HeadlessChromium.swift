import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs the installed Chromium headless on a local file, with a profile of its own (tests run in
/// parallel) and a hard time limit, so a browser that hangs cannot hang the test run.
struct HeadlessChromium {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let executable: String
    /// A folder the caller owns; the profile goes under it.
    let workFolder: String
    var timeLimit: Duration = .seconds(60)

    /// A screenshot of the page at `url`, `width` × `height` CSS pixels at scale 1.
    func screenshot(of url: URL, to path: String, width: Int = 1280, height: Int) throws -> PNGImage {
        _ = try run(["--hide-scrollbars", "--force-device-scale-factor=1", "--window-size=\(width),\(height)", "--screenshot=\(path)", url.absoluteString])
        return try PNGImage(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// The DOM after the page loaded and its timers had 3 s of virtual time: what any script
    /// that ran would have changed.
    func dumpDOM(of url: URL) throws -> String {
        try run(["--virtual-time-budget=3000", "--dump-dom", url.absoluteString])
    }

    private func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        // --no-sandbox: tests may run as root, where Chromium's sandbox refuses to start.
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-extensions", "--disable-dev-shm-usage",
            "--user-data-dir=\((workFolder as NSString).appendingPathComponent("chromium-profile"))",
        ] + arguments
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("canopy-chromium-\(UUID().uuidString).out")
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: output.path])
        }
        defer { try? FileManager.default.removeItem(at: output) }
        // A file rather than a pipe: a browser that writes a lot cannot block on a full pipe.
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        let (seconds, attoseconds) = timeLimit.components
        if ended.wait(timeout: .now() + Double(seconds) + Double(attoseconds) / 1e18) == .timedOut {
            process.terminate()
            if ended.wait(timeout: .now() + 5) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                _ = ended.wait(timeout: .now() + 5)
            }
            throw Failure(description: "chromium did not finish within \(timeLimit) and was stopped: \(arguments.joined(separator: " "))")
        }
        guard process.terminationStatus == 0 else {
            throw Failure(description: "chromium exited with status \(process.terminationStatus): \(arguments.joined(separator: " "))")
        }
        return try String(contentsOf: output, encoding: .utf8)
    }
}
