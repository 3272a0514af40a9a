import CanopySyntheticHistory
import CanopyHTML
import CanopyRules
import Foundation

/// Hostile pages, each parsed and audited with the default rules (targets and snippets of every
/// finding included, as a crawl records them) in a child process of its own, for its time and
/// peak memory. A page that takes more than `slowSeconds` is an algorithm to fix: the benchmark
/// then exits 1. The fault-injection tests check what becomes of such pages; this measures them.
enum Adversarial {
    static let slowSeconds = 10.0

    /// Name, what it stresses, and the page, made from the name alone in the child.
    static let pages: [(name: String, about: String, html: @Sendable () -> [UInt8])] = [
        ("million-elements", "1,000,000 elements (8 MB)", { page(String(repeating: "<i>x</i>", count: 1_000_000)) }),
        ("deep-nesting", "100,000 nested <div>", { page(String(repeating: "<div>", count: 100_000) + "<img src=deep.png>") }),
        ("deep-and-wide", "200,000 links 250 levels down", { page(String(repeating: "<div>", count: 250) + String(repeating: "<a href=#>x</a>", count: 200_000)) }),
        ("huge-attribute", "a 1 MB attribute value", { page("<img src=\"" + String(repeating: "a", count: 1_000_000) + "\">") }),
        ("binary-noise", "100 KB of random bytes as text/html", { noise(100_000) }),
        ("shared-id", "100,000 elements sharing one id, each a finding", { page(String(repeating: "<p id=same aria-labelledby=same>x</p>", count: 100_000)) }),
        ("images", "100,000 images without alt: 100,000 findings", { page(String(repeating: "<img src=x>", count: 100_000)) }),
        ("labels", "50,000 labels and fields", { page((0..<50_000).map { "<label for=i\($0)>L\($0)</label><input id=i\($0)>" }.joined()) }),
        ("landmarks", "20,000 navigation landmarks, 3 names", { page((0..<20_000).map { "<nav aria-label=\"n\($0 % 3)\"><a href=#>x</a></nav>" }.joined()) }),
        ("labelledby", "300 buttons named by 3,000 ids each", {
            let ids = (0..<3_000).map { "s\($0)" }
            return page(ids.map { "<span id=\($0)>w</span>" }.joined()
                + String(repeating: "<button aria-labelledby=\"\(ids.joined(separator: " "))\"></button>", count: 300))
        }),
        ("table", "a 1,000 x 300 table with headers", {
            page("<table><tr>" + String(repeating: "<th>h</th>", count: 1_000) + "</tr>"
                + String(repeating: "<tr>" + String(repeating: "<td headers=h>x</td>", count: 1_000) + "</tr>", count: 300) + "</table>")
        }),
        ("spans", "cells spanning 65,534 rows and 1,000 columns", {
            page("<table>" + String(repeating: "<tr><td rowspan=65534 colspan=1000>x</td><td rowspan=65534 colspan=1000>y</td></tr>", count: 50) + "</table>")
        }),
        ("headings", "100,000 headings of every level", { page((0..<100_000).map { "<h\($0 % 6 + 1)>x</h\($0 % 6 + 1)>" }.joined()) }),
        ("roles", "100,000 listitem roles without a list", { page(String(repeating: "<div role=listitem>x</div>", count: 100_000)) }),
    ]

    private static func page(_ body: String) -> [UInt8] {
        Array(("<!doctype html><html lang=en><title>Adversarial</title><body><main>" + body + "</main>").utf8)
    }

    private static func noise(_ count: Int) -> [UInt8] {
        var random = SplitMix64(seed: 12_345)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    }

    struct Measurement: Codable {
        var bytes: Int
        var elements: Int
        var findings: Int
        var parseSeconds: Double
        var auditSeconds: Double
        var peakKiB = 0
    }

    /// In the child: one page, parsed and audited as a crawl does it.
    static func child(_ name: String) throws -> Measurement {
        guard let entry = pages.first(where: { $0.name == name }) else { throw CocoaError(.featureUnsupported) }
        let bytes = entry.html()
        let rules = RuleSet.standard().rules
        let clock = ContinuousClock()
        var document: Document?
        let parse = clock.measure { document = HTMLParser().parse(bytes: bytes, contentType: "text/html; charset=utf-8") }
        var elements = 0, findings = 0
        let audit = clock.measure {
            let result = Auditor(rules: rules).audit(document!)
            elements = document!.elements.count
            for rule in result.rules {
                for node in rule.nodes {
                    if case .pass = node.outcome { continue }
                    findings += 1
                    _ = node.target
                    _ = node.html
                }
            }
        }
        return Measurement(
            bytes: bytes.count, elements: elements, findings: findings, parseSeconds: parse.inSeconds, auditSeconds: audit.inSeconds,
            peakKiB: ownHighWaterMark()
        )
    }

    static func run() throws -> Int32 {
        print("adversarial pages: parse + audit (default rules, targets and snippets of every finding), each in its own process; "
            + "\(ProcessInfo.processInfo.activeProcessorCount) cores")
        var slow: [String] = []
        for (name, about, _) in pages {
            let ending = try ChildProcess.run(CommandLine.arguments[0], ["--adversarial-page", name])
            guard ending.status == 0, let measurement = try? JSONDecoder().decode(Measurement.self, from: ending.output) else {
                print("\(name.padding(toLength: 18, withPad: " ", startingAt: 0)) FAILED: exit \(ending.status)")
                slow.append(name)
                continue
            }
            let total = measurement.parseSeconds + measurement.auditSeconds
            if total > slowSeconds { slow.append(name) }
            print(name.padding(toLength: 18, withPad: " ", startingAt: 0) + String(
                format: "%8.1f MB %9d elements %7d findings  parse %6.2f s  audit %6.2f s  peak %6.1f MB%@  (%@)",
                Double(measurement.bytes) / 1_048_576, measurement.elements, measurement.findings, measurement.parseSeconds,
                measurement.auditSeconds, Double(measurement.peakKiB) / 1024, total > slowSeconds ? "  SLOW" : "", about
            ))
        }
        if !slow.isEmpty {
            FileHandle.standardError.write(Data("adversarial: FAILED: over \(Int(slowSeconds)) s or crashed: \(slow.joined(separator: ", "))\n".utf8))
        }
        return slow.isEmpty ? 0 : 1
    }
}
