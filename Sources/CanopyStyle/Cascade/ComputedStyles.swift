import CanopyHTML

/// The cascade applied to one page: for any element and property, the value a browser would
/// compute from the page's rules, its `style` attributes, inheritance and the defaults.
///
/// Lazy: an element's rules are matched the first time a property of it is asked for, and a
/// value is computed only when asked (then kept). A page whose audit reads only `display` and
/// `visibility` matches only the rules that set them. One page, one thread.
public final class ComputedStyles {
    public let document: Document
    public let index: StyleRuleIndex
    public let viewport: Viewport

    /// Matched declaration blocks of each element (sorted by priority, highest first), for all
    /// properties and for the visibility properties: one flat buffer per kind, and per element
    /// where its run starts and how long it is. A page of a million elements must not cost a
    /// million small arrays.
    private var allMatches = MatchTable()
    private var visibilityMatches = MatchTable()
    /// Parsed `style` attributes by position (nil inside: none).
    private var inlineStyles: [Int: DeclarationBlock?] = [:]
    /// Computed values of inherited properties (which recurse to the parent), by property, as
    /// indices into `valueTexts` (-1: not computed yet); allocated when a property is first asked.
    /// Other properties are cheap to compute again from the matched blocks, so they are not kept.
    private var inheritedValues: [[Int32]]
    private var valueTexts: [String] = []
    private var valueIndices: [String: Int32] = [:]
    /// Custom properties by element position and name (nil inside: guaranteed-invalid).
    private var customValues: [Int: [String: String?]] = [:]
    private var scratch: [Int32] = []
    /// Each element's ancestor filter, built on the first match: it rejects most rules with
    /// descendant combinators without a walk up the tree.
    private lazy var ancestorFilters = AncestorFilter.filters(for: document)
    /// Resolved font sizes by position (-1: not computed yet, NaN: cannot be resolved), for the
    /// typed accessors; allocated on first use.
    var fontSizes: [Double] = []
    /// Resolved font weights by position, the same way.
    var fontWeights: [Double] = []

    private struct MatchTable {
        /// Per element: start << 24 | count + 1 (0: not matched yet).
        var runs: [UInt64] = []
        var blocks: [MatchedBlock] = []

        mutating func run(at position: Int, elementCount: Int) -> ArraySlice<MatchedBlock>? {
            if runs.isEmpty { runs = Array(repeating: 0, count: elementCount) }
            let packed = runs[position]
            guard packed != 0 else { return nil }
            let start = Int(packed >> 24), count = Int(packed & 0xFF_FFFF) - 1
            return blocks[start..<(start + count)]
        }

        mutating func store(_ matched: [MatchedBlock], at position: Int) -> ArraySlice<MatchedBlock> {
            let start = blocks.count
            blocks.append(contentsOf: matched)
            runs[position] = UInt64(start) << 24 | UInt64(min(matched.count, 0xFF_FFFE) + 1)
            return blocks[start..<blocks.count]
        }
    }

    struct MatchedBlock {
        let key: UInt64
        let block: Int32
        /// Inline style of the element itself (not in `index.blocks`).
        var isInline: Bool { block < 0 }
        var important: Bool { key >> 63 == 1 }
    }

    /// Match every rule at once, also when only visibility is asked: right when rules that read
    /// colours and fonts will ask for nearly every element anyway, so the visibility pass and
    /// they share one match per element instead of two.
    public var matchesAllRulesAtOnce = false

    public init(document: Document, index: StyleRuleIndex, viewport: Viewport) {
        self.document = document
        self.index = index
        self.viewport = viewport
        inheritedValues = Array(repeating: [], count: CSSProperty.allCases.count)
    }

    // MARK: Values

