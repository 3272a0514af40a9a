@testable import CanopyRules
import Testing

struct RunningTextTests {
    /// Text of ASCII and no-break spaces is folded and counted on bytes; it must come out as the
    /// definition by characters has it, or contrast and links in text blocks would change.
    @Test func lengthsCountWhatSanitizedTextHolds() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("aZ9 .\t\r\n\u{0B}\u{0C}-\u{00A0}\u{00A0}")
        var samples = [
            "", " ", "\r\n", " a ", "a\r\nb", "  two  words  ", "é\u{00A0}x", "café  au  lait", "a\u{0301} b", "\u{00A0}",
            "a\u{00A0}\u{0301}b", " \u{0301}x", "\u{2003}em\u{2003}space", "x\u{00A0}",
        ]
        for _ in 0..<3000 {
            samples.append(String((0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        for text in samples {
            #expect(RunningText.sanitized(text) == RunningText.sanitizedByCharacters(text), "\(text.debugDescription)")
            #expect(RunningText.sanitized(utf8: Array(text.utf8)) == RunningText.sanitizedByCharacters(text), "\(text.debugDescription)")
            #expect(RunningText.sanitizedLength(utf8: Array(text.utf8)) == RunningText.sanitizedByCharacters(text).count, "\(text.debugDescription)")
        }
    }

    /// The fold on bytes against the definition, on text of scalars that join into characters
    /// (marks, joiners, skin tones, jamo, flags, prepended and spacing-mark letters) and ones that do not.
    @Test func foldByCharactersIsSplitAndJoin() {
        var generator = SystemRandomNumberGenerator()
        let pieces: [String] = [
            "a", " ", "\t", "\r", "\n", "\u{00A0}", "\u{2003}", "\u{3000}", "\u{2028}", "→", "é", "\u{0301}", "\u{200D}", "\u{1F3FD}",
            "\u{0600}", "\r\n", "\u{0E33}", "\u{0903}", "\u{FE0F}", "\u{1F600}", "\u{1F1EB}", "\u{1100}", "\u{1161}", "\u{FF9E}",
            "\u{0D4E}", "中", "\u{E0041}", "\u{00AD}", "\u{0085}",
        ]
        var samples = [" \u{0301}", "a \u{0301}b", "\u{0600} x", "x \u{1F3FD} y", "\u{2028}a\u{2029}", "  →  "]
        for _ in 0..<3000 {
            samples.append((0..<Int.random(in: 0...30, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined())
        }
        for text in samples {
            let definition = text.split(whereSeparator: { $0.isWhitespace || $0 == "\u{00A0}" }).joined(separator: " ")
            #expect(RunningText.sanitizedByCharacters(text) == definition, "\(text.debugDescription)")
            #expect(RunningText.sanitized(text) == definition, "\(text.debugDescription)")
            #expect(RunningText.sanitized(utf8: Array(text.utf8)) == definition, "\(text.debugDescription)")
            #expect(RunningText.sanitizedLength(utf8: Array(text.utf8)) == definition.count, "\(text.debugDescription)")
        }
    }
}
