@testable import CanopyRules
import Testing

/// label-content-name-mismatch's comparison on the characters its examples do not reach.
struct LabelInNameTests {
    @Test func wordsPassOnlyWhole() {
        #expect(LabelInName.match(label: "next page", name: "go to the next page.") == .wholeWords)
        #expect(LabelInName.match(label: "read more", name: "read more about pricing") == .wholeWords)
        // A line break inside the visible text still separates words.
        #expect(LabelInName.match(label: "next\npage", name: "next page") == .wholeWords)
        #expect(LabelInName.match(label: "page", name: "pages") == .ignoringPunctuation)
        #expect(LabelInName.match(label: "e-mail", name: "email") == .ignoringPunctuation)
        #expect(LabelInName.match(label: "proof of 2×2=4", name: "proof of two multiplied by two is four") == .missing)
    }

    @Test func nonTextCharactersAreSetAside() {
        // A flag and a family are emoji sequences; a soft hyphen joins the word it splits.
        #expect(LabelInName.match(label: "🇫🇷 français", name: "français") == .wholeWords)
        #expect(LabelInName.match(label: "👨‍👩‍👧 family", name: "family plan") == .wholeWords)
        #expect(LabelInName.match(label: "hyphen\u{00AD}ation", name: "hyphenation rules") == .wholeWords)
        #expect(LabelInName.match(label: "\u{E60C} settings", name: "settings") == .wholeWords)
    }

    @Test func interpretableTextIsWordsNotSigns() {
        for sign in ["x", "×", "?", "i", "ABC", "aA", "☄️", "🍔", ";)", "❌", "\u{E60C}", "1️⃣", "  "] {
            #expect(!LabelInName.isHumanInterpretable(sign), "\(sign.debugDescription)")
        }
        for text in ["7", "ok", "next page", "1 2 3", "¿qué?"] {
            #expect(LabelInName.isHumanInterpretable(text), "\(text.debugDescription)")
        }
    }
}
