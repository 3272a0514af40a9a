// Parse (and audit) throughput over a folder of real HTML pages, next to bare libxml2 in the same
// run, so the figures are ratios that hold on any machine. Build with `-c release`.
//
//   swift run -c release canopy-bench [FOLDER] [--max-pages N] [--rounds N] [--styles 1]
//   swift run canopy-bench [FOLDER] --client-rendering 1 --max-pages 100000
//   swift run -c release canopy-bench [FOLDER] --outline 1 --max-pages 100000 > outline.txt
//
// `--styles 1` styles each page with the stylesheets it links to, read from disk next to it (as
// `canopy check FILE` does), so the audit's figures include the cascade.
//
// FOLDER defaults to Debian's OpenJDK API docs (benchmarks/serve-javadoc.sh installs them) when
// installed, otherwise to the axe-core fixtures in ../shared/conformance.
import CanopyCrawl
import CanopyHTML
import CanopyRules
import CanopyStyle
import Foundation

struct Corpus {
    let pages: [[UInt8]]
    /// Each page's file URL, against which its stylesheet links resolve.
    let urls: [String]
    var totalBytes: Int { pages.reduce(0) { $0 + $1.count } }

    /// The first `maxPages` HTML files under `folder`, by path, relative to it.
    static func htmlPaths(under folder: String, maxPages: Int) -> ArraySlice<String> {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var paths: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".html") || path.hasSuffix(".htm") { paths.append(path) }
        }
        return paths.sorted().prefix(maxPages)
    }

    static func load(folder: String, maxPages: Int) -> Corpus {
        var pages: [[UInt8]] = []
        var urls: [String] = []
        for path in htmlPaths(under: folder, maxPages: maxPages) {
            if let data = FileManager.default.contents(atPath: folder + "/" + path) {
                pages.append([UInt8](data))
                urls.append(URL(fileURLWithPath: folder + "/" + path).absoluteString)
            }
        }
        return Corpus(pages: pages, urls: urls)
    }
}

/// Best CPU time of each measured phase, by the order `measure` was called in: on a machine
/// shared with other work, a thread's CPU time is far steadier than the wall clock.
var cpuBests: [Double] = []

func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

@MainActor func measure(rounds: Int, _ body: () -> Void) -> Double {
    var best = Double.infinity
    var bestCPU = Double.infinity
    for _ in 0..<rounds {
        let start = DispatchTime.now().uptimeNanoseconds
        let startCPU = threadCPUSeconds()
        body()
        bestCPU = min(bestCPU, threadCPUSeconds() - startCPU)
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    cpuBests.append(bestCPU)
    return best
}

var arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String, default value: Int) -> Int {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let number = Int(arguments[index + 1]) else {
        return value
    }
    arguments.removeSubrange(index...(index + 1))
    return number
}
let maxPages = option("--max-pages", default: 3000)
// `--per-rule 1` adds each rule's cost alone (its own model and caches), to find the expensive ones.
let perRule = option("--per-rule", default: 0) != 0
// `--digest 1` prints a checksum of every node's rule, position and outcome, so that a change
// meant to make the audit faster can show it leaves the results alone.
let digest = option("--digest", default: 0) != 0
let rounds = option("--rounds", default: 5)
let styled = option("--styles", default: 0) != 0
// `--outline 1` prints each page's element tree, one page a line (`path<TAB>html(head(…) body(…))`,
// element names only), for benchmarks/check-tree.py to hold against an HTML5 parser's tree.
let outlines = option("--outline", default: 0) != 0
// One environment for the run, as a crawl has: each sheet is read once, rule indexes are shared.
let styles: StyleEnvironment? = styled
    ? StyleEnvironment(viewport: .desktop, loader: StyleSheetFetcher(readsFiles: true) { _ in nil })
    : nil
let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let javadoc = "/usr/share/doc/openjdk-17-doc/api/java.base"
let fixtures = here.deletingLastPathComponent().appendingPathComponent("shared/conformance/axe-integration").path
let folder = arguments.first ?? (FileManager.default.fileExists(atPath: javadoc) ? javadoc : fixtures)

