import CanopyHTML

extension AccessibilityModel {
    // MARK: Accessible name and description

    /// The element's accessible name, computed as axe-core computes it (accname 1.2 with axe's
    /// spec differences), whitespace-normalized. Empty when it has none. Cached per element.
    public func accessibleName(of element: Element) -> String {
        if nameCache.isEmpty { nameCache.allocate(document.elementCount) }
        if let cached = nameCache[element.position] { return cached }
        var computation = NameComputation(model: self, start: element)
        let name = computation.name()
        // A name cut short by the budget is not kept (the budget's first step emptied the cache).
        if !isNameBudgetSpent { nameCache.set(name, at: element.position) }
        return name
    }

    /// Whether the element's accessible name is not empty. A visible link with text directly
    /// inside it is answered without computing the name: each step before name-from-content
    /// either gives a name or passes on, and that step cannot come out blank with such text.
    /// Pages have hundreds of links; their names were most of link-name's cost.
    public func hasAccessibleName(_ element: Element) -> Bool {
        if element.isHTML, element.localName == "a", !isHiddenFromAssistiveTechnology(element),
            role(of: element, options: .axeDefault) == "link", isNamedFromContent(element),
            element.childNodes.contains(where: { node in
                node.kind == .text && node.text.unicodeScalars.contains { !TextNormalization.isJavaScriptWhitespace($0) }
            })
        {
            return true
        }
        return !accessibleName(of: element).isEmpty
    }

    /// The element's accessible description: the text of its `aria-describedby` targets (hidden
    /// targets included), else `aria-description`, else a `title` that did not already give the name.
    public func accessibleDescription(of element: Element) -> String {
        if let references = element.attribute("aria-describedby") {
            var parts: [String] = []
            for id in references.split(whereSeparator: \.isHTMLWhitespace) {
                guard let referenced = document.element(withID: String(id)) else { continue }
                var computation = NameComputation(model: self, start: element)
                var context = NameComputation.Context()
                context.inLabelledByContext = true
                parts.append(computation.referenceText(of: referenced, context: context))
            }
            let description = TextNormalization.sanitize(parts.joined(separator: " "))
            if !description.isEmpty { return description }
        }
        if let description = element.attribute("aria-description") {
            let sanitized = TextNormalization.sanitize(description)
            if !sanitized.isEmpty { return sanitized }
        }
        if let title = element.attribute("title") {
            let sanitized = TextNormalization.sanitize(title)
            if !sanitized.isEmpty && sanitized != accessibleName(of: element) { return sanitized }
        }
        return ""
    }

    /// The text of the element's content as name-from-content reads it (descendants hidden from
    /// assistive technology skipped, embedded controls by their value), whatever the element's role.
    public func subtreeText(of element: Element) -> String {
        var computation = NameComputation(model: self, start: element)
        var context = NameComputation.Context()
        context.subtreeDescendant = true
        return TextNormalization.sanitize(computation.subtreeText(of: element, context: context))
    }

    /// The text a sighted user sees in the element: text nodes outside unrendered or
    /// `visibility:hidden` subtrees, whitespace-normalized (`<br>` counts as a space).
    public func visibleText(of element: Element) -> String {
        collectText(of: element) { !self.isNotRendered($0) && !self.isVisibilityHidden($0) }
    }

    /// Whether `visibleText(of:)` is not empty, told at the first rendered character that is not
    /// whitespace, without making the text: rules ask it of every link of a page.
    public func hasVisibleText(_ element: Element) -> Bool {
        // Any order will do for whether some text exists: no reversal, no joining.
        var pending = Array(element.childNodes)
        while let node = pending.popLast() {
            switch node.kind {
            case .text:
                if Self.holdsNonWhitespace(node.textBytes) { return true }
            case .element:
                guard let child = node.element, !isNotRendered(child), !isVisibilityHidden(child) else { continue }
                // A line break reads as a space.
                if child.isHTML && child.localName == "br" { continue }
                pending.append(contentsOf: child.childNodes)
            default:
                continue
            }
        }
        return false
    }

    /// Whether the text holds a scalar that `TextNormalization.sanitize` keeps (not JavaScript
    /// whitespace, no-break spaces included): ASCII read byte by byte.
    private static func holdsNonWhitespace(_ bytes: ArraySlice<UInt8>) -> Bool {
        var hasNonASCII = false
        for byte in bytes {
            if byte >= 0x80 {
                hasNonASCII = true
            } else if byte != 0x20 && !(0x09...0x0D).contains(byte) {
                return true
            }
        }
        return hasNonASCII && String(decoding: bytes, as: UTF8.self).unicodeScalars.contains { !TextNormalization.isJavaScriptWhitespace($0) }
    }

