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
}
