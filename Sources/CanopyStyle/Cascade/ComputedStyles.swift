import CanopyHTML

/// The cascade applied to one page: for any element and property, the value a browser would
/// compute from the page's rules, its `style` attributes, inheritance and the defaults.
///
/// Lazy: an element's rules are matched the first time a property of it is asked for, and a
/// value is computed only when asked (then kept). A page whose audit reads only `display` and
/// `visibility` matches only the rules that set them. One page, one thread.
///
/// Elements share their style: two elements with the same selector inputs (`SelectorInputs`),
/// the same `style` attribute, the same matches among rules that read siblings or children, and
/// parents that share a style, get the same matched rules and so the same computed values. Each
/// such style ("style node") is matched and computed once, on the first element that has it: the
/// hundreds of links of a javadoc table cost one match, where each cost its own before.
public final class ComputedStyles {
    public let document: Document
    public let index: StyleRuleIndex
    public let viewport: Viewport

    /// Every table below is indexed by style node, not by element, and grows with the nodes made:
    /// a page of a million alike elements has a handful.
    private var nodes = StyleNodes()
    /// Matched declaration blocks of each node (sorted by priority, highest first), for all
    /// properties and for the visibility properties: one flat buffer per kind, and per node
    /// where its run starts and how long it is. A page of a million elements must not cost a
    /// million small arrays.
    private var allMatches = MatchTable()
    private var visibilityMatches = MatchTable()
    /// Parsed `style` attributes by node (nil inside: none).
    private var inlineStyles: [Int32: DeclarationBlock?] = [:]
    /// Computed values by property and node, as indices into `valueTexts` (-1: not computed
    /// yet); allocated when a property is first asked. Nodes are few, so every property is kept:
    /// a background is asked again for each text element above which it lies.
    private var computedValues: [[Int32]]
    private var valueTexts: [String] = []
    /// `valueTexts` lowercased, each made when first asked.
    private var lowercasedTexts: [String?] = []
    private var valueIndices: [String: Int32] = [:]
    /// Custom properties by node and name (nil inside: guaranteed-invalid).
    private var customValues: [Int32: [String: String?]] = [:]
    /// Whether a node may paint a background.
    private var backgroundAnswers = NodeValues<Bool>()
    /// Whether rules style a pseudo-element of a node, by pseudo-element.
    private var pseudoElementAnswers: [String: NodeValues<Bool>] = [:]
    private var scratch: [Int32] = []
    /// Each element's ancestor filter, built on the first match: it rejects most rules with
    /// descendant combinators without a walk up the tree.
    private lazy var ancestorFilters = AncestorFilter.filters(for: document)
    /// Parsed colours by property and node.
    var parsedColors = Array(repeating: NodeValues<RGBA>(), count: CSSProperty.allCases.count)
    /// Resolved font sizes by node (nil inside: cannot be resolved), for the typed accessors.
    var fontSizes = NodeValues<Double>()
    /// Resolved font weights by node, the same way.
    var fontWeights = NodeValues<Double>()

    private struct MatchTable {
        /// Per element: start << 24 | count + 1 (0: not matched yet).
        var runs: [UInt64] = []
        var blocks: [MatchedBlock] = []

        func run(at node: Int) -> ArraySlice<MatchedBlock>? {
            guard node < runs.count else { return nil }
            let packed = runs[node]
            guard packed != 0 else { return nil }
            let start = Int(packed >> 24), count = Int(packed & 0xFF_FFFF) - 1
            return blocks[start..<(start + count)]
        }

        mutating func store(_ matched: [MatchedBlock], at node: Int) -> ArraySlice<MatchedBlock> {
            let start = blocks.count
            blocks.append(contentsOf: matched)
            runs.grow(toHold: node, with: 0)
            runs[node] = UInt64(start) << 24 | UInt64(min(matched.count, 0xFF_FFFE) + 1)
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
        computedValues = Array(repeating: [], count: CSSProperty.allCases.count)
    }

    // MARK: Values

    /// The computed value of `property` as CSS text (lowercased keywords as written, lengths
    /// unresolved): the cascaded value, or the parent's for inherited properties, or the initial
    /// value; CSS-wide keywords and `var()` resolved.
    public func value(_ property: CSSProperty, of element: Element) -> String {
        valueTexts[Int(valueIndex(property, of: element))]
    }

    /// `value(property, of: element).lowercased()`, lowercased once per distinct value of the
    /// page: rules compare keywords of every text element and its ancestors.
    public func lowercasedValue(_ property: CSSProperty, of element: Element) -> String {
        let index = Int(valueIndex(property, of: element))
        if let known = lowercasedTexts[index] { return known }
        let lowercased = valueTexts[index].lowercased()
        lowercasedTexts[index] = lowercased
        return lowercased
    }

