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
/// hundreds of links of a javadoc table cost one match, where each cost its own before. Nothing
/// of a node depends on its page, so the pages of a crawl that share a rule index share their
/// nodes too (`StyleEnvironment.styles(for:)`): javadoc's thousands of pages repeat a few hundred.
public final class ComputedStyles {
    public let document: Document
    public let index: StyleRuleIndex
    public let viewport: Viewport

    /// Everything kept by style node rather than by element; it grows with the nodes made: a
    /// page of a million alike elements has a handful. Shared with the earlier pages of a crawl
    /// that use the same index (`StyleEnvironment`), one page at a time.
    let table: StyleNodeTable
    /// Called when this cascade is released, to hand the table to the next page.
    private let release: ((StyleNodeTable) -> Void)?
    /// By element position: its node (-1: not made yet).
    private var nodeOfElement: [Int32] = []
    private var scratch: [Int32] = []
    /// Each element's ancestor filter, built on the first match: it rejects most rules with
    /// descendant combinators without a walk up the tree.
    private lazy var ancestorFilters = AncestorFilter.OnDemand(document: document)

    typealias MatchedBlock = StyleNodeTable.MatchedBlock

    /// Match every rule at once, also when only visibility is asked: right when rules that read
    /// colours and fonts will ask for nearly every element anyway, so the visibility pass and
    /// they share one match per element instead of two.
    public var matchesAllRulesAtOnce = false

    /// A cascade with a table of its own.
    public convenience init(document: Document, index: StyleRuleIndex, viewport: Viewport) {
        self.init(document: document, viewport: viewport, table: StyleNodeTable(index: index), release: nil)
    }

    /// A cascade over `table`'s index, keeping its nodes there.
    init(document: Document, viewport: Viewport, table: StyleNodeTable, release: ((StyleNodeTable) -> Void)?) {
        self.document = document
        self.index = table.index
        self.viewport = viewport
        self.table = table
        self.release = release
    }

    deinit {
        release?(table)
    }

    // MARK: Values

    /// The computed value of `property` as CSS text (lowercased keywords as written, lengths
    /// unresolved): the cascaded value, or the parent's for inherited properties, or the initial
    /// value; CSS-wide keywords and `var()` resolved.
    public func value(_ property: CSSProperty, of element: Element) -> String {
        table.valueTexts[Int(valueIndex(property, of: element))]
    }

    /// `value(property, of: element).lowercased()`, lowercased once per distinct value of the
    /// table: rules compare keywords of every text element and its ancestors.
    public func lowercasedValue(_ property: CSSProperty, of element: Element) -> String {
        let index = Int(valueIndex(property, of: element))
        if let known = table.lowercasedTexts[index] { return known }
        let lowercased = table.valueTexts[index].lowercased()
        table.lowercasedTexts[index] = lowercased
        return lowercased
    }

    private func valueIndex(_ property: CSSProperty, of element: Element) -> Int32 {
        let slot = Int(property.rawValue)
        let node = Int(styleNode(of: element))
        if node < table.computedValues[slot].count, table.computedValues[slot][node] >= 0 { return table.computedValues[slot][node] }
        let index = intern(computeValue(property, of: element))
        table.computedValues[slot].grow(toHold: node, with: -1)
        table.computedValues[slot][node] = index
        return index
    }

    private func intern(_ text: String) -> Int32 {
        if let known = table.valueIndices[text] { return known }
        let index = Int32(table.valueTexts.count)
        table.valueTexts.append(text)
        table.lowercasedTexts.append(nil)
        table.valueIndices[text] = index
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
        if let known = table.backgroundAnswers.known(node) { return known ?? false }
        var answer = inlineStyle(of: element)?.declared.intersects(StyleRuleIndex.backgroundProperties) ?? false
        // Any element of the node stands for all of them.
        if !answer { answer = !matchedBlocks(of: element, buckets: index.backgroundRules).isEmpty }
        table.backgroundAnswers.store(answer, at: node)
        return answer
    }

    /// Whether any rule styles `pseudo` for this element at all.
    public func hasPseudoElementRules(_ pseudo: String, for element: Element) -> Bool {
        guard let buckets = index.pseudoElementRules[pseudo] else { return false }
        let node = Int(styleNode(of: element))
        if let known = table.pseudoElementAnswers[pseudo]?.known(node) { return known ?? false }
        let answer = !matchedBlocks(of: element, buckets: buckets).isEmpty
        table.pseudoElementAnswers[pseudo, default: NodeValues()].store(answer, at: node)
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
        if let known = table.inlineStyles[node] { return known }
        let parsed = Optional(DeclarationBlock(parsing: text)).flatMap { $0.isEmpty ? nil : $0 }
        table.inlineStyles[node] = parsed
        return parsed
    }

    /// Matched blocks of the element, highest priority first; each rule appears once for its
    /// normal and once for its important declarations.
    private func matched(_ element: Element, visibilityOnly requested: Bool) -> ArraySlice<MatchedBlock> {
        let visibilityOnly = requested && !matchesAllRulesAtOnce
        let node = Int(styleNode(of: element))
        if visibilityOnly, let known = table.visibilityMatches.run(at: node) { return known }
        if !visibilityOnly, let known = table.allMatches.run(at: node) { return known }
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
        return visibilityOnly ? table.visibilityMatches.store(result, at: node) : table.allMatches.store(result, at: node)
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
        // Most elements are candidates for none of the rules that read surroundings, which every
        // element is matched against: the page's ancestor filters are made only for one that is.
        guard !scratch.isEmpty else { return }
        var previous: Int32 = -1
        if scratch.count > 1 { scratch.sort() }
        let ancestors = ancestorFilters.filter(of: element)
        for ruleIndex in scratch where ruleIndex != previous {
            previous = ruleIndex
            guard ancestors.mayContain(index.ancestorRequirements[Int(ruleIndex)]), index.rules[Int(ruleIndex)].selector.matches(element)
            else { continue }
            result.append(ruleIndex)
        }
    }

