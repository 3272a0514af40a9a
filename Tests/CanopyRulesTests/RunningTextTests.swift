@testable import CanopyRules
import Testing

struct RunningTextTests {
    /// Line lengths are counted on bytes for ASCII text; they must be what the sanitized text's
    /// length is, or links would move in and out of text blocks.
    @Test func lengthsCountWhatSanitizedTextHolds() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("aZ9 .\t\r\n\u{0B}\u{0C}-")
        var samples = ["", " ", "\r\n", " a ", "a\r\nb", "  two  words  ", "é\u{00A0}x", "café  au  lait", "a\u{0301} b"]
        for _ in 0..<2000 {
            samples.append(String((0..<Int.random(in: 0...40, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        for text in samples {
            #expect(RunningText.sanitizedLength(text) == RunningText.sanitized(text).count, "\(text.debugDescription)")
        }
    }
}
