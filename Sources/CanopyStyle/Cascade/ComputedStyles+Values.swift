import CanopyHTML

/// Typed computed values the rules read: colours, font sizes and weights, opacity.
extension ComputedStyles {
    /// The element's text colour; nil when the cascade gives a value Canopy cannot read.
    public func color(of element: Element) -> RGBA? {
        colorValue(.color, of: element)
    }

    /// A colour property of the element (`background-color`, `text-decoration-color`...), with
    /// `currentcolor` as the element's colour; nil when unreadable.
    public func colorValue(_ property: CSSProperty, of element: Element) -> RGBA? {
        let node = Int(styleNode(of: element))
        let slot = Int(property.rawValue)
        if let known = table.parsedColors[slot].known(node) { return known }
        let parsed: RGBA?
        switch CSSColor.parse(value(property, of: element)) {
        case .rgba(let color)?: parsed = color
        case .currentColor? where property == .color: parsed = element.parent.map { color(of: $0) } ?? RGBA.black
        case .currentColor?: parsed = color(of: element)
        case nil: parsed = nil
        }
        table.parsedColors[slot].store(parsed, at: node)
        return parsed
    }

    /// Computed font size in CSS pixels; nil when it depends on something Canopy cannot resolve.
    public func fontSize(of element: Element) -> Double? {
        let node = Int(styleNode(of: element))
        if let known = table.fontSizes.known(node) { return known }
        let size = resolveFontSize(of: element)
        table.fontSizes.store(size.map { max($0, 0) }, at: node)
        return size
    }

    private func resolveFontSize(of element: Element) -> Double? {
        let parentSize: Double
        if let parent = element.parent {
            guard let size = fontSize(of: parent) else { return nil }
            parentSize = size
        } else {
            parentSize = 16
        }
        guard declares(.fontSize, for: element) else { return parentSize }
        let root = document.documentElement.flatMap { $0 == element ? 16 : fontSize(of: $0) } ?? 16
        return FontMetrics.fontSize(value(.fontSize, of: element), parent: parentSize, root: root, viewport: viewport)
    }

    /// Computed numeric font weight (400 normal, 700 bold); nil when unreadable.
    public func fontWeight(of element: Element) -> Double? {
        // Kept per element, as sizes are: each element asks its parent, so without it every
        // text element of a deep page would recompute the whole chain above it.
        let node = Int(styleNode(of: element))
        if let known = table.fontWeights.known(node) { return known }
        let parentWeight = element.parent.map { fontWeight(of: $0) } ?? 400
        var weight: Double?
        if let parentWeight {
            weight = declares(.fontWeight, for: element) ? FontMetrics.fontWeight(value(.fontWeight, of: element), parent: parentWeight) : parentWeight
        }
        table.fontWeights.store(weight, at: node)
        return weight
    }

    /// What the element's computed values hide: asked of every element of every page by the
    /// accessibility model, and kept per style node rather than compared as three strings each time.
    public struct Concealment: OptionSet, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// `display: none`.
        public static let displayNone = Concealment(rawValue: 1)
        /// `content-visibility: hidden`: the box stays, its content is skipped.
        public static let contentSkipped = Concealment(rawValue: 2)
        /// `visibility: hidden` or `collapse`.
        public static let visibilityHidden = Concealment(rawValue: 4)
    }

    /// The element's `Concealment`, read from `display`, `content-visibility` and `visibility`.
    public func concealment(of element: Element) -> Concealment {
        let node = Int(styleNode(of: element))
        if let known = table.concealments.known(node) { return Concealment(rawValue: known ?? 0) }
        var concealment: Concealment = []
        if lowercasedValue(.display, of: element) == "none" { concealment.insert(.displayNone) }
        if lowercasedValue(.contentVisibility, of: element) == "hidden" { concealment.insert(.contentSkipped) }
        let visibility = lowercasedValue(.visibility, of: element)
        if visibility == "hidden" || visibility == "collapse" { concealment.insert(.visibilityHidden) }
        table.concealments.store(concealment.rawValue, at: node)
        return concealment
    }

    /// The element's own `opacity`, 0...1 (1 when unreadable: callers that care check `declares`).
    public func opacity(of element: Element) -> Double {
        // Per style node: parsing the number was most of what the contrast rule spent on it.
        let node = Int(styleNode(of: element))
        if let known = table.opacities.known(node) { return known ?? 1 }
        let text = value(.opacity, of: element)
        let opacity: Double
        if text.hasSuffix("%"), let percent = Double(text.dropLast()) {
            opacity = min(max(percent / 100, 0), 1)
        } else {
            opacity = Double(text).map { min(max($0, 0), 1) } ?? 1
        }
        table.opacities.store(opacity, at: node)
        return opacity
    }
}

/// Typed values kept per style node: worked out once, read by every element of the node. Grows
/// with the nodes asked about.
struct NodeValues<Value> {
    private var values: [Value?] = []
    private var isKnown: [Bool] = []

    /// nil when not computed yet; `.some(nil)` when computed and unreadable.
    func known(_ node: Int) -> Value?? {
        guard node < isKnown.count, isKnown[node] else { return nil }
        return .some(values[node])
    }

    mutating func store(_ value: Value?, at node: Int) {
        values.grow(toHold: node, with: nil)
        isKnown.grow(toHold: node, with: false)
        values[node] = value
        isKnown[node] = true
    }
}
