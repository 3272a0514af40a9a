import CanopyAccessibility
import CanopyHTML

/// An access key shared by two elements works for one of them only (which one depends on the
/// browser), so keyboard users cannot rely on it.
public struct AccesskeysRule: UniqueAcrossFramesRule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "accesskeys",
        impact: .serious,
        tags: ["cat.keyboard", "best-practice"],
        description: "Checks that no two elements on the page share an accesskey value",
        help: "Each accesskey value should be used once",
        howToFix: "Give every element with an accesskey a value no other element on the page uses, or remove the accesskey.",
        enabledByDefault: false,
        rationale: "Two elements with one access key make the key unpredictable; opt-in because access keys are a best practice concern."
    )

    public let selector = try! SelectorList("[accesskey]")

    /// An element hidden from screen readers alone still takes its access key.
    public var excludesHidden: Bool { false }

    /// Each key is reported once, on its first element; elements nobody can see, and empty keys,
    /// take no key.
    public func applies(to element: Element, on page: PageContext) -> Bool {
        guard let key = Self.key(of: element, on: page) else { return false }
        return Self.elementsByKey(on: page)[key]?.first == element.position
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        guard let key = Self.key(of: element, on: page), let sharing = Self.elementsByKey(on: page)[key], sharing.count > 1
        else { return .pass }
        return .violation("accesskey=\"\(element.attribute("accesskey") ?? "")\" is used by \(sharing.count) elements on the page.")
    }

    /// A key pressed in a frame competes with the page's (axe compares keys across frames).
    public func uniquenessKey(of element: Element, on page: PageContext) -> String? { Self.key(of: element, on: page) }

    public func duplicated(_ element: Element, on page: PageContext, twinsInOtherDocuments twins: Int) -> CheckOutcome {
        let here = Self.key(of: element, on: page).flatMap { Self.elementsByKey(on: page)[$0]?.count } ?? 1
        return .violation("accesskey=\"\(element.attribute("accesskey") ?? "")\" is used by \(here + twins) elements on the page and in its frames.")
    }

    /// The key compared without case, nil when the element takes none.
    private static func key(of element: Element, on page: PageContext) -> String? {
        guard let value = element.attribute("accesskey"), !value.isEmpty else { return nil }
        if page.accessibility.isNotRendered(element) || page.accessibility.isVisibilityHidden(element) { return nil }
        return value.uppercased()
    }

    /// The positions of the elements that take each key, in document order, once per page.
    private static func elementsByKey(on page: PageContext) -> [String: [Int]] {
        page.memo("optInB.accesskeys") {
            var index: [String: [Int]] = [:]
            for element in page.document.elements where element.hasAttribute("accesskey") {
                if let key = key(of: element, on: page) { index[key, default: []].append(element.position) }
            }
            return index
        }
    }

    public let examples = RuleExamples(
        passing: [
            #"<a href="/" accesskey="h">Home</a><a href="/search" accesskey="s">Search</a>"#,
            // The twin is not rendered, so it takes no key.
            #"<a href="/" accesskey="h">Home</a><a href="/help" accesskey="h" style="display: none">Help</a>"#,
        ],
        violating: [
            RuleExample(#"<a href="/" accesskey="h">Home</a><a href="/help" accesskey="H">Help</a>"#, at: #"[href="/"]"#),
            // Hidden from screen readers only: the key still clashes.
            RuleExample(#"<button accesskey="s">Save</button><div aria-hidden="true"><a href="/search" accesskey="s">Search</a></div>"#, at: "button"),
        ],
        inapplicable: [
            #"<a href="/">Home</a>"#,
            #"<a href="/" accesskey="">Home</a>"#,
            #"<a href="/" accesskey="h" hidden>Home</a>"#,
        ]
    )
}
