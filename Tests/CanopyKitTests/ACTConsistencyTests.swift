import CanopyKit
import CanopyRules
import CanopyTestSupport
import Foundation
import Testing

/// Every W3C ACT test case in ../shared/act run through the Canopy rules mapped to its ACT rule
/// and rated as W3C rates implementations (`ACTRun`, `ACTConsistency`). The table is committed as
/// docs/act-consistency.md; any change to it, better or worse, fails here until the file is
/// regenerated in the same change:
///
///     CANOPY_UPDATE_ACT_TABLE=1 swift test --filter ACTConsistencyTests
struct ACTConsistencyTests {
    static let act = SharedFixtures.conformance.deletingLastPathComponent().appendingPathComponent("act")
    static let table = SharedFixtures.repositoryRoot.appendingPathComponent("docs/act-consistency.md")

    static func run() throws -> ACTRun {
        ACTRun(testCases: try ACTTestCases(folder: act))
    }

    @Test(.enabled(if: SharedFixtures.isAvailable))
    func committedTableIsWhatTheRulesGive() throws {
        let computed = ACTConsistencyTable.markdown(try Self.run())
        if ProcessInfo.processInfo.environment["CANOPY_UPDATE_ACT_TABLE"] == "1" {
            try computed.write(to: Self.table, atomically: true, encoding: .utf8)
            return
        }
        let committed = try String(contentsOf: Self.table, encoding: .utf8)
        #expect(
            committed == computed,
            "docs/act-consistency.md is not what the rules give today: run CANOPY_UPDATE_ACT_TABLE=1 swift test --filter ACTConsistencyTests and commit the change"
        )
    }

    /// No passed or inapplicable example anywhere is reported failed, whatever the rating.
    @Test(.enabled(if: SharedFixtures.isAvailable))
    func noFalsePositiveOnAnyExample() throws {
        for row in try Self.run().rules {
            let files = row.falsePositives.map(\.example.file)
            #expect(files.isEmpty, "\(row.rule.id): \(row.canopyRules) report failed on \(files)")
        }
    }

    /// A rule's own `actRules` name real, current ACT rules, and only ones axe does not already map it to.
    @Test(.enabled(if: SharedFixtures.isAvailable))
    func ownACTMappingsNameRulesAxeLeavesOut() throws {
        let rules = Dictionary(uniqueKeysWithValues: try ACTTestCases(folder: Self.act).rules.map { ($0.id, $0) })
        for rule in RuleCatalog.all {
            for id in rule.metadata.actRules {
                #expect(rules[id] != nil, "\(rule.metadata.id): \(id) is not a current ACT rule")
                #expect(rules[id]?.axeRuleIDs.contains(rule.metadata.id) != true, "\(rule.metadata.id): axe-core already maps it to \(id)")
            }
        }
    }

    /// Every ACT rule that Canopy maps but whose failed examples it never reports failed has a
    /// note saying why, and no note is left on a rule that now reports one.
    @Test(.enabled(if: SharedFixtures.isAvailable))
    func everyMappedRuleThatCatchesNoFailureIsExplained() throws {
        let rows = try Self.run().rules
        let noted = Set(ACTRuleNote.all.flatMap(\.actRules))
        let catchesNone = rows.filter { row in
            !row.canopyRules.isEmpty && row.rule.examples.contains { $0.expected == .failed }
                && row.examples(expected: .failed, combined: .failed).isEmpty
        }.map(\.rule.id)
        #expect(Set(catchesNone).subtracting(noted).isEmpty, "add a note in ACTRuleNote.swift for \(Set(catchesNone).subtracting(noted).sorted())")
        #expect(noted.subtracting(catchesNone).isEmpty, "remove the notes of \(noted.subtracting(catchesNone).sorted()) from ACTRuleNote.swift: they no longer apply")
        for note in ACTRuleNote.all {
            for id in note.actRules {
                #expect(rows.first { $0.rule.id == id }?.canopyRules.contains(note.canopyRule) == true, "the note on \(id) names `\(note.canopyRule)`, which does not map to it")
            }
        }
    }
}