    private func valueIndex(_ property: CSSProperty, of element: Element) -> Int32 {
        let slot = Int(property.rawValue)
        let node = Int(styleNode(of: element))
        if node < computedValues[slot].count, computedValues[slot][node] >= 0 { return computedValues[slot][node] }
        let index = intern(computeValue(property, of: element))
        computedValues[slot].grow(toHold: node, with: -1)
        computedValues[slot][node] = index
        return index
    }

    private func intern(_ text: String) -> Int32 {
        if let known = valueIndices[text] { return known }
        let index = Int32(valueTexts.count)
        valueTexts.append(text)
        lowercasedTexts.append(nil)
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
        let node = Int(styleNode(of: element))
        if let known = backgroundAnswers.known(node) { return known ?? false }
        var answer = inlineStyle(of: element)?.declared.intersects(StyleRuleIndex.backgroundProperties) ?? false
        if !answer { answer = !matchedBlocks(of: firstElement(of: node), buckets: index.backgroundRules).isEmpty }
        backgroundAnswers.store(answer, at: node)
        return answer
    }

    /// Whether any rule styles `pseudo` for this element at all.
    public func hasPseudoElementRules(_ pseudo: String, for element: Element) -> Bool {
        guard let buckets = index.pseudoElementRules[pseudo] else { return false }
        let node = Int(styleNode(of: element))
        if let known = pseudoElementAnswers[pseudo]?.known(node) { return known ?? false }
        let answer = !matchedBlocks(of: firstElement(of: node), buckets: buckets).isEmpty
        pseudoElementAnswers[pseudo, default: NodeValues()].store(answer, at: node)
        return answer
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
        let node = styleNode(of: element)
        if let known = inlineStyles[node] { return known }
        let parsed = Optional(DeclarationBlock(parsing: text)).flatMap { $0.isEmpty ? nil : $0 }
        inlineStyles[node] = parsed
        return parsed
    }

    /// Matched blocks of the element, highest priority first; each rule appears once for its
    /// normal and once for its important declarations.
    private func matched(_ element: Element, visibilityOnly requested: Bool) -> ArraySlice<MatchedBlock> {
        let visibilityOnly = requested && !matchesAllRulesAtOnce
        let node = Int(styleNode(of: element))
        if visibilityOnly, let known = visibilityMatches.run(at: node) { return known }
        if !visibilityOnly, let known = allMatches.run(at: node) { return known }
        var result: [MatchedBlock] = []
        let first = firstElement(of: node)
        for (key, block) in matchedBlocks(of: first, buckets: visibilityOnly ? index.visibilityRules : index.allRules) {
            result.append(MatchedBlock(key: key, block: block))
        }
        if let inline = inlineStyle(of: element) {
            result.append(MatchedBlock(key: StyleRuleIndex.inlineNormalKey, block: -1))
            if inline.declarations.contains(where: \.important) || inline.customProperties.contains(where: \.important) {
                result.append(MatchedBlock(key: StyleRuleIndex.inlineImportantKey, block: -1))
            }
        }
        if result.count > 1 { result.sort { $0.key > $1.key } }
        return visibilityOnly ? visibilityMatches.store(result, at: node) : allMatches.store(result, at: node)
    }

    /// Priority keys and blocks of the rules in `buckets` that match the element.
    private func matchedBlocks(of element: Element, buckets: RuleBuckets) -> [(UInt64, Int32)] {
        guard !buckets.isEmpty else { return [] }
        matchingRules(of: element, buckets: buckets, into: &ruleScratch)
        var result: [(UInt64, Int32)] = []
        for ruleIndex in ruleScratch {
            let rule = index.rules[Int(ruleIndex)]
            result.append((rule.normalKey, rule.block))
            if index.blockHasImportant[Int(rule.block)] { result.append((rule.importantKey, rule.block)) }
        }
        return result
    }

    /// Replaces `result` with the indices of the rules in `buckets` that match the element, ascending.
    private func matchingRules(of element: Element, buckets: RuleBuckets, into result: inout [Int32]) {
        result.removeAll(keepingCapacity: true)
        guard !buckets.isEmpty else { return }
        scratch.removeAll(keepingCapacity: true)
        buckets.candidates(for: element, into: &scratch)
        var previous: Int32 = -1
        if scratch.count > 1 { scratch.sort() }
        let ancestors = ancestorFilters[element.position]
        for ruleIndex in scratch where ruleIndex != previous {
            previous = ruleIndex
            guard ancestors.mayContain(index.ancestorRequirements[Int(ruleIndex)]), index.rules[Int(ruleIndex)].selector.matches(element)
            else { continue }
            result.append(ruleIndex)
        }
    }

    // MARK: Style nodes

