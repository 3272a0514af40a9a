/// Text as axe-core compares names and labels, with its character classes: emoji, the symbol
/// blocks axe calls "non-BMP" (arrows, dingbats, box drawing...), private use characters (icon
/// fonts) and invisible format characters are not text a person would speak; ASCII punctuation,
/// the punctuation blocks and a few currency signs are not words.
enum CuratedText {
    /// The text as axe-core curates it before comparing: emoji, symbols, punctuation and
    /// invisible characters dropped (not replaced by spaces), whitespace folded.
    static func of(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        // axe drops the spaces of the General Punctuation block (en space...) with the punctuation.
        for (scalar, kind) in classified(text) where kind == .text || (scalar.properties.isWhitespace && !isPunctuation(scalar)) {
            kept.append(scalar)
        }
        return RunningText.sanitized(String(kept))
    }

    /// What a character is to a comparison: part of a word, something between words, or not
    /// seen at all.
    enum Kind { case text, separator, invisible }

    /// Each code point of the text with what it is to the comparison. Emoji go by grapheme
    /// cluster (a flag, a family, a keycap are sequences); the other classes by code point, as
    /// axe's expressions match them.
    static func classified(_ text: String) -> [(scalar: Unicode.Scalar, kind: Kind)] {
        var result: [(scalar: Unicode.Scalar, kind: Kind)] = []
        for character in text {
            let emoji = isEmoji(character)
            for scalar in character.unicodeScalars { result.append((scalar, emoji ? .separator : kind(of: scalar))) }
        }
        return result
    }

    private static func kind(of scalar: Unicode.Scalar) -> Kind {
        // Soft hyphens, zero-width joiners and the like are not seen: they join, not separate.
        if scalar.properties.generalCategory == .format { return .invisible }
        if scalar.properties.isWhitespace || isNonTextSymbol(scalar) || isPunctuation(scalar) { return .separator }
        return .text
    }

    /// Emoji as axe's emoji expression finds them; plain digits, `#` and `*` carry the Emoji
    /// property too, but only count as part of a keycap sequence.
    private static func isEmoji(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first, first.properties.isEmoji else { return false }
        return !first.isASCII || character.unicodeScalars.contains("\u{20E3}")
    }

    /// The blocks axe-core strips as non-text: phonetic extensions and combining marks for
    /// symbols, currency signs, letter-like symbols through dingbats, and the private use areas
    /// icon fonts draw from.
    static func isNonTextSymbol(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1D00...0x1DFF, 0x20A0...0x20FF, 0x2100...0x27BF, 0xE000...0xF8FF, 0xF0000...0xFFFFF: true
        default: false
        }
    }

    /// axe-core's punctuation: every printable ASCII character that is not a letter, digit or
    /// space, the General and Supplemental Punctuation blocks, and £ ¢ ¥ § ± € (€ is among the
    /// symbols too, which curation drops alike).
    static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E, 0x2000...0x206F, 0x2E00...0x2E7F,
            0xA2, 0xA3, 0xA5, 0xA7, 0xB1, 0x20AC:
            true
        default: false
        }
    }
}
