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
        var output = Data()
        try forEachChunk(of: run) { output.append(contentsOf: $0) }
        return output
    }

    /// Writes the lines of `run` to `path` a chunk at a time, through a temporary file renamed
    /// at the end: a large site's lines run to hundreds of megabytes, which need not all be in
    /// memory at once, and a reader never sees half a file.
    public func write(run: StoredRun?, to path: String) throws {
        let temporary = path + ".partial-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: nil) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: temporary])
        }
        do {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: temporary))
            defer { try? handle.close() }
            if let run { try forEachChunk(of: run) { try handle.write(contentsOf: $0) } }
            try handle.synchronize()
            if rename(temporary, path) != 0 { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
    }

    /// Hands the lines over in pieces of about a megabyte, whole lines each.
    private func forEachChunk(of run: StoredRun, _ emit: ([UInt8]) throws -> Void) throws {
        let writer = AxeJSONLineWriter(ruleIDs: run.ruleIDs)
        let timestamp = AxeTimestamp.string(run.startedAt)
        let findings = Dictionary(grouping: try store.findings(run: run.id), by: \.pageURL)
        var output: [UInt8] = []
        output.reserveCapacity(Self.chunkSize + 64 * 1024)
        for page in try store.pages(run: run.id) where page.error == nil {
            let pageFindings = findings[page.url] ?? []
            let passes = try store.passCounts(run: run.id, pageURL: page.url)
            // Every audited page has a finding or a pass (html-has-lang and document-title apply to
            // any document); a page with neither was fetched but not audited (not HTML, a redirect).
            guard !pageFindings.isEmpty || !passes.isEmpty else { continue }
            writer.appendLine(url: page.url, timestamp: timestamp, findings: pageFindings, passingRules: Set(passes.keys), to: &output)
            output.append(0x0A)
            if output.count >= Self.chunkSize {
                try emit(output)
                output.removeAll(keepingCapacity: true)
            }
        }
        if !output.isEmpty { try emit(output) }
    }

    private static let chunkSize = 1 << 20
}

extension AxeJSONReport {
    /// A page's result from stored findings through the Encodable path: what the hand-written
    /// lines must equal (the tests compare them).
    init(url: String, timestamp: String, ruleIDs: [String], findings: [StoredFinding], passingRules: Set<String>) {
        self.url = url
        self.timestamp = timestamp
        testEngine = TestEngine(name: "canopy", version: CanopyVersion.current)
        let groups = AxePageGroups(ruleIDs: ruleIDs, findings: findings, passingRules: passingRules)
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
