import CanopyStore
import CanopyRules
import Foundation

/// One finding of a finished run with everything a deploy-gate baseline needs to recognise the
/// same problem later on another set of pages: the signature inside its component (the
/// `StoredFinding` of reports leaves it out) and whether that component was site-wide in the run,
/// which is what decided its issue key.
@dynamicMemberLookup
public struct IssueInstance: Sendable, Equatable {
    public let pageURL: String
    public let pageType: String
    public let finding: Finding
    public let owner: String?
    public let elementSignature: String
    public let componentKey: String?
    public let componentSignature: String?
    /// The component was site-wide in the run, so the issue key is the component's.
    public let inSiteWideComponent: Bool
    public let issueKey: String

    public subscript<Value>(dynamicMember keyPath: KeyPath<Finding, Value>) -> Value { finding[keyPath: keyPath] }
}

extension RunStore {
    /// The findings of a complete run with their issue keys, in recording order. Throws when the
    /// run is unknown or not complete (its issue keys are set only when it finishes).
    public func issueInstances(run: RunID) throws -> [IssueInstance] {
        try withDatabase { database in
            guard let status = try database.queryFirst("SELECT status FROM runs WHERE id = ?", [.integer(run.rawValue)], row: { $0.string(0) }) else {
                throw StoreError.unknownRun(run)
            }
            guard status == RunStatus.complete.rawValue else {
                throw StoreError.runNotRunning(run, RunStatus(rawValue: status) ?? .running)
            }
            var evidenceReader = EvidenceReader()
            return try database.query(
                """
                SELECT pages.url, pages.page_type, \(Self.findingColumns), detail.owner, detail.element_signature, detail.component_key,
                       detail.component_signature, issue.issue_key, detail.evidence,
                       EXISTS (SELECT 1 FROM run_components WHERE run_components.run_id = findings.run_id
                               AND run_components.component_key = detail.component_key
                               AND run_components.structure_hash = detail.component_hash)
                FROM findings JOIN pages ON pages.id = findings.page_id \(Self.findingText)
                WHERE findings.run_id = ? ORDER BY findings.id
                """,
                [.integer(run.rawValue)]
            ) { row in
                IssueInstance(
                    pageURL: row.string(0), pageType: row.optionalString(1) ?? "/",
                    finding: try Self.finding(row, from: 2, evidence: 13, decodingEvidence: { try evidenceReader.evidence(fromJSON: $0) }),
                    owner: row.optionalString(8), elementSignature: row.string(9), componentKey: row.optionalString(10),
                    componentSignature: row.optionalString(11), inSiteWideComponent: row.int(14) != 0, issueKey: row.optionalString(12) ?? ""
                )
            }
        }
    }

    /// The audited pages of a run (no error, not skipped as client-rendered or not HTML) with the component keys found on each, so a
    /// baseline update can tell "fixed" from "not looked at".
    public func auditedPageComponents(run: RunID) throws -> [String: Set<String>] {
        try withDatabase { database in
            var pages: [String: Set<String>] = [:]
            try database.forEachRow(
                """
                SELECT pages.url, components.component_key
                FROM pages LEFT JOIN page_components ON page_components.page_id = pages.id
                           LEFT JOIN components ON components.id = page_components.component_id
                WHERE pages.run_id = ? AND pages.error IS NULL AND pages.not_audited IS NULL
                """,
                [.integer(run.rawValue)]
            ) { row in
                let url = row.string(0)
                var keys = pages[url] ?? []
                if let key = row.optionalString(1) { keys.insert(key) }
                pages[url] = keys
            }
            return pages
        }
    }
}
