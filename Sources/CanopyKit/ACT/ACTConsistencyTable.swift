import Foundation

/// The Markdown table of an ACT run, one row per ACT rule, rated as W3C rates implementations
/// (`ACTConsistency`), with what each rating rests on: failed examples reported failed, left at
/// "can't tell", and missed, and any false positive by file. Committed as docs/act-consistency.md.
public enum ACTConsistencyTable {
    public static func markdown(_ run: ACTRun, notes: [ACTRuleNote] = ACTRuleNote.all) -> String {
        var text = """
            # Canopy on the W3C ACT rules

            Every test case of the W3C ACT rules (not deprecated ones), run through the Canopy rules
            mapped to each ACT rule (axe-core's `actIds`, plus the ACT rules a Canopy rule's metadata
            names in `actRules` where axe-core maps none), and rated as W3C rates implementations for
            its published reports (act-tools):

            - **inconsistent** on any passed or inapplicable example reported failed;
            - **consistent** when some failed example is reported failed and none is reported passed or
              inapplicable ("can't tell" on a failed example is allowed);
            - **partial** when some failed example is reported failed, or (*minimal*, counted with
              partial as W3C counts it) when none is but the rule answers "can't tell" and never
              doubts an inapplicable example;
            - **untested** when no Canopy rule maps to it.

            Each Canopy rule is rated alone and the ACT rule takes the best; rules rated partial are
            then pooled and rated again. The "missed" column counts failed examples every mapped
            rule reported passed or inapplicable. `canopy act-report` writes this file and the EARL
            report W3C takes (`earl.json`); `ACTConsistencyTests` fails when this file is not what
            the rules give today (`CANOPY_UPDATE_ACT_TABLE=1 swift test --filter ACTConsistencyTests`
            rewrites it).


            """
        for approved in [true, false] {
            let group = run.rules(approved: approved)
            let everyFailedCaught = group.filter { row in
                !row.canopyRules.isEmpty && row.examples.allSatisfy { $0.example.expected != .failed || $0.combined == .failed }
                    && row.falsePositives.isEmpty
            }.count
            text += "## \(approved ? "Approved" : "Proposed") rules: \(run.ratingCounts(approved: approved))\n\n"
            text += "\(everyFailedCaught) of the \(group.count) report every failed example failed.\n\n"
            text += "| ACT rule | name | Canopy rules | examples | failed reported failed | failed, can't tell | failed, missed | false positives | rating |\n"
            text += "| --- | --- | --- | --- | --- | --- | --- | --- | --- |\n"
            for row in group {
                let failed = row.rule.examples.filter { $0.expected == .failed }.count
                let rules = row.canopyRules.isEmpty ? "—" : row.canopyRules.map { "`\($0)`" }.joined(separator: ", ")
                let caught = row.canopyRules.isEmpty ? 0 : row.examples(expected: .failed, combined: .failed).count
                let cantTell = shortNames(row.examples(expected: .failed, combined: .cantTell))
                let missed = shortNames(
                    row.examples(expected: .failed, combined: .passed) + row.examples(expected: .failed, combined: .inapplicable))
                let rating = row.consistency == .minimal ? "partial (minimal)" : row.consistency.rawValue
                text += "| \(row.rule.id) | \(row.rule.name) | \(rules) | \(row.rule.examples.count) | \(caught) of \(failed) "
                text += "| \(cantTell) | \(missed) | \(shortNames(row.falsePositives)) | \(rating) |\n"
            }
            text += "\n"
        }
        text += """
            ## Rules that report no failed example, and why

            Every ACT rule that Canopy maps but whose failed examples it never reports failed has a
            note here; the test fails when one lacks a note or a note is left on a rule that now
            reports one.


            """
        for note in notes {
            text += "- **\(note.actRules.joined(separator: ", "))** (`\(note.canopyRule)`): \(note.text)\n"
        }
        return text
    }

    /// "0" or "2: failed-3, failed-7", the examples by file name without extension.
    private static func shortNames(_ examples: [ACTRun.ExampleResult]) -> String {
        guard !examples.isEmpty else { return "0" }
        let names = examples.map { (($0.example.file as NSString).lastPathComponent as NSString).deletingPathExtension }
        return "\(examples.count): " + names.joined(separator: ", ")
    }
}
