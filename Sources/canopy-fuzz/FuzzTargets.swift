// Fuzz targets for Canopy's two parsers of untrusted input (see docs/fuzzing.md).
//
// - `parse`: arbitrary bytes → HTMLParser → every rule of RuleCatalog.all, plus target selectors
//   and snippets for a few result nodes (the code paths a crawled page reaches).
// - `selector`: arbitrary bytes → SelectorList; when it parses, it is matched against a small
//   fixed document (the code paths `--include`/`--exclude` and rule-set configs reach).
//
// Two builds of this one target:
// - normal (`swift build`): a corpus replayer, `canopy-fuzz parse|selector FILE...`, which runs each
//   file through the same function and exits 0 — what the regression tests and a crash triage use;
// - fuzzer (`-sanitize=fuzzer,address -DFUZZING`, see Fuzz/run.sh): exports
//   `LLVMFuzzerTestOneInput` and hands control to libFuzzer's driver; libFuzzer owns argv, so the
//   target is chosen with the environment variable CANOPY_FUZZ_TARGET=parse|selector.
//
// Tests/CanopyRulesTests/FuzzCorpusTests.swift holds a copy of the two functions below (a test
// target cannot import an executable); keep them in step.
import CanopyHTML
import CanopyRules
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

enum FuzzTarget: String {
    case parse, selector

    func run(_ bytes: [UInt8]) {
        switch self {
        case .parse: FuzzTarget.parseAndAudit(bytes)
        case .selector: FuzzTarget.parseAndMatchSelector(bytes)
        }
    }

    static let auditor = Auditor(rules: RuleCatalog.all)

    static func parseAndAudit(_ bytes: [UInt8]) {
        let document = HTMLParser().parse(bytes: bytes, contentType: "text/html", url: "https://fuzz.example/")
        let result = auditor.audit(document)
        // Targets and snippets are built on demand; ask for a few of every outcome.
        var described = 0
        for rule in result.rules {
            for node in rule.nodes.prefix(2) where described < 40 {
                described += 1
                precondition(!node.target.isEmpty)
                _ = node.html
                _ = node.element.snippet(maxLength: 40)
            }
        }
    }

    static let selectorDocument = HTMLParser().parse(html: """
        <!DOCTYPE html><html lang="en"><head><title>t</title></head><body>
        <header id="top" class="a b"><nav aria-label="main"><ul><li><a href="/x" lang="en-US">x</a></li>
        <li class="b"><a href="https://e.example/y?q=1">y</a></li><li></li></ul></nav></header>
        <main><h1 data-x="1 2">T</h1><p>text <em>e</em> <!-- c --></p>
        <form><input type="checkbox" checked disabled><select><option selected>o</option></select>
        <label for="i">l</label><input id="i" required></form>
        <table><tr><th scope=col>h</th></tr><tr><td>d</td></tr></table>
        <svg viewBox="0 0 1 1"><g><title>s</title></g></svg><div hidden></div><p></p></main>
        </body></html>
        """)

    static func parseAndMatchSelector(_ bytes: [UInt8]) {
        guard let list = try? SelectorList(String(decoding: bytes, as: UTF8.self)) else { return }
        _ = selectorDocument.querySelectorAll(list)
        _ = list.description
    }
}

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

nonisolated(unsafe) private var fuzzTarget = FuzzTarget.parse

func runFuzzer() -> CInt {
    let name = getenv("CANOPY_FUZZ_TARGET").map { String(cString: $0) } ?? ""
    guard let target = FuzzTarget(rawValue: name) else {
        warn("canopy-fuzz: set CANOPY_FUZZ_TARGET=parse or selector")
        return 2
    }
    fuzzTarget = target
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    fuzzTarget.run(bytes)
    return 0
}
#else
/// Runs each file through the target, e.g. a crash artifact once it is fixed.
func replay(_ arguments: [String]) {
    guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
        warn("usage: canopy-fuzz parse|selector FILE...")
        exit(2)
    }
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
        target.run(bytes)
        print("ok \(path)")
    }
}
#endif
