// The fuzz driver for Canopy's parsers of untrusted input; the targets themselves are in
// Sources/CanopyFuzzing (shared with FuzzCorpusTests). See docs/fuzzing.md.
//
// Two builds of this one executable:
// - normal (`swift build`): a corpus replayer, `canopy-fuzz parse|selector FILE...`, which runs each
//   file through the same function (exit status 1 if one broke a promise) — for crash triage;
// - fuzzer (`-sanitize=fuzzer,address -DFUZZING`, see Fuzz/run.sh): exports
//   `LLVMFuzzerTestOneInput` and hands control to libFuzzer's driver; libFuzzer owns argv, so the
//   target is chosen with the environment variable CANOPY_FUZZ_TARGET=parse|selector.
import CanopyFuzzing
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Writes a line to standard error (the C `stderr` global is not concurrency-safe in Swift 6).
func warn(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

@main
struct CanopyFuzz {
    static func main() {
        #if FUZZING
        exit(runFuzzer())
        #else
        replay(Array(CommandLine.arguments.dropFirst()))
        #endif
    }
}

#if FUZZING
// SwiftPM links an executable's entry point as `main`, so libFuzzer's own `main` is not used:
// ours hands argv to libFuzzer's driver, which then calls `LLVMFuzzerTestOneInput` per input.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The harness chosen by CANOPY_FUZZ_TARGET, made once: libFuzzer's C callback cannot carry
/// context, so it reaches the harness through this immutable global.
let selectedHarness = getenv("CANOPY_FUZZ_TARGET")
    .flatMap { FuzzTarget(rawValue: String(cString: $0)) }
    .map { FuzzHarness(target: $0) }

func runFuzzer() -> CInt {
    guard selectedHarness != nil else {
        warn("canopy-fuzz: set CANOPY_FUZZ_TARGET=parse or selector")
        return 2
    }
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    do {
        try selectedHarness?.run(bytes)
    } catch {
        // A broken promise is a bug like a crash: stop so that libFuzzer saves the input.
        fatalError("canopy-fuzz: \(error)")
    }
    return 0
}
#else
/// Runs each file through the target, e.g. a crash artifact once it is fixed.
func replay(_ arguments: [String]) {
    guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
        warn("usage: canopy-fuzz parse|selector FILE...")
        exit(2)
    }
    let harness = FuzzHarness(target: target)
    var failed = false
    for path in arguments.dropFirst() {
        guard let file = fopen(path, "rb") else {
            warn("canopy-fuzz: cannot read \(path)")
            exit(2)
        }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        fclose(file)
        do {
            try harness.run(bytes)
            print("ok \(path)")
        } catch {
            warn("FAIL \(path): \(error)")
            failed = true
        }
    }
    exit(failed ? 1 : 0)
}
#endif
