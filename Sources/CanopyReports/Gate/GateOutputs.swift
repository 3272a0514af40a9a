import CanopyHistory
import CanopyRules
import Foundation

/// The gate's report in the forms CI systems read: a short log summary, the gate output JSON,
/// JUnit XML (one test case per page and rule), SARIF 2.1.0 and a Markdown job summary.
public struct GateOutputs {
    public let report: GateReport
    public let rules: [String: RuleMetadata]

    private var newFailuresByRule: [(rule: String, findings: [GateReport.Finding])] {
        Dictionary(grouping: report.failing, by: \.rule).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    private var headline: String {
        switch report.result {
        case .passed: "passed"
        case .failed: "FAILED"
        case .couldNotAudit: "COULD NOT AUDIT"
        }
    }

    private var countsLine: String {
        let audited = report.pages.filter(\.audited).count
        let baselined = report.findings.filter { $0.status == .baselined }.count
        let vendor = report.findings.filter { $0.status != .baselined && $0.owner != nil && !$0.fails }.count
        let reported = report.findings.filter { $0.status != .baselined && $0.owner == nil && !$0.fails }.count
        let skipped = report.skippedPages.count
        return "\(report.failing.count) failing, \(reported) new not failing, \(baselined) known (baseline), \(vendor) vendor-owned, "
            + "\(report.fixed.count) fixed; \(audited) of \(report.pages.count - skipped) pages audited"
            + (skipped > 0 ? ", \(skipped) skipped" : "") + " in \(String(format: "%.1f", report.seconds)) s"
    }

    // MARK: Log

    public func text() -> String {
        var lines = ["canopy gate: \(headline) — \(countsLine)"]
        if let cut = report.pageListCut { lines.append("page list cut: \(cut)") }
        for page in report.unauditedPages {
            lines.append("could not audit \(page.url): \(page.error ?? "not audited")")
        }
        let skipped = report.skippedPages
        for page in skipped.prefix(20) {
            lines.append("skipped \(page.url): \(page.skipped ?? "")")
        }
        if skipped.count > 20 { lines.append("… and \(skipped.count - 20) more pages skipped") }
        for waiver in report.expiredWaivers {
            lines.append("expired waiver: \(waiver.rule) on \(waiver.scope) expired on \(waiver.expires) (\(waiver.daysAgo) days ago); "
                + Self.consequence(of: waiver) + (waiver.reason.map { "; it said: \($0)" } ?? ""))
        }
        for (rule, findings) in newFailuresByRule {
            let metadata = rules[rule]
            lines.append("\(findings[0].status == .expiredWaiver ? "no longer waived" : "new"): \(rule) (\(findings[0].impact)) — \(metadata?.help ?? findings[0].message)")
            for finding in findings.prefix(10) {
                lines.append("  \(finding.url)  \(finding.target)  \(Self.oneLine(finding.snippet, 100))")
            }
            if findings.count > 10 { lines.append("  … and \(findings.count - 10) more") }
            if let fix = metadata?.howToFix { lines.append("  fix: \(Self.oneLine(fix, 200))") }
        }
        for use in report.budgets where use.used > 0 {
            lines.append("budget \(use.pattern): \(use.used) new of \(use.allowed) allowed" + (use.used > use.allowed ? " — over budget" : ""))
        }
        for entry in report.fixed.prefix(20) {
            lines.append("fixed: \(entry.rule) on \(entry.scopeDescription) (\(entry.target)) — remove it with `canopy baseline update`")
        }
        for entry in (report.notSeen ?? []).prefix(20) {
            lines.append("not seen: \(entry.rule) on \(entry.scopeDescription) (\(entry.target)) — none of the audited pages has it, "
                + "but the gate did not audit the whole site; `canopy baseline update` keeps it unless --prune-templates")
        }
        let vendors = Dictionary(grouping: report.findings.filter { $0.owner != nil && !$0.fails }, by: { $0.owner! })
        for (owner, findings) in vendors.sorted(by: { $0.key < $1.key }) {
            lines.append("vendor \(owner): \(findings.count) findings reported, not failing")
        }
        return lines.joined(separator: "\n")
    }

    /// What an expired waiver does to this gate: its issue fails again, unless the policy
    /// would not fail it anyway.
    private static func consequence(of waiver: GateReport.ExpiredWaiver) -> String {
        waiver.fails ? "fails the gate again" : "reported, does not fail" + (waiver.note.map { ": \($0)" } ?? "")
    }

    // MARK: JSON

    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(report) + Data("\n".utf8)
    }

    // MARK: JUnit

