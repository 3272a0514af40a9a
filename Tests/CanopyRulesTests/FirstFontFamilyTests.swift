@testable import CanopyRules
import Testing

struct FirstFontFamilyTests {
    /// The first family is read from ASCII values by bytes; it must be what the definition by
    /// characters gives, or link-in-text-block would set links apart by a font they share.
    @Test func bytesAndCharactersAgree() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("aZ9 ,;,\t\n\u{0C}\r'\"-é\u{0301}")
        var samples = [
            "", ",", ";;", " , ", "'DejaVu Sans Mono', monospace", "  Arial ,Helvetica", ",Georgia", "; ;x",
            "MONO\r\n, serif", "a\u{0301},b", ",\u{0301}x", "Times New Roman", "\tCourier\u{0C};x",
        ]
        for _ in 0..<3_000 {
            samples.append(String((0..<Int.random(in: 0...24, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        for sample in samples {
            #expect(PlacedText.firstFontFamily(sample) == PlacedText.firstFontFamilyByCharacters(sample), "\(sample.debugDescription)")
        }
        #expect(PlacedText.firstFontFamily(" 'DejaVu Sans Mono' , monospace") == "'dejavu sans mono'")
        #expect(PlacedText.firstFontFamily(",, Serif") == "serif")
        #expect(PlacedText.firstFontFamily(" ,; ") == "")
        #expect(PlacedText.firstFontFamily(",;") == ",;")
    }
}
