import CanopyHTML

/// The rules of a page's `<style>` elements that show or hide elements (`display`, `visibility`),
/// for the selectors CanopyHTML can match. At-rules (`@media`, `@supports`...) are skipped: whether
/// they apply depends on the device. Rules with state selectors (`:hover`, `::before`) do not parse
/// and are skipped too. Later rules win over earlier ones and inline styles over all of them;
/// selector specificity and `!important` are not weighed.
struct PageStyleRules {
    struct Rule {
        let selectors: SelectorList
        let style: InlineStyle
    }

    private(set) var rules: [Rule] = []

    init(document: Document) {
        // The length check spares a string comparison for nearly every element of the page.
        for element in document.elements where element.isHTML && element.localName.utf8.count == 5 && element.localName == "style" {
            guard Self.appliesToScreen(element), !element.ancestors.contains(where: { $0.localName == "template" })
            else { continue }
            collectRules(from: element.textContent)
        }
    }

    var isEmpty: Bool { rules.isEmpty }

    /// The cascaded declarations of the matching rules, nil when no rule matches.
    func style(for element: Element) -> InlineStyle? {
        var result: InlineStyle?
        for rule in rules where rule.selectors.matches(element) {
            result = (result ?? InlineStyle()).overridden(by: rule.style)
        }
        return result
    }

    /// `<style media>` other than screen or all does not apply to what users see.
    private static func appliesToScreen(_ style: Element) -> Bool {
        guard let media = style.attribute("media")?.trimmingWhitespace().lowercased(), !media.isEmpty else { return true }
        return media == "all" || media == "screen"
    }

    private mutating func collectRules(from css: String) {
        let text = Self.removingComments(css)
        var index = text.startIndex
        while index < text.endIndex {
            guard let open = text[index...].firstIndex(where: { $0 == "{" || $0 == ";" }) else { return }
            let prelude = text[index..<open].trimmingWhitespace()
            if text[open] == ";" {  // a statement at-rule such as @import or @charset
                index = text.index(after: open)
                continue
            }
            let close = Self.matchingBrace(in: text, from: open)
            defer { index = close < text.endIndex ? text.index(after: close) : close }
            if prelude.hasPrefix("@") { continue }
            let body = String(text[text.index(after: open)..<close])
            let style = InlineStyle(parsing: body)
            guard style.declaresAnything, let selectors = try? SelectorList(prelude) else { continue }
            rules.append(Rule(selectors: selectors, style: style))
        }
    }

    /// The index of the `}` closing the block opened at `open`, or the end of the text.
    private static func matchingBrace(in text: String, from open: String.Index) -> String.Index {
        var depth = 0
        var index = open
        while index < text.endIndex {
            switch text[index] {
            case "{": depth += 1
            case "}":
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
            index = text.index(after: index)
        }
        return text.endIndex
    }

    private static func removingComments(_ css: String) -> String {
        var output = ""
        output.reserveCapacity(css.utf8.count)
        var inComment = false
        var previous: Character = " "
        for character in css {
            if inComment {
                if previous == "*" && character == "/" {
                    inComment = false
                    previous = " "
                    continue
                }
            } else if previous == "/" && character == "*" {
                output.removeLast()
                inComment = true
                previous = " "  // so that "/*/" does not close the comment it opens
                continue
            } else {
                output.append(character)
            }
            previous = character
        }
        return output
    }
}
