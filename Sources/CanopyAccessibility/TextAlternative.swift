import CanopyHTML

/// Text of subtrees as accessible-name computation reads it when it recurses into content.
enum TextAlternative {
    /// The text of `element`'s subtree: text nodes, and `alt` of images, skipping descendants
    /// hidden from assistive technology unless the starting element is itself hidden (a hidden
    /// element referenced by `aria-labelledby` still gives its full text).
    static func subtreeText(of element: Element, model: AccessibilityModel) -> String {
        let includeHidden = model.isHiddenFromAssistiveTechnology(element)
        var pieces: [String] = []
        var pending: [Node] = element.childNodes.reversed()
        if let label = model.ariaLabel(of: element) { return label }
        while let node = pending.popLast() {
            switch node.kind {
            case .text:
                pieces.append(node.text)
            case .element:
                guard let child = node.element else { continue }
                if !includeHidden && model.isHiddenFromAssistiveTechnology(child) { continue }
                if let label = model.ariaLabel(of: child) {
                    pieces.append(" " + label + " ")
                } else if child.isHTML, child.localName == "img" || (child.localName == "input" && child.attribute("type")?.lowercased() == "image") {
                    pieces.append(" " + (child.attribute("alt") ?? "") + " ")
                } else {
                    pending.append(contentsOf: child.childNodes.reversed())
                }
            default:
                break
            }
        }
        return collapseWhitespace(pieces.joined())
    }

    /// Collapses runs of whitespace to one space and trims the ends.
    static func collapseWhitespace(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}
