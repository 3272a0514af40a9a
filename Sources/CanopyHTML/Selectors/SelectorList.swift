/// A parsed CSS selector list, e.g. `nav a[href^="http"], .ad, :has(> img)`.
///
/// Supports Selectors Level 3 and the common Level 4 parts (see `SelectorParser`). Parsing once
/// and matching many times is the intended use: parse exclude lists and rule selectors up front.
public struct SelectorList: Sendable, Hashable, CustomStringConvertible {
    /// The selector text as given.
    public let text: String
    let selectors: [ComplexSelector]
    /// How an `ElementNameIndex` finds the candidates.
    let candidates: CandidateStrategy

    /// Whether every element matches (some alternative is a bare `*`).
    public var matchesEveryElement: Bool { candidates == .everyElement }

    public init(_ text: String) throws(SelectorParseError) {
        var parser = SelectorParser(text)
        self.selectors = try parser.parseSelectorList()
        self.candidates = CandidateStrategy(selectors)
        self.text = text
    }

    /// Whether `element` matches any selector of the list.
    public func matches(_ element: Element) -> Bool {
        SelectorMatcher.matches(selectors, element)
    }

    public var description: String { text }

    // The parsed form follows from the text, so the text alone decides equality.
    public static func == (lhs: SelectorList, rhs: SelectorList) -> Bool { lhs.text == rhs.text }
    public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

/// Why a selector could not be parsed, and where.
public struct SelectorParseError: Error, Equatable, CustomStringConvertible {
    /// The whole selector text.
    public let selector: String
    /// 0-based character offset of the problem in `selector`.
    public let position: Int
    public let reason: String

    public init(selector: String, position: Int, reason: String) {
        self.selector = selector
        self.position = position
        self.reason = reason
    }

    public var description: String {
        "invalid selector \"\(selector)\" at position \(position): \(reason)"
    }
}

extension Element {
    public func matches(_ selector: SelectorList) -> Bool {
        selector.matches(self)
    }

    /// Descendants (not the element itself) that match, in document order.
    public func querySelectorAll(_ selector: SelectorList) -> [Element] {
        descendants.filter(selector.matches)
    }

    public func querySelector(_ selector: SelectorList) -> Element? {
        descendants.first(where: selector.matches)
    }

    /// The element itself or its nearest ancestor that matches.
    public func closest(_ selector: SelectorList) -> Element? {
        if selector.matches(self) { return self }
        return ancestors.first(where: selector.matches)
    }
}

extension Document {
    /// All elements that match, in document order.
    public func querySelectorAll(_ selector: SelectorList) -> [Element] {
        elements.filter(selector.matches)
    }

    public func querySelector(_ selector: SelectorList) -> Element? {
        elements.first(where: selector.matches)
    }
}
