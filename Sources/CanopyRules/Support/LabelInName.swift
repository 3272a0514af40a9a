/// How a control's visible label is compared with its accessible name for WCAG 2.5.3 (Label in
/// Name), with axe-core's character classes: emoji, the symbol blocks axe calls "non-BMP"
/// (arrows, dingbats, box drawing...), private use characters (icon fonts) and invisible format
/// characters are not text a person would speak; ASCII punctuation, the punctuation blocks and a
/// few currency signs are not words.
///
/// axe-core accepts a label found anywhere in the name once punctuation is dropped, while the W3C
/// ACT rule (2ee8b8) keeps the characters as they are, so "nonstandard" is not in "non-standard"
/// for ACT and is for axe. Canopy passes what both accept (the label's words appear together,
/// whole, in the name), fails what neither does, and leaves the rest to a person. Words end only
/// at spaces, punctuation and symbols, so text in a script written without spaces (Chinese,
/// Thai) found inside a longer run of the name is left to a person too.
enum LabelInName {
    enum Match: Equatable {
        /// The label's words appear in the name, in order, next to each other, each whole.
        case wholeWords
        /// Only once punctuation is dropped, or only as part of a longer word.
        case ignoringPunctuation
        /// Not at all.
        case missing
    }

    /// Where `label` (the visible text) stands in `name`; both already lower-cased.
    static func match(label: String, name: String) -> Match {
        let labelWords = words(of: label)
        if !labelWords.isEmpty, isRun(labelWords, in: words(of: name)) { return .wholeWords }
        let curatedLabel = curated(label), curatedName = curated(name)
        if !curatedLabel.isEmpty, !curatedName.isEmpty, curatedName.contains(curatedLabel) { return .ignoringPunctuation }
        return .missing
    }

    /// axe-core's `isHumanInterpretable`: false for text a machine cannot compare with words, as
    /// a single letter or sign ("x" for close, "i" for italic, "?" for help), the symbolic "aA"
    /// and "ABC", and text made only of emoji, symbols and punctuation.
    static func isHumanInterpretable(_ text: String) -> Bool {
        if RunningText.sanitized(text).isEmpty { return false }
        // One UTF-16 unit, as JavaScript counts a string's length: a lone emoji is two.
        if text.utf16.count == 1, !text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) { return false }
        if ["aa", "abc"].contains(text.lowercased()) { return false }
        return !curated(text).isEmpty
    }

    // MARK: Characters

    private enum Kind { case text, separator, invisible }

    /// Each code point of the text with what it is to the comparison. Emoji go by grapheme
    /// cluster (a flag, a family, a keycap are sequences); the other classes by code point, as
    /// axe's expressions match them.
    private static func classified(_ text: String) -> [(scalar: Unicode.Scalar, kind: Kind)] {
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
    private static func isNonTextSymbol(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1D00...0x1DFF, 0x20A0...0x20FF, 0x2100...0x27BF, 0xE000...0xF8FF, 0xF0000...0xFFFFF: true
        default: false
        }
    }

    /// axe-core's punctuation: every printable ASCII character that is not a letter, digit or
    /// space, the General and Supplemental Punctuation blocks, and £ ¢ ¥ § ±.
    private static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E, 0x2000...0x206F, 0x2E00...0x2E7F,
            0xA2, 0xA3, 0xA5, 0xA7, 0xB1:
            true
        default: false
        }
    }

    // MARK: Comparisons

    /// The text's words: runs of text characters, split wherever a space, punctuation mark,
    /// symbol or emoji stands.
    private static func words(of text: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for (scalar, kind) in classified(text) {
            switch kind {
            case .text: current.append(scalar)
            case .invisible: continue
            case .separator:
                if !current.isEmpty { words.append(String(current)) }
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        return words
    }

    /// axe-core's curated text: emoji, symbols, punctuation and invisible characters dropped
    /// (not replaced by spaces), whitespace folded.
    private static func curated(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        // axe drops the spaces of the General Punctuation block (en space...) with the punctuation.
        for (scalar, kind) in classified(text) where kind == .text || (scalar.properties.isWhitespace && !isPunctuation(scalar)) {
            kept.append(scalar)
        }
        return RunningText.sanitized(String(kept))
    }

    /// Whether `part` occurs in `whole` as consecutive elements.
    private static func isRun(_ part: [String], in whole: [String]) -> Bool {
        guard part.count <= whole.count else { return false }
        return (0...(whole.count - part.count)).contains { start in whole[start..<(start + part.count)].elementsEqual(part) }
    }
}
