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
/// The lines are written by `AxeJSONLineWriter`, as the crawl writes its own: a 3,000-page run
/// makes about 40 MB of JSON, which JSONEncoder took most of `canopy report`'s time budget on.
public struct LatestResultsJSONLines: Sendable {
    public let store: RunStore

    public init(store: RunStore) {
        self.store = store
    }

    /// The lines of `run`, each ending in a line feed.
    public func render(run: StoredRun) throws -> Data {
        let output = InMemorySink()
        try write(run: run, to: output)
        return Data(output.bytes)
    }

    /// The lines of `run` handed to `sink` in pieces of about a megabyte, read from the store a
    /// page at a time: for a 100,000-page run they are gigabytes, never held whole.
    func write(run: StoredRun, to sink: ByteSink) throws {
        let writer = AxeJSONLineWriter(ruleIDs: run.ruleIDs)
        let timestamp = AxeTimestamp.string(run.startedAt)
        var output = ChunkedOutput(sink: sink)
        try store.forEachPageResult(run: run.id) { page, findings, passes in
            // Every audited page has a finding or a pass (html-has-lang and document-title apply to
            // any document); a page with neither was fetched but not audited (not HTML, a redirect).
            if let notAudited = page.notAudited, notAudited.reason == NotAudited.clientRendered {
                // No axe result: its shell was not audited, and "no violations" would claim it was.
                Self.appendNotAuditedLine(url: page.url, timestamp: timestamp, notAudited, to: &output.bytes)
            } else {
                guard page.error == nil, page.notAudited == nil, !findings.isEmpty || !passes.isEmpty else { return }
                writer.appendLine(url: page.url, timestamp: timestamp, findings: findings.map(\.finding), passingRules: passes.keys, to: &output.bytes)
            }
            output.bytes.append(0x0A)
            try output.flushIfFull()
        }
        try output.flush()
    }

    /// `{"notAudited":{"details":[…],"reason":"client-rendered"},"timestamp":…,"url":…}`, keys sorted as in the axe lines.
    static func appendNotAuditedLine(url: String, timestamp: String, _ notAudited: NotAudited, to json: inout [UInt8]) {
        json.append(contentsOf: #"{"notAudited":"#.utf8)
        notAudited.appendJSON(to: &json)
        json.append(contentsOf: #","timestamp":"#.utf8)
        JSONText.append(timestamp, to: &json)
        json.append(contentsOf: #","url":"#.utf8)
        JSONText.append(url, to: &json)
        json.append(UInt8(ascii: "}"))
    }
}

extension AxeJSONReport {
    /// A page's result from stored findings through the Encodable path: what the hand-written
    /// lines must equal (the tests compare them).
    init(url: String, timestamp: String, ruleIDs: [String], findings: [StoredFinding], passingRules: Set<String>) {
        self.url = url
        self.timestamp = timestamp
        testEngine = TestEngine(name: "canopy", version: CanopyVersion.current)
        let groups = AxePageGroups(ruleIDs: ruleIDs, findings: findings.map(\.finding), passingRules: passingRules)
        func entry(_ ruleID: String, outcome: FindingOutcome?) -> RuleEntry {
            let metadata = RuleCatalog.rule(withID: ruleID)?.metadata
            let nodes = groups.byRule[ruleID, default: []].filter { $0.outcome == outcome }
            return RuleEntry(
                id: ruleID, impact: nodes.map(\.impact).max()?.rawValue, tags: metadata?.tags ?? [],
                description: metadata?.description ?? "", help: metadata?.help ?? "", helpUrl: metadata?.helpURL ?? "",
                nodes: nodes.map { node in
                    let check: CheckOutcome = node.outcome == .violation ? .violation(node.message) : .incomplete(node.message)
                    return NodeEntry(
                        target: FrameTarget.components(node.target), html: node.snippet, impact: node.impact.rawValue,
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

extension NotAudited {
    /// `{"details":[…],"reason":…}`, as results.jsonl and latest-results.jsonl write it.
    func appendJSON(to json: inout [UInt8]) {
        json.append(contentsOf: #"{"details":["#.utf8)
        for (index, detail) in details.enumerated() {
            if index > 0 { json.append(UInt8(ascii: ",")) }
            JSONText.append(detail, to: &json)
        }
        json.append(contentsOf: #"],"reason":"#.utf8)
        JSONText.append(reason, to: &json)
        json.append(UInt8(ascii: "}"))
    }
}
