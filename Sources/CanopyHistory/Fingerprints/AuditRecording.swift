import CanopyStore
import CanopyHTML
import CanopyRules

extension FindingRecord {
    /// Every violation and incomplete node of an audit as findings, each fingerprinted.
    /// - Parameter owner: the vendor owning an element (from the configured vendor selectors),
    ///   nil for first-party markup.
    public static func findings(
        of audit: AuditResult, fingerprinter: PageFingerprinter, owner: (Element) -> String? = { _ in nil }
    ) -> [FindingRecord] {
        var findings: [FindingRecord] = []
        for rule in audit.rules {
            for node in rule.nodes {
                guard let finding = node.finding(of: rule.metadata) else { continue }
                findings.append(FindingRecord(finding, owner: owner(node.element), identity: fingerprinter.identity(of: node.element)))
            }
        }
        return findings
    }
}

extension PageRecord {
    /// Passing nodes per rule of an audit, as `PageRecord.passCounts` keeps them.
    public static func passCounts(of audit: AuditResult) -> [String: Int] {
        var counts: [String: Int] = [:]
        for rule in audit.rules {
            let passes = rule.nodes.count { $0.outcome == .pass }
            if passes > 0 { counts[rule.metadata.id, default: 0] += passes }
        }
        return counts
    }
}