    /// The computed value of `property` as CSS text (lowercased keywords as written, lengths
    /// unresolved): the cascaded value, or the parent's for inherited properties, or the initial
    /// value; CSS-wide keywords and `var()` resolved.
    public func value(_ property: CSSProperty, of element: Element) -> String {
        guard property.inherits else { return computeValue(property, of: element) }
        let slot = Int(property.rawValue)
        let position = element.position
        if inheritedValues[slot].isEmpty { inheritedValues[slot] = Array(repeating: -1, count: document.elementCount) }
        let known = inheritedValues[slot][position]
        if known >= 0 { return valueTexts[Int(known)] }
        let computed = computeValue(property, of: element)
        inheritedValues[slot][position] = intern(computed)
        return computed
    }

    private func intern(_ text: String) -> Int32 {
        if let known = valueIndices[text] { return known }
        let index = Int32(valueTexts.count)
        valueTexts.append(text)
        valueIndices[text] = index
        return index
    }

    /// The winning declaration's value for `property` on the element itself, `var()` and pending
    /// shorthands resolved; nil when nothing declares it (or what does is invalid once resolved).
    public func declaredValue(_ property: CSSProperty, of element: Element) -> String? {
        guard let declaration = winningDeclaration(property, of: element) else { return nil }
        return resolve(declaration, of: element)
    }

    /// Whether some rule or style attribute declares `property` for the element (whatever value).
    public func declares(_ property: CSSProperty, for element: Element) -> Bool {
        winningDeclaration(property, of: element) != nil
    }

    private func computeValue(_ property: CSSProperty, of element: Element) -> String {
        let parentValue: () -> String = {
            element.parent.map { self.value(property, of: $0) } ?? property.initialValue
        }
        guard let declared = declaredValue(property, of: element) else {
            return property.inherits ? parentValue() : property.initialValue
        }
        switch CSSWideKeyword(declared) {
        case .inherit?: return parentValue()
        case .initial?: return property.initialValue
        case .unset?, .revert?, .revertLayer?: return property.inherits ? parentValue() : property.initialValue
        case nil:
            // `color: currentcolor` means the inherited colour.
            if property == .color, declared.utf8.count == 12, declared.lowercased() == "currentcolor" { return parentValue() }
            return declared
        }
    }

    /// The value of `property` on the element's `::before` or `::after` (`pseudo`), nil when no
    /// rule styles that pseudo-element with the property.
    public func pseudoElementValue(_ property: CSSProperty, of element: Element, pseudo: String) -> String? {
        guard let buckets = index.pseudoElementRules[pseudo] else { return nil }
        var best: (key: UInt64, declaration: Declaration)?
        for (key, block) in matchedBlocks(of: element, buckets: buckets) {
            if let best, best.key >= key { continue }
            if let declaration = lastDeclaration(of: property, in: block, important: key >> 63 == 1) {
                best = (key, declaration)
            }
        }
        return best.flatMap { resolve($0.declaration, of: element) }
    }

    /// Whether some rule or the style attribute may give the element a background: false means
    /// it certainly paints none. Matches only the rules that set backgrounds.
    public func mayPaintBackground(_ element: Element) -> Bool {
        if let inline = inlineStyle(of: element), inline.declared.intersects(StyleRuleIndex.backgroundProperties) { return true }
        return !matchedBlocks(of: element, buckets: index.backgroundRules).isEmpty
    }

    /// Whether any rule styles `pseudo` for this element at all.
    public func hasPseudoElementRules(_ pseudo: String, for element: Element) -> Bool {
        guard let buckets = index.pseudoElementRules[pseudo] else { return false }
        return !matchedBlocks(of: element, buckets: buckets).isEmpty
    }

    // MARK: Cascade

    private func winningDeclaration(_ property: CSSProperty, of element: Element) -> Declaration? {
        let isVisibility = StyleRuleIndex.visibilityProperties.contains(property)
        let matches = matched(element, visibilityOnly: isVisibility)
        for match in matches {
            let block: DeclarationBlock
            if match.isInline {
                guard let inline = inlineStyle(of: element) else { continue }
                block = inline
            } else {
                guard index.blockDeclared[Int(match.block)].contains(property) else { continue }
                block = index.blocks[Int(match.block)]
            }
            guard block.declared.contains(property) else { continue }
            if let declaration = lastDeclaration(of: property, in: block, important: match.important) { return declaration }
        }
        return nil
    }