// `--client-rendering 1` runs only `ClientRenderingDetector` over every page (read one at a time,
// so a whole documentation tree fits) and lists the pages it flags: the false-positive measure
// of docs/benchmarks.md on sites that are server-rendered throughout.
if option("--client-rendering", default: 0) != 0 {
    let detector = ClientRenderingDetector()
    let parser = HTMLParser()
    var paths: [String] = []
    let enumerator = FileManager.default.enumerator(atPath: folder)
    while paths.count < maxPages, let path = enumerator?.nextObject() as? String {
        if path.hasSuffix(".html") || path.hasSuffix(".htm") { paths.append(path) }
    }
    var flagged: [(String, [String])] = []
    var signalled = 0
    let start = DispatchTime.now().uptimeNanoseconds
    for path in paths.sorted() {
        guard let data = FileManager.default.contents(atPath: folder + "/" + path) else { continue }
        let verdict = detector.verdict(for: parser.parse(bytes: [UInt8](data), contentType: "text/html; charset=utf-8"))
        if !verdict.signals.isEmpty { signalled += 1 }
        if verdict.isClientRendered { flagged.append((path, verdict.descriptions)) }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print("client-rendering: \(folder): \(paths.count) pages in \(String(format: "%.1f", seconds)) s; \(signalled) with a signal, \(flagged.count) flagged as client-rendered")
    for (path, signals) in flagged { print("  \(path): \(signals.joined(separator: "; "))") }
    exit(0)
}

if outlines {
    let parser = HTMLParser()
    for path in Corpus.htmlPaths(under: folder, maxPages: maxPages) {
        guard let data = FileManager.default.contents(atPath: folder + "/" + path) else { continue }
        let root = parser.parse(bytes: [UInt8](data), contentType: "text/html; charset=utf-8").documentElement
        print(path + "\t" + (root?.elementOutline ?? ""))
    }
    exit(0)
}

let corpus = Corpus.load(folder: folder, maxPages: maxPages)
guard !corpus.pages.isEmpty else {
    FileHandle.standardError.write(Data("no .html files under \(folder)\n".utf8))
    exit(2)
}
let megabytes = Double(corpus.totalBytes) / 1_048_576
print("corpus: \(folder): \(corpus.pages.count) pages, \(String(format: "%.1f", megabytes)) MB; best of \(rounds) rounds, one core"
    + (styled ? "; styled with their linked stylesheets" : ""))

let parser = HTMLParser()
let bare = measure(rounds: rounds) {
    for page in corpus.pages { LibXML2Baseline.parseAndFree(page) }
}
var elementCount = 0
let canopy = measure(rounds: rounds) {
    elementCount = 0
    for page in corpus.pages {
        elementCount += parser.parse(bytes: page, contentType: "text/html; charset=utf-8").elementCount
    }
}
let documents = zip(corpus.pages, corpus.urls).map { parser.parse(bytes: $0, contentType: "text/html; charset=utf-8", url: $1) }
let auditor = Auditor(rules: RuleCatalog.defaultRules)
var violationCount = 0
let audit = measure(rounds: rounds) {
    violationCount = 0
    for document in documents {
        violationCount += auditor.audit(document, styles: styles).violations.reduce(0) { $0 + $1.nodes.count }
    }
}
// What a report of the findings costs on top: a unique selector and a snippet for each
// violation and incomplete node (passes are described only when a report lists them).
var describe = Double.infinity
for _ in 0..<rounds {
    let audited = documents.map { auditor.audit($0, styles: styles) }  // fresh results: targets are cached once made
    describe = min(describe, measure(rounds: 1) {
        for result in audited {
            for rule in result.violations + result.incomplete {
                for node in rule.nodes { _ = (node.target, node.html) }
            }
        }
    })
}

func line(_ name: String, _ seconds: Double) -> String {
    let pages = Double(corpus.pages.count) / seconds
    return "\(name.padding(toLength: 34, withPad: " ", startingAt: 0)) \(String(format: "%8.1f", megabytes / seconds)) MB/s \(String(format: "%9.0f", pages)) pages/s"
}
print(line("libxml2 htmlReadMemory (bare)", bare))
print(line("canopy parse (decode+repair+tree)", canopy) + String(format: "   %.2fx bare", canopy / bare))
print(line("canopy audit (\(RuleCatalog.defaultRules.count) rules)", audit) + String(format: "   %.2fx canopy parse", audit / canopy))
print(line("describe findings (target+snippet)", describe) + String(format: "   %.2fx canopy parse", describe / canopy))
// The first three measurements are bare, parse and audit.
print(String(format: "CPU time: canopy parse %.2fx bare, audit %.2fx canopy parse", cpuBests[1] / cpuBests[0], cpuBests[2] / cpuBests[1]))
print("elements: \(elementCount), violations: \(violationCount)")

if digest {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a: the same on every run, unlike Hasher
    var outcomes = [0, 0, 0]
    // Rules in id order: the digest says what the rules found, whatever order a rule set lists them in.
    let byID = Auditor(rules: auditor.rules.sorted { $0.metadata.id < $1.metadata.id })
    for document in documents {
        for rule in byID.audit(document, styles: styles).rules {
            for node in rule.nodes {
                let text: String
                switch node.outcome {
                case .pass: text = "pass"; outcomes[0] += 1
                case .violation(let message): text = "violation " + message; outcomes[1] += 1
                case .incomplete(let message): text = "incomplete " + message; outcomes[2] += 1
                }
                for byte in "\(rule.metadata.id) \(node.element.position) \(text)\n".utf8 {
                    hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
                }
            }
        }
    }
    print("digest: \(String(hash, radix: 16)); passes \(outcomes[0]), violations \(outcomes[1]), incomplete \(outcomes[2])")
}

if perRule {
    let empty = Auditor(rules: [])
    let base = measure(rounds: rounds) { for document in documents { _ = empty.audit(document, styles: styles) } }
    var costs: [(String, Double)] = []
    for rule in RuleCatalog.defaultRules {
        let alone = Auditor(rules: [rule])
        let seconds = measure(rounds: rounds) { for document in documents { _ = alone.audit(document, styles: styles) } }
        costs.append((rule.metadata.id, seconds - base))
    }
    print(String(format: "per rule, above an audit with no rules (%.2fx canopy parse):", base / canopy))
    for (id, seconds) in costs.sorted(by: { $0.1 > $1.1 }) {
        print("  \(id.padding(toLength: 32, withPad: " ", startingAt: 0)) \(String(format: "%6.3fx canopy parse", seconds / canopy))")
    }
}
