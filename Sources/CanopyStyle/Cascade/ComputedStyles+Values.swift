import CanopyHTML

/// Typed computed values the rules read: colours, font sizes and weights, opacity.
extension ComputedStyles {
    /// The element's text colour; nil when the cascade gives a value Canopy cannot read.
    public func color(of element: Element) -> RGBA? {
        let declared = value(.color, of: element)
        switch CSSColor.parse(declared) {
        case .rgba(let color)?: return color
        case .currentColor?: return element.parent.map { color(of: $0) } ?? RGBA.black
        case nil: return nil
        }
    }

    /// A colour property of the element (`background-color`, `text-decoration-color`...), with
    /// `currentcolor` as the element's colour; nil when unreadable.
    public func colorValue(_ property: CSSProperty, of element: Element) -> RGBA? {
        switch CSSColor.parse(value(property, of: element)) {
        case .rgba(let color)?: return color
        case .currentColor?: return color(of: element)
        case nil: return nil
        }
    }

    /// Computed font size in CSS pixels; nil when it depends on something Canopy cannot resolve.
    public func fontSize(of element: Element) -> Double? {
        if fontSizes.isEmpty { fontSizes = Array(repeating: -1, count: document.elementCount) }
        let known = fontSizes[element.position]
        if known >= 0 { return known }
        if known.isNaN { return nil }
        let size = resolveFontSize(of: element)
        fontSizes[element.position] = size.map { max($0, 0) } ?? .nan
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
        if fontWeights.isEmpty { fontWeights = Array(repeating: -1, count: document.elementCount) }
        let known = fontWeights[element.position]
        if known >= 0 { return known }
        if known.isNaN { return nil }
        let parentWeight = element.parent.map { fontWeight(of: $0) } ?? 400
        var weight: Double?
        if let parentWeight {
            weight = declares(.fontWeight, for: element) ? FontMetrics.fontWeight(value(.fontWeight, of: element), parent: parentWeight) : parentWeight
        }
        fontWeights[element.position] = weight ?? .nan
        return weight
    }

    /// The element's own `opacity`, 0...1 (1 when unreadable: callers that care check `declares`).
    public func opacity(of element: Element) -> Double {
        let text = value(.opacity, of: element)
        if text.hasSuffix("%"), let percent = Double(text.dropLast()) { return min(max(percent / 100, 0), 1) }
        return Double(text).map { min(max($0, 0), 1) } ?? 1
    }
}
