import CanopyRules
@testable import CanopyStore
import Foundation
import Testing

/// Evidence is read back for every finding a report or an incremental crawl shows; the quick
/// reading must agree with JSONDecoder on everything the store writes, and leave the rest to it.
@Suite("Evidence read back from the store")
struct EvidenceDecodingTests {
    static let written: [[String: EvidenceValue]] = [
        [:].merging(["contrastRatio": .number(2.85), "fgColor": .text("#aaaaaa"), "bgColor": .text("#ffffff")]) { $1 },
        ["fontSize": .number(12), "fontWeight": .text("bold, or 700"), "expected": .number(4.5)],
        ["ratio": .number(1e-05), "negative": .number(-3.25), "big": .number(123456789012)],
        ["quote": .text(#"a "quoted" word"#), "slash": .text("a/b\\c"), "line": .text("one\ntwo"), "unicode": .text("café ✓")],
        ["comma, colon": .text("x: 1, y: 2"), "empty": .text("")],
    ]

    @Test("what evidenceJSON writes reads back equal, through the quick path or JSONDecoder")
    func roundTrip() throws {
        for evidence in Self.written {
            let text = try #require(RunStore.evidenceJSON(evidence))
            #expect(try RunStore.evidence(fromJSON: text) == evidence, "\(text)")
            let decoded = try JSONDecoder().decode([String: EvidenceValue].self, from: Data(text.utf8))
            if let quick = RunStore.plainEvidence(text) { #expect(quick == decoded, "\(text)") }
        }
        #expect(RunStore.plainEvidence(##"{"a":"#aaa","b":4.5}"##) == ["a": .text("#aaa"), "b": .number(4.5)])
    }

    @Test("the store's cache of evidence texts gives what evidenceJSON writes, byte for byte")
    func cachedEvidenceText() throws {
        let storedOnce = StoredOnce()
        // Equal as Swift values, different as JSON: canonically equivalent text, and 0 and -0.
        let lookalikes: [[String: EvidenceValue]] = [
            ["colour": .text("caf\u{E9}")], ["colour": .text("cafe\u{301}")], ["ratio": .number(0)], ["ratio": .number(-0.0)],
        ]
        for evidence in Self.written + lookalikes + Self.written + lookalikes {
            let cached = try #require(storedOnce.evidenceJSON(evidence))
            #expect(Array(cached.utf8) == Array(try #require(RunStore.evidenceJSON(evidence)).utf8), "\(cached)")
        }
        #expect(storedOnce.evidenceJSON([:]) == nil)
    }

    @Test("anything else goes to JSONDecoder, and what it cannot read is a corrupt value")
    func unusualText() throws {
        for text in [#"{"a":"x\"y"}"#, #"{"a": 1}"#, #"{"a":1,}"#, #"{"a":true}"#, #"{"a":[1]}"#, "{}", #"{"a":1e999}"#] {
            #expect(RunStore.plainEvidence(text) == nil || text == "{}", "\(text)")
        }
        #expect(try RunStore.evidence(fromJSON: #"{"a": 1}"#) == ["a": .number(1)])
        #expect(throws: StoreError.self) { try RunStore.evidence(fromJSON: #"{"a":true"#) }
    }
}