    private func lastDeclaration(of property: CSSProperty, in block: DeclarationBlock, important: Bool) -> Declaration? {
        block.declarations.last { $0.property == property && $0.important == important }
    }

    private func lastDeclaration(of property: CSSProperty, in blockIndex: Int32, important: Bool) -> Declaration? {
        guard index.blockDeclared[Int(blockIndex)].contains(property) else { return nil }
        return lastDeclaration(of: property, in: index.blocks[Int(blockIndex)], important: important)
    }

    private func inlineStyle(of element: Element) -> DeclarationBlock? {
        // Only elements with a style attribute get an entry: a dictionary entry for each of a
        // million plain elements was a quarter of the cascade's memory on such a page.
        guard let text = element.attribute("style") else { return nil }
        let position = element.position
        if let known = inlineStyles[position] { return known }
        let parsed = Optional(DeclarationBlock(parsing: text)).flatMap { $0.isEmpty ? nil : $0 }
        inlineStyles[position] = parsed
        return parsed
    }

    /// Matched blocks of the element, highest priority first; each rule appears once for its
    /// normal and once for its important declarations.
    private func matched(_ element: Element, visibilityOnly requested: Bool) -> ArraySlice<MatchedBlock> {
        let visibilityOnly = requested && !matchesAllRulesAtOnce
        let position = element.position
        let count = document.elementCount
        if visibilityOnly, let known = visibilityMatches.run(at: position, elementCount: count) { return known }
        if !visibilityOnly, let known = allMatches.run(at: position, elementCount: count) { return known }
        var result: [MatchedBlock] = []
        for (key, block) in matchedBlocks(of: element, buckets: visibilityOnly ? index.visibilityRules : index.allRules) {
            result.append(MatchedBlock(key: key, block: block))
        }
        if let inline = inlineStyle(of: element) {
            result.append(MatchedBlock(key: StyleRuleIndex.inlineNormalKey, block: -1))
            if inline.declarations.contains(where: \.important) || inline.customProperties.contains(where: \.important) {
                result.append(MatchedBlock(key: StyleRuleIndex.inlineImportantKey, block: -1))
            }
        }
        if result.count > 1 { result.sort { $0.key > $1.key } }
        return visibilityOnly ? visibilityMatches.store(result, at: position) : allMatches.store(result, at: position)
    }

    private func matchedBlocks(of element: Element, buckets: RuleBuckets) -> [(UInt64, Int32)] {
        guard !buckets.isEmpty else { return [] }
        scratch.removeAll(keepingCapacity: true)
        buckets.candidates(for: element, into: &scratch)
        var result: [(UInt64, Int32)] = []
        var previous: Int32 = -1
        if scratch.count > 1 { scratch.sort() }
        let ancestors = ancestorFilters[element.position]
        for ruleIndex in scratch where ruleIndex != previous {
            previous = ruleIndex
            let rule = index.rules[Int(ruleIndex)]
            guard ancestors.mayContain(rule.selector.ancestorRequirements), rule.selector.matches(element) else { continue }
            result.append((rule.normalKey, rule.block))
            if index.blockHasImportant[Int(rule.block)] { result.append((rule.importantKey, rule.block)) }
        }
        return result
    }

    // MARK: Custom properties and var()

