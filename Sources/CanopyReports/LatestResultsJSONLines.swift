import CanopyRules
import CanopyStore
import Foundation

/// The latest complete run's per-page results in axe-core's shape, one JSON object a line,
/// rebuilt from the store so `canopy report` needs nothing but the store (the crawl's own
/// `results.jsonl` belongs to whichever run wrote it last, complete or not).
///
/// As in the crawl's lines, violations and incomplete list every node; passing rules are listed
/// without nodes (the store keeps pass counts, not passing elements), and rules of the run that
/// neither failed nor passed on the page are inapplicable.
///
/// The lines are written by hand as bytes, exactly what `AxeJSONReport.jsonLine()` (JSONEncoder
/// with sorted keys) gives for the same page — a test holds the two equal — because a 3,000-page
/// run makes about 40 MB of JSON, and JSONEncoder (then String concatenation) took most of
/// `canopy report`'s time budget on it. Each rule's fixed parts are encoded once.
public struct LatestResultsJSONLines: Sendable {
    public let store: RunStore

    public init(store: RunStore) {
        self.store = store
    }

    /// The lines of `run`, each ending in a line feed.
    public func render(run: StoredRun) throws -> Data {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var writer = Writer(timestamp: formatter.string(from: run.startedAt), ruleIDs: run.ruleIDs)
        let findings = Dictionary(grouping: try store.findings(run: run.id), by: \.pageURL)
        var output: [UInt8] = []
        for page in try store.pages(run: run.id) where page.error == nil {
            let pageFindings = findings[page.url] ?? []
            let passes = try store.passCounts(run: run.id, pageURL: page.url)
            // Every audited page has a finding or a pass (html-has-lang and document-title apply to
            // any document); a page with neither was fetched but not audited (not HTML, a redirect).
            guard !pageFindings.isEmpty || !passes.isEmpty else { continue }
            writer.appendLine(url: page.url, findings: pageFindings, passingRules: Set(passes.keys), to: &output)
            output.append(0x0A)
        }
        return Data(output)
    }

    /// Writes pages' lines as UTF-8 bytes; keeps each rule's encoded metadata for the next pages.
    struct Writer {
        private struct FixedParts {
            /// `{"description":…,"help":…,"helpUrl":…,"id":…`
            let head: [UInt8]
            /// The whole entry of the rule with no nodes (passes, inapplicable).
            let emptyEntry: [UInt8]
            /// `],"tags":[…]}`: what closes an entry after its nodes.
            let tail: [UInt8]
            let howToFix: String?
        }

        let timestamp: String
        let ruleIDs: [String]
        private var fixedParts: [String: FixedParts] = [:]

        init(timestamp: String, ruleIDs: [String]) {
            self.timestamp = timestamp
            self.ruleIDs = ruleIDs
        }

        /// One page's line as a String (for tests).
        mutating func line(url: String, findings: [StoredFinding], passingRules: Set<String>) -> String {
            var bytes: [UInt8] = []
            appendLine(url: url, findings: findings, passingRules: passingRules, to: &bytes)
            return String(decoding: bytes, as: UTF8.self)
        }

