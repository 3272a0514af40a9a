import CanopyAccessibility
import CanopyHTML
import CanopyStyle

/// A short paragraph made to look like a heading (bold, italic, larger) over the paragraph that
/// follows is a heading to sighted readers only: screen-reader users, who move from heading to
/// heading, never find it (WCAG 1.3.1 Info and Relationships).
public struct PAsHeadingRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "p-as-heading",
        impact: .serious,
        tags: ["cat.semantics", "wcag2a", "wcag131", "EN-301-549", "EN-9.1.3.1", "RGAAv4", "RGAA-9.1.3", "experimental"],
        description: "Checks that paragraphs are not styled to look like headings",
        help: "Paragraphs styled as headings should be headings",
        howToFix: "Mark the text up as a heading of the right level (<h2>, <h3>...) and style the heading, instead of making a <p> bold, italic or larger.",
        enabledByDefault: false,
        rationale: "Opt-in, as in axe-core (experimental): it judges from the look of a paragraph against its neighbours, a heuristic that a person should confirm."
    )

    public let selector = try! SelectorList("p")

    public var stylesRead: PropertySet { PropertySet([.fontSize, .fontWeight, .fontStyle]) }

    /// When a paragraph counts as looking like a heading against another: each line is a set of
    /// differences that must all hold (weight more than 150 heavier, font size more than the
    /// factor larger, italic where the other is not).
    private struct HeadingLook {
        var weight: Double?
        var size: Double?
        var italic = false
    }

    private static let headingLooks = [
        HeadingLook(weight: 150, italic: true), HeadingLook(weight: 150, size: 1.15), HeadingLook(size: 1.15, italic: true),
        HeadingLook(size: 1.4),
    ]

    public func applies(to element: Element, on page: PageContext) -> Bool {
        let text = PlacedText.trimmed(element.textContent)
        guard !text.isEmpty, Self.sentenceEnds(in: text) < 2, let parent = element.parent else { return false }
        // The last paragraph with text among each parent's children, once per page: asking every
        // paragraph for all that follow it would cost the square of a long run of them.
        let lastWithText = page.memo("p-as-heading.lastParagraphWithText") { LastParagraphs() }
        return lastWithText.position(under: parent).map { $0 > element.position } ?? false
    }

    private final class LastParagraphs {
        private var byParent: [Int: Int?] = [:]

        func position(under parent: Element) -> Int? {
            if let known = byParent[parent.position] { return known }
            let last = Array(parent.children).last { $0.localName == "p" && !PlacedText.trimmed($0.textContent).isEmpty }?.position
            byParent[parent.position] = .some(last)
            return last
        }
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let styles = page.styles
        let next = Self.nextParagraph(after: element)
        let headingLength = PlacedText.trimmed(element.textContent).count
        let paragraphLength = next.map { PlacedText.trimmed($0.textContent).count } ?? 0
        if headingLength > paragraphLength { return .pass }
        guard let next else { return .pass }
        guard let own = Self.look(of: element, styles), let following = Self.look(of: next, styles) else {
            return .incomplete("The font of this paragraph or the next could not be computed from its styles.")
        }
        guard Self.looksLikeHeading(own, over: following) else { return .pass }
        if element.ancestors.contains(where: { $0.localName == "blockquote" }) {
            return .incomplete("The paragraph is styled like a heading over the next one, but inside a quotation that may be styled so on purpose.")
        }
        if let previous = Self.previousParagraph(of: element), let before = Self.look(of: previous, styles),
           !Self.looksLikeHeading(own, over: before) {
            return .incomplete("The paragraph before looks the same as this one: a run of styled paragraphs rather than a heading, perhaps.")
        }
        if Double(headingLength) > Double(paragraphLength) * 0.5 {
            return .incomplete("Styled like a heading over the next paragraph, but long for a heading (\(headingLength) characters against \(paragraphLength)).")
        }
        return .violation("This short paragraph is bolder, italic or larger than the paragraph after it, so it reads as a heading that is not marked up as one.")
    }

    private struct Look {
        let weight: Double
        /// Whole pixels, as axe reads the computed size.
        let size: Double
        let italic: Bool
    }

    /// The look of the element that holds all of the paragraph's text (`<p><b><i>text</i></b></p>`
    /// is as heavy and slanted as its `<i>`).
    private static func look(of paragraph: Element, _ styles: ComputedStyles) -> Look? {
        var holder = paragraph
        while let child = holder.children.first(where: { !PlacedText.trimmed($0.textContent).isEmpty }) ?? holder.lastElementChild,
              PlacedText.trimmed(child.textContent) == PlacedText.trimmed(holder.textContent) {
            holder = child
        }
        guard let weight = styles.fontWeight(of: holder), let size = styles.fontSize(of: holder) else { return nil }
        return Look(weight: weight, size: size.rounded(.towardZero), italic: styles.lowercasedValue(.fontStyle, of: holder) == "italic")
    }

    private static func looksLikeHeading(_ candidate: Look, over other: Look) -> Bool {
        headingLooks.contains { look in
            if let size = look.size, !(candidate.size / size > other.size) { return false }
            if let weight = look.weight, !(candidate.weight - weight > other.weight) { return false }
            if look.italic, !(candidate.italic && !other.italic) { return false }
            return true
        }
    }

    /// Sentence-ending marks (`.!?:;`), a run of them counting once.
    private static func sentenceEnds(in text: String) -> Int {
        let marks: Set<Character> = [".", "!", "?", ":", ";"]
        var count = 0
        var previousWasMark = false
        for character in text {
            let isMark = marks.contains(character)
            if previousWasMark, !isMark { count += 1 }
            previousWasMark = isMark
        }
        return count + (previousWasMark ? 1 : 0)
    }

    private static func nextParagraph(after element: Element) -> Element? {
        var sibling = element.nextElementSibling
        while let current = sibling {
            if current.localName == "p" { return current }
            sibling = current.nextElementSibling
        }
        return nil
    }

    private static func previousParagraph(of element: Element) -> Element? {
        var sibling = element.previousElementSibling
        while let current = sibling {
            if current.localName == "p" { return current }
            sibling = current.previousElementSibling
        }
        return nil
    }

    public let examples = RuleExamples(
        passing: [
            #"<div><p>Opening hours</p><p>We open at nine every weekday.</p></div>"#,
            #"<div><p><b>Note</b></p><p><b>Both paragraphs are bold alike.</b></p></div>"#,
            #"<div><p style="font-weight: bold">A bold paragraph longer than the next</p><p>Short one</p></div>"#,
        ],
        violating: [
            RuleExample(#"<div><p style="font-size: 150%">Opening hours</p><p>We open at nine every weekday.</p></div>"#, at: "p:first-child"),
            RuleExample(
                #"<style>.lead { font-weight: bold; font-size: 1.2em }</style><div><p class="lead">Prices</p><p>All prices include tax and delivery.</p></div>"#,
                at: ".lead"
            ),
        ],
        incomplete: [
            RuleExample(
                #"<blockquote><p><b style="font-size: 120%">Chapter one</b></p><p>It was a dark night.</p></blockquote>"#,
                at: "p:first-child"
            )
        ],
        inapplicable: [
            #"<div><p><b>Only one paragraph</b></p></div>"#,
            #"<div><p><b>Two sentences! Here too!</b></p><p>Next.</p></div>"#,
        ]
    )
}