    /// The text assistive technology reads in the element: text nodes outside subtrees hidden
    /// from it (`aria-hidden`, `hidden`, `display:none`...), whitespace-normalized.
    public func screenReaderText(of element: Element) -> String {
        collectText(of: element) { !self.isHiddenFromAssistiveTechnology($0) }
    }

    /// An `<option>`'s text: its text nodes (options are rendered inside their select's own box,
    /// so a closed select's options still count), `<br>` as a space, whitespace-normalized.
    func optionText(of option: Element) -> String {
        collectText(of: option) { !self.isHiddenFromAssistiveTechnology($0) }
    }

    private func collectText(of element: Element, including: (Element) -> Bool) -> String {
        var pieces: [String] = []
        var pending: [Node] = element.childNodes.reversed()
        while let node = pending.popLast() {
            switch node.kind {
            case .text:
                pieces.append(node.text)
            case .element:
                guard let child = node.element, including(child) else { continue }
                if child.isHTML && child.localName == "br" {
                    pieces.append(" ")
                    continue
                }
                pending.append(contentsOf: child.childNodes.reversed())
            default:
                continue
            }
        }
        return TextNormalization.sanitize(pieces.joined())
    }

    /// `<label>` elements whose `for` names this element's id (any label in the document, in order).
    public func explicitLabels(of element: Element) -> [Element] {
        guard let id = element.id, !id.isEmpty else { return [] }
        if labelsByTargetID == nil {
            var index: [String: [Element]] = [:]
            // The page's elements named `label`, not all its elements: each made retains the document.
            for label in document.elements(named: "label") where label.isHTML {
                if let target = label.attribute("for") { index[target, default: []].append(label) }
            }
            labelsByTargetID = index
        }
        return labelsByTargetID?[id] ?? []
    }

    /// The nearest `<label>` element around `element`: its implicit label.
    public func wrappingLabel(of element: Element) -> Element? {
        element.ancestors.first { $0.isHTML && $0.localName == "label" }
    }

    /// The labels of an id that more than one element carries, walked once for all of them;
    /// nil for an id of one element (its labels are walked by its own name computation).
    func sharedLabels(forID id: String) -> SharedLabels? {
        guard sharesWalks else { return nil }
        if let known = sharedLabelsByID[id] { return known }
        let carriers = document.elements(withID: id)
        let labels = carriers.count > 1 ? explicitLabels(of: carriers[0]) : []
        let shared = labels.isEmpty ? nil : SharedLabels(labels: labels, model: self)
        if !isNameBudgetSpent { sharedLabelsByID[id] = .some(shared) }
        return shared
    }

    /// Child elements plus the elements `aria-owns` adds, as the accessibility tree nests them:
    /// owned elements come last, even when they are also children.
    public func ownedElements(of element: Element) -> [Element] {
        let owned = ownedByReference(element)
        if owned.isEmpty { return Array(element.children) }
        let ownedPositions = Set(owned.map(\.position))
        return element.children.filter { !ownedPositions.contains($0.position) } + owned
    }

    /// The elements `aria-owns` names (existing ids only, each once, in attribute order).
    public func ownedByReference(_ element: Element) -> [Element] {
        guard let owns = element.attribute("aria-owns") else { return [] }
        var seen = Set<Int>()
        return owns.split(whereSeparator: \.isHTMLWhitespace).compactMap { document.element(withID: String($0)) }
            .filter { seen.insert($0.position).inserted }
    }

    /// Whether the element may be named from its content: its role says so, or it has no role
    /// (or a presentational one), as axe's non-strict reading has it.
    public func isNamedFromContent(_ element: Element) -> Bool {
        // Asked for every element a name computation walks through: kept per element.
        if namedFromContent.isEmpty { namedFromContent = Array(repeating: -1, count: document.elementCount) }
        let position = element.position
        if namedFromContent[position] >= 0 { return namedFromContent[position] == 1 }
        let named: Bool
        if let roleName = role(of: element, options: .axeDefault), let role = ARIARoles.role(named: roleName) {
            named = role.nameFromContent || roleName == "none" || roleName == "presentation"
        } else {
            named = true
        }
        // Emptied, and not to be filled, once the name budget is spent (the role may need a name).
        if !isNameBudgetSpent { namedFromContent[position] = named ? 1 : 0 }
        return named
    }
}