        mutating func appendLine(url: String, findings: [StoredFinding], passingRules: Set<String>, to json: inout [UInt8]) {
            let groups = PageGroups(ruleIDs: ruleIDs, findings: findings, passingRules: passingRules)
            // Keys in JSONEncoder's sorted order.
            json.append(contentsOf: #"{"inapplicable":["#.utf8)
            for (index, rule) in groups.inapplicable.enumerated() {
                if index > 0 { json.append(0x2C) }
                json.append(contentsOf: fixed(rule).emptyEntry)
            }
            json.append(contentsOf: #"],"incomplete":["#.utf8)
            for (index, rule) in groups.incomplete.enumerated() {
                if index > 0 { json.append(0x2C) }
                appendEntry(rule, nodes: groups.byRule[rule, default: []].filter { $0.outcome == .incomplete }, to: &json)
            }
            json.append(contentsOf: #"],"passes":["#.utf8)
            for (index, rule) in groups.passes.enumerated() {
                if index > 0 { json.append(0x2C) }
                json.append(contentsOf: fixed(rule).emptyEntry)
            }
            json.append(contentsOf: #"],"testEngine":{"name":"canopy","version":"#.utf8)
            JSONText.append(CanopyVersion.current, to: &json)
            json.append(contentsOf: #"},"timestamp":"#.utf8)
            JSONText.append(timestamp, to: &json)
            json.append(contentsOf: #","url":"#.utf8)
            JSONText.append(url, to: &json)
            json.append(contentsOf: #","violations":["#.utf8)
            for (index, rule) in groups.violations.enumerated() {
                if index > 0 { json.append(0x2C) }
                appendEntry(rule, nodes: groups.byRule[rule, default: []].filter { $0.outcome == .violation }, to: &json)
            }
            json.append(contentsOf: "]}".utf8)
        }

        private mutating func appendEntry(_ ruleID: String, nodes: [StoredFinding], to json: inout [UInt8]) {
            let parts = fixed(ruleID)
            json.append(contentsOf: parts.head)
            json.append(contentsOf: #","impact":"#.utf8)
            if let impact = nodes.map(\.impact).max() { JSONText.append(impact.rawValue, to: &json) } else { json.append(contentsOf: "null".utf8) }
            json.append(contentsOf: #","nodes":["#.utf8)
            for (index, node) in nodes.enumerated() {
                if index > 0 { json.append(0x2C) }
                let verb = node.outcome == .violation ? "Fix this: " : "Review this: "
                json.append(contentsOf: #"{"failureSummary":"#.utf8)
                JSONText.append(parts.howToFix.map { verb + node.message + "\n" + $0 } ?? node.message, to: &json)
                json.append(contentsOf: #","html":"#.utf8)
                JSONText.append(node.snippet, to: &json)
                json.append(contentsOf: #","impact":"#.utf8)
                JSONText.append(node.impact.rawValue, to: &json)
                json.append(contentsOf: #","target":["#.utf8)
                JSONText.append(node.target, to: &json)
                json.append(contentsOf: "]}".utf8)
            }
            json.append(contentsOf: parts.tail)
        }

        private mutating func fixed(_ ruleID: String) -> FixedParts {
            if let known = fixedParts[ruleID] { return known }
            let metadata = RuleCatalog.rule(withID: ruleID)?.metadata
            var head: [UInt8] = []
            head.append(contentsOf: #"{"description":"#.utf8)
            JSONText.append(metadata?.description ?? "", to: &head)
            head.append(contentsOf: #","help":"#.utf8)
            JSONText.append(metadata?.help ?? "", to: &head)
            head.append(contentsOf: #","helpUrl":"#.utf8)
            JSONText.append(metadata?.helpURL ?? "", to: &head)
            head.append(contentsOf: #","id":"#.utf8)
            JSONText.append(ruleID, to: &head)
            var tail: [UInt8] = Array(#"],"tags":["#.utf8)
            for (index, tag) in (metadata?.tags ?? []).enumerated() {
                if index > 0 { tail.append(0x2C) }
                JSONText.append(tag, to: &tail)
            }
            tail.append(contentsOf: "]}".utf8)
            let parts = FixedParts(head: head, emptyEntry: head + Array(#","impact":null,"nodes":["#.utf8) + tail, tail: tail, howToFix: metadata?.howToFix)
            fixedParts[ruleID] = parts
            return parts
        }
    }

    /// Which rules of a page go in which group, in the run's rule order.
    struct PageGroups {
        let byRule: [String: [StoredFinding]]
        let violations: [String]
        let incomplete: [String]
        let passes: [String]
        let inapplicable: [String]

        init(ruleIDs: [String], findings: [StoredFinding], passingRules: Set<String>) {
            byRule = Dictionary(grouping: findings, by: \.ruleID)
            // Rules of the run first, then any rule the findings or passes name that the run's list lacks.
            let order = ruleIDs + Set(byRule.keys).union(passingRules).subtracting(ruleIDs).sorted()
            let failing = Set(findings.filter { $0.outcome == .violation }.map(\.ruleID))
            let undecided = Set(findings.filter { $0.outcome == .incomplete }.map(\.ruleID))
            violations = order.filter(failing.contains)
            incomplete = order.filter(undecided.contains)
            passes = order.filter(passingRules.contains)
            inapplicable = order.filter { !failing.contains($0) && !undecided.contains($0) && !passingRules.contains($0) }
        }
    }
}

/// JSON strings as JSONEncoder writes them with `.withoutEscapingSlashes`: quote, backslash and
/// control characters escaped (`\n`, `\r`, `\t`, `\b`, `\f`, else `\u00XX`), everything else as is.
enum JSONText {
    static func append(_ text: String, to json: inout [UInt8]) {
        json.append(0x22)
        var text = text
        text.withUTF8 { bytes in
            var clean = 0
            for index in bytes.indices {
                let byte = bytes[index]
                guard byte == 0x22 || byte == 0x5C || byte < 0x20 else { continue }
                json.append(contentsOf: bytes[clean..<index])
                switch byte {
                case 0x22: json.append(contentsOf: [0x5C, 0x22])
                case 0x5C: json.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: json.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: json.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: json.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                case 0x08: json.append(contentsOf: [0x5C, UInt8(ascii: "b")])
                case 0x0C: json.append(contentsOf: [0x5C, UInt8(ascii: "f")])
                default: json.append(contentsOf: "\\u00\(byte < 0x10 ? "0" : "")\(String(byte, radix: 16))".utf8)
                }
                clean = index + 1
            }
            json.append(contentsOf: bytes[clean...])
        }
        json.append(0x22)
    }

    static func string(_ text: String) -> String {
        var bytes: [UInt8] = []
        append(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension AxeJSONReport {
    /// A page's result from stored findings through the Encodable path: what the hand-written
    /// lines must equal (the tests compare them).
    init(url: String, timestamp: String, ruleIDs: [String], findings: [StoredFinding], passingRules: Set<String>) {
        self.url = url
        self.timestamp = timestamp
        testEngine = TestEngine(name: "canopy", version: CanopyVersion.current)
        let groups = LatestResultsJSONLines.PageGroups(ruleIDs: ruleIDs, findings: findings, passingRules: passingRules)
        func entry(_ ruleID: String, outcome: FindingOutcome?) -> RuleEntry {
            let metadata = RuleCatalog.rule(withID: ruleID)?.metadata
            let nodes = groups.byRule[ruleID, default: []].filter { $0.outcome == outcome }
            return RuleEntry(
                id: ruleID, impact: nodes.map(\.impact).max()?.rawValue, tags: metadata?.tags ?? [],
                description: metadata?.description ?? "", help: metadata?.help ?? "", helpUrl: metadata?.helpURL ?? "",
                nodes: nodes.map { node in
                    let check: CheckOutcome = node.outcome == .violation ? .violation(node.message) : .incomplete(node.message)
                    return NodeEntry(
                        target: [node.target], html: node.snippet, impact: node.impact.rawValue,
                        failureSummary: metadata.flatMap { FailureSummary.text(for: check, rule: $0) } ?? node.message
                    )
                }
            )
        }
        violations = groups.violations.map { entry($0, outcome: .violation) }
        incomplete = groups.incomplete.map { entry($0, outcome: .incomplete) }
        passes = groups.passes.map { entry($0, outcome: nil) }
        inapplicable = groups.inapplicable.map { entry($0, outcome: nil) }
    }
}
