import CanopyAccessibility
import CanopyHTML

/// Heading facts shared by the heading rules (empty-heading, heading-order).
struct Headings {
    let model: AccessibilityModel

    init(_ page: PageContext) { self.model = page.accessibility }

    /// axe's `heading-matches`: the element's role, as axe reads it, is heading (so
    /// `<h1 role="banner">` is no heading, and `<div role="heading">` is one).
    func isHeading(_ element: Element) -> Bool {
        model.role(of: element, options: .axeDefault) == "heading"
    }

    /// The level axe gives a heading in the page's outline (heading-order's `getLevel`): an
    /// `aria-level` that parses (JavaScript's parseInt) to a positive number wins, with no upper
    /// bound, as screen readers accept any; otherwise `<hN>` is level N and role=heading is
    /// ARIA's default, 2. Elements that are not headings get nil.
    func outlineLevel(of element: Element) -> Int? {
        guard isHeading(element) else { return nil }
        let elementLevel = element.isHTML ? Self.elementLevel(element.localName) : nil
        if let ariaLevel = element.attribute("aria-level"), let parsed = Self.parseJavaScriptInt(ariaLevel), parsed >= 1 {
            return parsed
        }
        return elementLevel ?? 2
    }

    /// `parseInt(text, 10)`: optional leading whitespace and sign, then digits.
    static func parseJavaScriptInt(_ text: String) -> Int? {
        var rest = Substring(text).drop { $0.isWhitespace }
        var negative = false
        if let sign = rest.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            rest = rest.dropFirst()
        }
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let value = Int(digits.prefix(18)) else { return nil }
        return negative ? -value : value
    }

    /// 1...6 for `h1`...`h6`.
    static func elementLevel(_ localName: String) -> Int? {
        guard localName.count == 2, localName.first == "h", let last = localName.last, last.isASCII, let digit = last.wholeNumberValue,
            (1...6).contains(digit)
        else { return nil }
        return digit
    }
}
