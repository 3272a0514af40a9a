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

    @Test("a reader decodes each distinct text once and gives what decoding it alone gives, lookalike texts apart")
    func evidenceReader() throws {
        var reader = RunStore.EvidenceReader()
        let texts = Self.written.compactMap(RunStore.evidenceJSON) + [#"{"colour":"caf\#u{E9}"}"#, #"{"colour":"cafe\#u{301}"}"#]
        for text in texts + texts {
            let read = try reader.evidence(fromJSON: text)
            #expect(read == (try RunStore.evidence(fromJSON: text)), "\(text)")
            if case .text(let colour)? = read["colour"] { #expect(Array(colour.utf8) == Array(Array(text.utf8)[11..<(text.utf8.count - 2)])) }
        }
        #expect(throws: StoreError.self) { try reader.evidence(fromJSON: "{not json") }
    }

    @Test("texts stored once are told apart by their bytes")
    func exactText() {
        #expect(ExactText("caf\u{E9}") != ExactText("cafe\u{301}"))
        #expect(ExactText("caf\u{E9}") == ExactText("caf" + "\u{E9}"))
        #expect(ExactText("") == ExactText(""))
        #expect(ExactText("") != ExactText("a"))
        #expect(ExactText("ab") != ExactText("abc"))
        let long = String(repeating: "snippet <a href=\"x\">", count: 40)
        #expect(ExactText(long) == ExactText(String(long.utf8.map { Character(Unicode.Scalar($0)) })))
        #expect(ExactText(long + "x") != ExactText(long + "y"))
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