    private struct StyleNodes {
        /// By element position: its node (-1: not made yet).
        var ofElement: [Int32] = []
        /// By node: the element it was made for, whose matches stand for all its elements.
        var firstElement: [Int32] = []
        /// By node: the next node with the same key (-1: none).
        var nextWithSameKey: [Int32] = []
        /// By node: its signature (selector inputs, then the rules that read surroundings it
        /// matches, as -1 - rule), a run in `signatures`.
        var signatureRuns: [Range<Int32>] = []
        var signatures: [Int32] = []
        var byKey: [Key: Int32] = [:]

        struct Key: Hashable {
            let parent: Int32
            let hash: Int
        }

        func signature(of node: Int) -> ArraySlice<Int32> {
            let run = signatureRuns[node]
            return signatures[Int(run.lowerBound)..<Int(run.upperBound)]
        }
    }

    private var ruleScratch: [Int32] = []
    private var signatureScratch: [Int32] = []

    private func firstElement(of node: Int) -> Element {
        document.element(atPosition: Int(nodes.firstElement[node]))
    }

    /// A number shared by elements whose computed values are all the same (their style node):
    /// callers may keep what they derive from computed values alone under it. Numbers count up
    /// from 0 in this cascade.
    public func styleNodeNumber(of element: Element) -> Int {
        Int(styleNode(of: element))
    }

    /// The element's style node, made on first ask, with those of its ancestors.
    func styleNode(of element: Element) -> Int32 {
        if nodes.ofElement.isEmpty { nodes.ofElement = Array(repeating: -1, count: document.elementCount) }
        let known = nodes.ofElement[element.position]
        if known >= 0 { return known }
        // Ancestors first, from the highest one without a node down, in a loop: pages nest deep.
        var chain = [element]
        var parentNode: Int32 = -1
        var current = element.parent
        while let ancestor = current {
            let node = nodes.ofElement[ancestor.position]
            if node >= 0 {
                parentNode = node
                break
            }
            chain.append(ancestor)
            current = ancestor.parent
        }
        for member in chain.reversed() {
            parentNode = styleNode(for: member, parent: parentNode)
            nodes.ofElement[member.position] = parentNode
        }
        return parentNode
    }

    /// The node of an element whose parent has node `parent` (-1: no parent): an existing one
    /// when an element already seen shares everything the cascade reads, else a new one.
    private func styleNode(for element: Element, parent: Int32) -> Int32 {
        signatureScratch.removeAll(keepingCapacity: true)
        index.selectorInputs.signature(of: element, into: &signatureScratch)
        if !index.surroundingRules.isEmpty {
            matchingRules(of: element, buckets: index.surroundingRules, into: &ruleScratch)
            // Negative, apart from the input features.
            for rule in ruleScratch { signatureScratch.append(-1 - rule) }
        }
        let localName = element.localName
        let styleText = element.attribute("style")
        var hasher = Hasher()
        hasher.combine(localName)
        hasher.combine(styleText)
        hasher.combine(signatureScratch)
        let key = StyleNodes.Key(parent: parent, hash: hasher.finalize())
        var candidate = nodes.byKey[key] ?? -1
        while candidate >= 0 {
            let node = Int(candidate)
            let first = firstElement(of: node)
            if nodes.signature(of: node).elementsEqual(signatureScratch), first.localName == localName,
               first.namespace == element.namespace, first.attribute("style") == styleText {
                return candidate
            }
            candidate = nodes.nextWithSameKey[node]
        }
        let node = Int32(nodes.firstElement.count)
        nodes.firstElement.append(Int32(element.position))
        let start = Int32(nodes.signatures.count)
        nodes.signatures.append(contentsOf: signatureScratch)
        nodes.signatureRuns.append(start..<Int32(nodes.signatures.count))
        nodes.nextWithSameKey.append(nodes.byKey[key] ?? -1)
        nodes.byKey[key] = node
        return node
    }

    // MARK: Custom properties and var()

    /// The element's value of custom property `name` (inherited), nil when it has none.
    public func customProperty(_ name: String, of element: Element) -> String? {
        let node = styleNode(of: element)
        if let known = customValues[node]?[name] { return known }
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
        customValues[node, default: [:]][name] = .some(value)
        // A value that refers to other variables is substituted here, in the element's context.
        if let raw = value, StyleSheetParser.containsVariable(raw) {
            customValues[node]![name] = .some(nil)  // a cycle through this name is invalid
            let substituted = VariableSubstitution.substitute(raw, depth: 0) { self.customProperty($0, of: element) }
            customValues[node]![name] = .some(substituted)
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
            if index + 4 <= bytes.count, bytes[index].asciiLowercased == UInt8(ascii: "v"),
               bytes[index + 1].asciiLowercased == UInt8(ascii: "a"), bytes[index + 2].asciiLowercased == UInt8(ascii: "r"),
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

extension Array {
    /// Makes `index` valid, new slots holding `filler`.
    mutating func grow(toHold index: Int, with filler: Element) {
        if index >= count { append(contentsOf: repeatElement(filler, count: Swift.max(index + 1 - count, count))) }
    }
}
