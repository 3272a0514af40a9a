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
                let outcome: FindingOutcome
                let message: String
                switch node.outcome {
                case .pass: continue
                case .violation(let text): (outcome, message) = (.violation, text)
                case .incomplete(let text): (outcome, message) = (.incomplete, text)
                }
                findings.append(FindingRecord(
                    ruleID: rule.metadata.id, impact: rule.metadata.impact, outcome: outcome, target: node.target,
                    snippet: node.html, message: message, owner: owner(node.element),
                    identity: fingerprinter.identity(of: node.element), sourceLine: sourceLine(of: node.element)
                ))
            }
        }
        return findings
    }

    /// The element's line in the page's source, or nil where libxml2 has none: 0 for elements
    /// the parser or the tree repair made up, 65535 once a page passes that many lines.
    public static func sourceLine(of element: Element) -> Int? {
        (1..<65_535).contains(element.line) ? element.line : nil
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