    // MARK: Style nodes

    private var ruleScratch: [Int32] = []
    private var signatureScratch: [Int32] = []
    private var chainScratch: [Int] = []

    /// A number shared by elements whose computed values are all the same (their style node):
    /// callers may keep what they derive from computed values alone under it (`nodeFacts`
    /// keeps it for later pages too). Numbers count up from 0 in the cascade's table.
    public func styleNodeNumber(of element: Element) -> Int {
        Int(styleNode(of: element))
    }

    /// `styleNodeNumber(of:)` of the element at `position`, which is made only when its node is
    /// not known yet: for walks up by position (an `Element` retains the document).
    public func styleNodeNumber(atPosition position: Int) -> Int {
        if !nodeOfElement.isEmpty, nodeOfElement[position] >= 0 { return Int(nodeOfElement[position]) }
        return styleNodeNumber(of: document.element(atPosition: position))
    }

    /// The element's style node, made on first ask, with those of its ancestors.
    func styleNode(of element: Element) -> Int32 {
        if nodeOfElement.isEmpty { nodeOfElement = Array(repeating: -1, count: document.elementCount) }
        let known = nodeOfElement[element.position]
        if known >= 0 { return known }
        // Ancestors first, from the highest one without a node down, in a loop: pages nest deep.
        // Their positions go in a buffer kept across calls: an array for each element was a
        // tenth of finding the nodes of a page (callgrind).
        var chain: [Int] = []
        swap(&chain, &chainScratch)
        defer {
            chain.removeAll(keepingCapacity: true)
            swap(&chain, &chainScratch)
        }
        chain.append(element.position)
        var parentNode: Int32 = -1
        // By position: an `Element` for each ancestor retained and released the document.
        var current = element.parentPosition
        while let ancestor = current {
            let node = nodeOfElement[ancestor]
            if node >= 0 {
                parentNode = node
                break
            }
            chain.append(ancestor)
            current = document.parentPosition(ofPosition: ancestor)
        }
        for position in chain.reversed() {
            // The element asked about is passed as it is: made again, or chosen by a conditional
            // expression (a copy), it retained the document once more for every element.
            if position == element.position {
                parentNode = styleNode(for: element, parent: parentNode)
            } else {
                parentNode = styleNode(for: document.element(atPosition: position), parent: parentNode)
            }
            nodeOfElement[position] = parentNode
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
        let styleText = element.attribute(.style)
        var hasher = Hasher()
        // The name's key word rather than the name: hashed for every element of every page.
        hasher.combine(element.localNameKey)
        if let styleText { hasher.combine(styleText) }
        hasher.combine(signatureScratch)
        let key = StyleNodeTable.key(parent: parent, hash: hasher.finalize())
        let namespace = element.namespace
        var candidate = table.byKey[key] ?? -1
        while candidate >= 0 {
            let node = Int(candidate)
            if table.parents[node] == parent, table.signature(of: node).elementsEqual(signatureScratch), table.localNames[node] == localName,
               table.namespaces[node] == namespace, table.styleTexts[node] == styleText {
                return candidate
            }
            candidate = table.nextWithSameKey[node]
        }
        let node = Int32(table.count)
        table.localNames.append(localName)
        table.namespaces.append(namespace)
        table.styleTexts.append(styleText)
        let start = Int32(table.signatures.count)
        table.signatures.append(contentsOf: signatureScratch)
        table.signatureRuns.append(start..<Int32(table.signatures.count))
        table.parents.append(parent)
        table.nextWithSameKey.append(table.byKey[key] ?? -1)
        table.byKey.set(key, to: node)
        return node
    }

    /// What a caller keeps per style node, derived from computed values alone: made on the
    /// first ask, and shared with every page that shares this cascade's table. `Facts` must
    /// hold nothing of the page it was made on beyond what the node decides.
    public func nodeFacts<Facts: AnyObject>(_ make: () -> Facts) -> Facts {
        let key = ObjectIdentifier(Facts.self)
        if let known = table.callerFacts[key] { return unsafeDowncast(known, to: Facts.self) }
        let made = make()
        table.callerFacts[key] = made
        return made
    }

    // MARK: Custom properties and var()

    /// The element's value of custom property `name` (inherited), nil when it has none.
    public func customProperty(_ name: String, of element: Element) -> String? {
        let node = styleNode(of: element)
        if let known = table.customValues[node]?[name] { return known }
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
        table.customValues[node, default: [:]][name] = .some(value)
        // A value that refers to other variables is substituted here, in the element's context.
        if let raw = value, StyleSheetParser.containsVariable(raw) {
            table.customValues[node]![name] = .some(nil)  // a cycle through this name is invalid
            let substituted = VariableSubstitution.substitute(raw, depth: 0) { self.customProperty($0, of: element) }
            table.customValues[node]![name] = .some(substituted)
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
    /// Makes `index` valid, new slots holding `filler` (at least doubling, so a table grown a
    /// slot at a time is copied a few times, not once per slot). For tables kept per style node,
    /// here and by the rules that derive facts from computed values.
    public mutating func grow(toHold index: Int, with filler: Element) {
        if index >= count { append(contentsOf: repeatElement(filler, count: Swift.max(index + 1 - count, count))) }
    }
}