    /// The Ant JUnit format most CI systems read: a `<testsuites>` root, one suite per page,
    /// one test case per rule that applied to the page; a failure lists the failing elements.
    public func junit(hostName: String) -> String {
        let timestamp = String(report.created.prefix(19))
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
        for (index, page) in report.pages.enumerated() {
            let findings = report.findings.filter { $0.url == page.url }
            let cases: [(name: String, failure: (message: String, body: String)?, error: String?, skipped: String?)]
            if let skipped = page.skipped {
                cases = [("page", nil, nil, skipped)]
            } else if !page.audited {
                cases = [("page", nil, page.error ?? "not audited", nil)]
            } else {
                cases = page.rules.map { rule in
                    let failing = findings.filter { $0.rule == rule && $0.fails }
                    guard !failing.isEmpty else { return (rule, nil, nil, nil) }
                    let message = "\(failing.count) element\(failing.count == 1 ? "" : "s"): \(rules[rule]?.help ?? failing[0].message)"
                    let body = failing.map { "\($0.target)\n  \($0.snippet)\n  \($0.message)" }.joined(separator: "\n")
                        + (rules[rule].map { "\nfix: \($0.howToFix)\nmore: \($0.helpURL)" } ?? "")
                    return (rule, (message, body), nil, nil)
                }
            }
            let failures = cases.filter { $0.failure != nil }.count
            let errors = cases.filter { $0.error != nil }.count
            let skippedCases = cases.filter { $0.skipped != nil }.count
            let time = String(format: "%.3f", page.seconds ?? 0)
            xml += "  <testsuite name=\"\(Self.xml(page.url))\" package=\"canopy.gate\" id=\"\(index)\" timestamp=\"\(timestamp)\" "
                + "hostname=\"\(Self.xml(hostName.isEmpty ? "localhost" : hostName))\" tests=\"\(cases.count)\" failures=\"\(failures)\" "
                + "errors=\"\(errors)\" skipped=\"\(skippedCases)\" time=\"\(time)\">\n"
            xml += "    <properties>\n      <property name=\"url\" value=\"\(Self.xml(page.url))\"/>\n"
            if let type = page.pageType { xml += "      <property name=\"page-type\" value=\"\(Self.xml(type))\"/>\n" }
            xml += "    </properties>\n"
            for testCase in cases {
                let open = "    <testcase name=\"\(Self.xml(testCase.name))\" classname=\"\(Self.xml(page.url))\" time=\"0\""
                if let failure = testCase.failure {
                    xml += open + ">\n      <failure message=\"\(Self.xml(failure.message))\" type=\"\(Self.xml(testCase.name))\">\(Self.xml(failure.body))</failure>\n    </testcase>\n"
                } else if let error = testCase.error {
                    xml += open + ">\n      <error message=\"\(Self.xml(error))\" type=\"could-not-audit\">\(Self.xml(error))</error>\n    </testcase>\n"
                } else if let skipped = testCase.skipped {
                    xml += open + ">\n      <skipped message=\"\(Self.xml(skipped))\"/>\n    </testcase>\n"
                } else {
                    xml += open + "/>\n"
                }
            }
            xml += "    <system-out></system-out>\n    <system-err></system-err>\n  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
    }

    // MARK: SARIF

    public func sarif() throws -> Data {
        let (ruleIDs, driverRules) = SARIFRules.descriptors(for: report.findings.map(\.rule), metadata: rules)
        let ruleIndex = Dictionary(uniqueKeysWithValues: ruleIDs.enumerated().map { ($1, $0) })
        let results: [[String: Any]] = report.findings.map { finding in
            let needsReview = finding.outcome == .incomplete
            // A region must say where in the artifact (§3.30): with the element's line when the
            // parser knows it; otherwise none, and the snippet travels in the properties.
            var physicalLocation: [String: Any] = ["artifactLocation": ["uri": finding.url]]
            if let line = finding.sourceLine {
                physicalLocation["region"] = ["startLine": line, "snippet": ["text": finding.snippet]]
            }
            var result: [String: Any] = [
                "ruleId": finding.rule,
                "ruleIndex": ruleIndex[finding.rule] ?? 0,
                "kind": needsReview ? "review" : "fail",
                // §3.27.10: a result whose kind is not "fail" has level "none".
                "level": needsReview ? "none" : SARIFRules.level(finding.impact, failing: finding.fails),
                "message": ["text": "\(finding.message) (\(finding.target))"],
                "locations": [[
                    "physicalLocation": physicalLocation,
                    "logicalLocations": [["fullyQualifiedName": finding.target, "kind": "element"]],
                ]],
                "partialFingerprints": ["canopyIssue/v1": finding.fingerprint],
                "baselineState": finding.status == .baselined ? "unchanged" : "new",
                "properties": [
                    "impact": finding.impact.rawValue, "gateStatus": finding.status.rawValue, "fails": finding.fails, "pageType": finding.pageType,
                    "snippet": finding.snippet,
                ],
            ]
            if finding.status == .baselined {
                result["suppressions"] = [["kind": "external", "justification": finding.note ?? "in the baseline"]]
            }
            return result
        }
        let log: [String: Any] = [
            "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
            "version": "2.1.0",
            "runs": [[
                "tool": ["driver": [
                    "name": "Canopy", "version": CanopyVersion.current,
                    "rules": driverRules,
                ]],
                "results": results,
                "invocations": [[
                    "executionSuccessful": report.result != .couldNotAudit, "exitCode": Int(report.exitCode),
                    "toolExecutionNotifications": report.unauditedPages.map { page in
                        ["level": "error", "message": ["text": "could not audit \(page.url): \(page.error ?? "not audited")"]]
                    } + (report.pageListCut.map { [["level": "warning", "message": ["text": "page list cut: \($0)"]]] } ?? [])
                        + report.skippedPages.map { page in
                            ["level": "note", "message": ["text": "skipped \(page.url): \(page.skipped ?? "")"]]
                        },
                ]],
            ]],
        ]
        return try SARIFJSON.data(log)
    }

    // MARK: Markdown

    public func markdown() -> String {
        var md = "## Canopy accessibility gate: \(headline)\n\n\(countsLine).\n\n"
        if let cut = report.pageListCut { md += "**Page list cut:** \(Self.md(cut))\n\n" }
        if !report.unauditedPages.isEmpty {
            md += "### Could not audit\n\n"
            for page in report.unauditedPages { md += "- \(Self.md(page.url)): \(Self.md(page.error ?? "not audited"))\n" }
            md += "\n"
        }
        if !report.expiredWaivers.isEmpty {
            md += "### Expired waivers\n\n"
            for waiver in report.expiredWaivers {
                md += "- `\(waiver.rule)` on \(Self.md(waiver.scope)): expired on \(waiver.expires) (\(waiver.daysAgo) days ago); "
                    + Self.md(Self.consequence(of: waiver)) + "\n"
            }
            md += "\n"
        }
        if !report.failing.isEmpty {
            md += "### New failures\n\n| rule | impact | page | element |\n| --- | --- | --- | --- |\n"
            for (rule, findings) in newFailuresByRule {
                let link = rules[rule].map { "[\(rule)](\($0.helpURL))" } ?? rule
                for finding in findings.prefix(20) {
                    md += "| \(link) | \(finding.impact) | \(Self.md(finding.url)) | \(Self.code(finding.target)) |\n"
                }
                if findings.count > 20 { md += "| \(link) | | … \(findings.count - 20) more | |\n" }
            }
            md += "\n"
            for (rule, _) in newFailuresByRule {
                if let metadata = rules[rule] { md += "- **\(rule)**: \(Self.md(metadata.howToFix))\n" }
            }
            md += "\n"
        }
        if !report.fixed.isEmpty {
            md += "### Fixed (remove from the baseline with `canopy baseline update`)\n\n"
            for entry in report.fixed { md += "- `\(entry.rule)` on \(Self.md(entry.scopeDescription)): \(Self.code(entry.target))\n" }
            md += "\n"
        }
        if let notSeen = report.notSeen, !notSeen.isEmpty {
            md += "### Not seen on the audited pages (kept: the gate did not audit the whole site)\n\n"
            for entry in notSeen { md += "- `\(entry.rule)` on \(Self.md(entry.scopeDescription)): \(Self.code(entry.target))\n" }
            md += "\n"
        }
        if !report.skippedPages.isEmpty {
            md += "<details><summary>\(report.skippedPages.count) pages skipped by design (not failures)</summary>\n\n"
            for page in report.skippedPages.prefix(50) { md += "- \(Self.md(page.url)): \(Self.md(page.skipped ?? ""))\n" }
            md += "\n</details>\n\n"
        }
        let waived = report.findings.filter { !$0.fails && $0.status != .baselined }
        if !waived.isEmpty {
            md += "<details><summary>\(waived.count) new findings that do not fail the gate</summary>\n\n"
            for finding in waived.prefix(50) {
                md += "- `\(finding.rule)` on \(Self.md(finding.url)) \(Self.code(finding.target)): \(Self.md(finding.note ?? ""))\n"
            }
            md += "\n</details>\n"
        }
        return md
    }

    // MARK: Escaping

    public static func xml(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n", "\t": out.unicodeScalars.append(scalar)
            // XML 1.0 forbids most control characters even as references.
            case _ where scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value): out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Page content in Markdown: no HTML, no table breaks, no links a page could inject.
    public static func md(_ text: String) -> String {
        var out = ""
        for character in oneLine(text, 300) {
            if "\\`*_[]<>|#".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }

    public static func code(_ text: String) -> String {
        "`" + oneLine(text, 200).replacingOccurrences(of: "`", with: "'").replacingOccurrences(of: "|", with: "\\|") + "`"
    }

    public static func oneLine(_ text: String, _ limit: Int) -> String {
        let flat = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return flat.count > limit ? String(flat.prefix(limit)) + "…" : flat
    }

    public init(report: GateReport, rules: [String: RuleMetadata]) {
        self.report = report
        self.rules = rules
    }
}