    /// The element's value of custom property `name` (inherited), nil when it has none.
    public func customProperty(_ name: String, of element: Element) -> String? {
        let position = element.position
        if let known = customValues[position]?[name] { return known }
        var found: String??
        for match in matched(element, visibilityOnly: false) {
            let block = match.isInline ? inlineStyle(of: element) : index.blocks[Int(match.block)]
            guard let block, !block.customProperties.isEmpty else { continue }
            if let declaration = block.customProperties.last(where: { $0.name == name && $0.important == match.important }) {
                found = .some(declaration.value)
                break
            }
        }
        var value: String?
        switch found {
        case .some(let declared?):
            let keyword = CSSWideKeyword(declared)
            if keyword == .initial {
                value = nil
            } else if keyword != nil {
                value = element.parent.flatMap { customProperty(name, of: $0) }
            } else {
                value = declared
            }
        default:
            value = element.parent.flatMap { customProperty(name, of: $0) }
        }
        customValues[position, default: [:]][name] = .some(value)
        // A value that refers to other variables is substituted here, in the element's context.
        if let raw = value, StyleSheetParser.containsVariable(raw) {
            customValues[position]![name] = .some(nil)  // a cycle through this name is invalid
            let substituted = VariableSubstitution.substitute(raw, depth: 0) { self.customProperty($0, of: element) }
            customValues[position]![name] = .some(substituted)
            return substituted
        }
        return value
    }

    private func resolve(_ declaration: Declaration, of element: Element) -> String? {
        var text = declaration.value
        if declaration.hasVariables {
            guard let substituted = VariableSubstitution.substitute(text, depth: 0, lookup: { self.customProperty($0, of: element) })
            else { return nil }
            text = substituted.trimmingASCIIWhitespace()
        }
        if let shorthand = declaration.pendingShorthand {
            return shorthand.expand(text)?.first { $0.0 == declaration.property }?.1
        }
        return text.isEmpty ? nil : text
    }
}

/// `var(--name, fallback)` replaced by the variable's value.
enum VariableSubstitution {
    static let maximumDepth = 16

    /// nil when a variable without fallback is missing: the declaration is then invalid at
    /// computed-value time and the property behaves as `unset`.
    static func substitute(_ text: String, depth: Int, lookup: (String) -> String?) -> String? {
        guard depth < maximumDepth else { return nil }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if index + 4 <= bytes.count, CSSTokenizer.lowercase(bytes[index]) == UInt8(ascii: "v"),
               CSSTokenizer.lowercase(bytes[index + 1]) == UInt8(ascii: "a"), CSSTokenizer.lowercase(bytes[index + 2]) == UInt8(ascii: "r"),
               bytes[index + 3] == UInt8(ascii: "("),
               index == 0 || !CSSTokenizer.isNameByte(bytes[index - 1]) {
                // The argument up to the matching ")".
                var depthCount = 1
                var end = index + 4
                while end < bytes.count, depthCount > 0 {
                    if bytes[end] == UInt8(ascii: "(") { depthCount += 1 }
                    if bytes[end] == UInt8(ascii: ")") { depthCount -= 1 }
                    if depthCount > 0 { end += 1 }
                }
                let argument = String(decoding: bytes[(index + 4)..<min(end, bytes.count)], as: UTF8.self)
                let (name, fallback) = split(argument)
                let replacement: String?
                if let value = lookup(name) {
                    replacement = value
                } else if let fallback {
                    replacement = substitute(fallback, depth: depth + 1, lookup: lookup)
                } else {
                    replacement = nil
                }
                guard let replacement else { return nil }
                output.append(contentsOf: replacement.utf8)
                index = end + 1
                continue
            }
            output.append(bytes[index])
            index += 1
        }
        let result = String(decoding: output, as: UTF8.self)
        return StyleSheetParser.containsVariable(result) ? substitute(result, depth: depth + 1, lookup: lookup) : result
    }

    private static func split(_ argument: String) -> (String, String?) {
        guard let comma = argument.firstIndex(of: ",") else { return (argument.trimmingASCIIWhitespace(), nil) }
        return (argument[..<comma].trimmingASCIIWhitespace(), String(argument[argument.index(after: comma)...]).trimmingASCIIWhitespace())
    }
}
