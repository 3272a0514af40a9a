/// How a control's visible label is compared with its accessible name for WCAG 2.5.3 (Label in
/// Name), with axe-core's character classes (`CuratedText`).
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
        let curatedLabel = CuratedText.of(label), curatedName = CuratedText.of(name)
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
        return !CuratedText.of(text).isEmpty
    }

    // MARK: Comparisons

    /// The text's words: runs of text characters, split wherever a space, punctuation mark,
    /// symbol or emoji stands.
    private static func words(of text: String) -> [String] {
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for (scalar, kind) in CuratedText.classified(text) {
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

    /// Whether `part` occurs in `whole` as consecutive elements.
    private static func isRun(_ part: [String], in whole: [String]) -> Bool {
        guard part.count <= whole.count else { return false }
        return (0...(whole.count - part.count)).contains { start in whole[start..<(start + part.count)].elementsEqual(part) }
    }
}
