@testable import CanopyRules
import Testing

/// Which text color-contrast takes for text, and which for icons: axe's sets, read on bytes.
struct ColorContrastTextTests {
    /// The scan of ASCII text children, piece by piece, must say what the folded text of their
    /// concatenation says: kept unless it is empty or only stripped punctuation (a space between
    /// two runs of it is kept).
    @Test func asciiScanAgreesWithTheFoldedText() {
        var generator = SystemRandomNumberGenerator()
        // Characters as byte sequences: no-break spaces are two bytes, the scan's only non-ASCII.
        let alphabet: [[UInt8]] = " \t\n\r|,.;()<>+$~`-_@a9\u{00A0}".unicodeScalars.map { Array(String($0).utf8) } + [[0x0B], [0x0C], [0x01], [0x1F], [0x7F]]
        for _ in 0..<20_000 {
            let pieces = (0..<Int.random(in: 0...3, using: &generator)).map { _ in
                (0..<Int.random(in: 0...5, using: &generator)).flatMap { _ in alphabet.randomElement(using: &generator)! }
            }
            var scan = ColorContrast.ASCIIOwnTextScan()
            _ = pieces.contains { scan.settles($0) }
            let folded = RunningText.sanitized(utf8: pieces.flatMap { $0 })
            #expect(scan.verdict == !ColorContrast.isOnlyStrippedText(folded), "\(pieces)")
        }
        var nbsp = ColorContrast.ASCIIOwnTextScan()
        _ = nbsp.settles(Array("\u{00A0}|\u{00A0}".utf8))
        #expect(nbsp.verdict == false)
        var scan = ColorContrast.ASCIIOwnTextScan()
        let settled = scan.settles(Array("| é".utf8))
        #expect(settled)
        #expect(scan.verdict == nil)
    }

    @Test func separatorsAreStrippedIconsAreNot() {
        #expect(ColorContrast.isOnlyStrippedText("|"))
        #expect(ColorContrast.isOnlyStrippedText("\u{2014}\u{2026}€±"))
        #expect(!ColorContrast.isOnlyStrippedText("| |"))
        #expect(!ColorContrast.isOnlyStrippedText("\u{2605}"))
        #expect(ColorContrast.isOnlyStrippedText("\u{00A9}\u{FE0F}\u{1F600}"))
        #expect(!ColorContrast.isOnlyStrippedText("\u{00A9} \u{1F600}"))
        #expect(!ColorContrast.isOnlyStrippedText("0"))
        #expect(!ColorContrast.isOnlyStrippedText("\u{2192}"))
        #expect(ColorContrast.isOnlyNonBMP("\u{E001} \u{2605}"))
        #expect(!ColorContrast.isOnlyNonBMP("| |"))
        #expect(!ColorContrast.isOnlyNonBMP("\u{2605} x"))
        #expect(!ColorContrast.isOnlyNonBMP(" "))
    }
}
