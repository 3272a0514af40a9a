import CanopyHTML

/// Every style rule that applies to a page on the viewport, flattened out of its sheets,
/// conditions, layers and imports, with the cascade priority of each already decided, and filed
/// by the subject of its selector so that an element is tested only against rules that can match.
///
/// Built once per distinct set of sheets (most pages of a site share theirs) and shared by all
/// pages that use it; immutable, so workers read it without locks.
public final class StyleRuleIndex: Sendable {
    struct IndexedRule: Sendable {
        let selector: StyleSelector
        let block: Int32
        /// Cascade priority of the block's normal and important declarations (higher wins).
        let normalKey: UInt64
        let importantKey: UInt64
    }

    let rules: [IndexedRule]
    let blocks: [DeclarationBlock]
    /// What each block declares, and whether it has `!important` declarations, beside the
    /// blocks: asking a block struct copies (and retains) its arrays, and most matched blocks
    /// only need to say "not this property".
    let blockDeclared: [PropertySet]
    let blockHasImportant: [Bool]
    /// Rules by subject, for all properties and for the ones the visibility pass reads.
    let allRules: RuleBuckets
    let visibilityRules: RuleBuckets
    /// Rules that set a background, to find the boxes that paint without matching every rule.
    let backgroundRules: RuleBuckets
    /// Rules that style a pseudo-element, by pseudo-element name.
    let pseudoElementRules: [String: RuleBuckets]
    /// Rules (of elements and pseudo-elements) whose selectors read siblings, children or
    /// position: matched on every element, because elements cannot share what they match.
    let surroundingRules: RuleBuckets
    /// What the other rules' selectors read of an element itself (see `ComputedStyles`).
    let selectorInputs: SelectorInputs
    /// Each rule's `ancestorRequirements`, beside the rules: reading a rule struct copies (and
    /// retains) its selector.
    let ancestorRequirements: [AncestorFilter]
    /// Pseudo-elements (`before`, `after`...) some rule gives a background: only these can paint
    /// behind the text of the element they belong to.
    public let pseudoElementsWithBackgrounds: Set<String>
    /// Sheets that could not be loaded.
    public let failures: [StyleSheetFailure]
    /// Rules dropped by the parser (bad syntax, selectors Canopy cannot match), over all sheets.
    public let droppedRules: Int
    /// Rules under conditions no static view can decide (`@container`): not applied.
    public let undecidableRules: Int
    /// What those rules declare: a rule reading one of these properties cannot be sure of its
    /// value, and says so rather than trust the cascade without them.
    public let undecidableDeclared: PropertySet
    /// Properties some author rule declares: a property no rule declares is computed without
    /// matching a single selector.
    public let authorDeclared: PropertySet
    /// Every linked and imported sheet the loader was asked for, in order, each once: what the
    /// page's styles depend on besides the page itself (an incremental crawl re-audits a page
    /// when one of them changes).
    public let loadedSheetURLs: [String]
    /// Whether the page has author styles at all.
    public var isEmpty: Bool { rules.count == userAgentRuleCount }
    /// Style rules directly inside a top-level `@media` whose condition names the orientation,
    /// that rotate what they style, whatever the viewport: what css-orientation-lock reads.
    public let orientationRules: [OrientationRule]
    let userAgentRuleCount: Int

    public static let visibilityProperties = PropertySet([.display, .visibility, .contentVisibility])
    static let backgroundProperties = PropertySet([.backgroundColor, .backgroundImage])

    /// Flattens `references` (the page's sheets in order) for `viewport`; `loader` fetches linked
    /// and imported sheets (nil: they count as failed).
    public init(references: [StyleSheetReference], pageURL: String?, viewport: Viewport, loader: (any StyleSheetLoading)?) {
        var builder = Builder(viewport: viewport, loader: loader)
        builder.addUserAgentRules()
        for reference in references {
            let media = reference.media.map(MediaQueryList.init)
            guard media?.matches(viewport) ?? true else { continue }
            switch reference.source {
            case .embedded(let text):
                builder.add(ParsedStyleSheet(parsing: text), layer: nil, base: pageURL, importChain: [])
            case .linked(let href):
                builder.addLinked(href, base: pageURL, layer: nil, importChain: [])
            }
        }
        let ranks = builder.layers.ranks()
        var rules: [IndexedRule] = []
        rules.reserveCapacity(builder.pending.count)
        var authorDeclared = PropertySet()
        for (order, pending) in builder.pending.enumerated() {
            let rank = pending.isUserAgent ? 0 : ranks[pending.layer] + 1
            let specificity = UInt64(pending.selector.specificity.packed)
            let orderBits = UInt64(min(order, (1 << 22) - 1))
            let normal = UInt64(rank) << 52 | specificity << 22 | orderBits
            let important = 1 << 63 | UInt64(2046 - rank) << 52 | specificity << 22 | orderBits
            rules.append(IndexedRule(selector: pending.selector, block: pending.block, normalKey: normal, importantKey: important))
            if !pending.isUserAgent { authorDeclared.formUnion(builder.blocks[Int(pending.block)].declared) }
        }
        self.rules = rules
        self.blocks = builder.blocks
        self.blockDeclared = builder.blocks.map(\.declared)
        self.blockHasImportant = builder.blocks.map(\.hasImportant)
        self.failures = builder.failures
        self.droppedRules = builder.dropped
        self.undecidableRules = builder.undecidable
        self.undecidableDeclared = builder.undecidableDeclared
        self.authorDeclared = authorDeclared
        self.userAgentRuleCount = builder.userAgentRuleCount
        self.orientationRules = builder.orientationRules
        self.loadedSheetURLs = builder.loadedSheetURLs
        let blocks = builder.blocks
        allRules = RuleBuckets(rules, where: { $0.selector.pseudoElement == nil })
        visibilityRules = RuleBuckets(rules, where: {
            $0.selector.pseudoElement == nil && blocks[Int($0.block)].declared.intersects(Self.visibilityProperties)
        })
        backgroundRules = RuleBuckets(rules, where: {
            $0.selector.pseudoElement == nil && blocks[Int($0.block)].declared.intersects(Self.backgroundProperties)
        })
        var pseudo: [String: RuleBuckets] = [:]
        for name in Set(rules.compactMap(\.selector.pseudoElement)) {
            pseudo[name] = RuleBuckets(rules, where: { $0.selector.pseudoElement == name })
        }
        pseudoElementRules = pseudo
        surroundingRules = RuleBuckets(rules, where: \.selector.readsSurroundings)
        selectorInputs = SelectorInputs(rules.lazy.filter { !$0.selector.readsSurroundings }.map(\.selector))
        ancestorRequirements = rules.map(\.selector.ancestorRequirements)
        pseudoElementsWithBackgrounds = Set(rules.compactMap { rule in
            rule.selector.pseudoElement.flatMap { blocks[Int(rule.block)].declared.intersects(Self.backgroundProperties) ? $0 : nil }
        })
    }

    /// Inline styles beat every rule of their importance.
    static let inlineNormalKey: UInt64 = 2047 << 52
    static let inlineImportantKey: UInt64 = 1 << 63 | 2047 << 52

    private struct PendingRule {
        let selector: StyleSelector
        let block: Int32
        let layer: Int
        let isUserAgent: Bool
    }

    private struct Builder {
        let viewport: Viewport
        let loader: (any StyleSheetLoading)?
        var pending: [PendingRule] = []
        var blocks: [DeclarationBlock] = []
        var failures: [StyleSheetFailure] = []
        var dropped = 0
        var undecidable = 0
        var undecidableDeclared = PropertySet()
        var layers = LayerTree()
        var userAgentRuleCount = 0
        var orientationRules: [OrientationRule] = []
        var loadedSheetURLs: [String] = []
        private var addingUserAgent = false
        /// Imports deeper than this are not followed: real sites use two or three levels.
        static let maximumImportDepth = 8

        init(viewport: Viewport, loader: (any StyleSheetLoading)?) {
            self.viewport = viewport
            self.loader = loader
        }

        mutating func addUserAgentRules() {
            addingUserAgent = true
            add(UserAgentStyles.sheet, layer: nil, base: nil, importChain: [])
            addingUserAgent = false
            userAgentRuleCount = pending.count
        }

        mutating func addLinked(_ href: String, base: String?, layer: Int?, importChain: [String]) {
            guard let loader else {
                failures.append(StyleSheetFailure(url: href, reason: "linked stylesheets are not loaded here"))
                return
            }
            let load = loader.load(href, relativeTo: base)
            let requested = loader.resolve(href, relativeTo: base)
            if !loadedSheetURLs.contains(requested) { loadedSheetURLs.append(requested) }
            switch load {
            case .failed(let url, let reason):
                failures.append(StyleSheetFailure(url: url, reason: reason))
            case .loaded(let url, let sheet, _):
                guard !importChain.contains(url) else { return }  // an import cycle: the sheet is already applied
                guard importChain.count < Self.maximumImportDepth else {
                    failures.append(StyleSheetFailure(url: url, reason: "imports nest deeper than \(Self.maximumImportDepth) levels"))
                    return
                }
                add(sheet, layer: layer, base: url, importChain: importChain + [url])
            }
        }

        mutating func add(_ sheet: ParsedStyleSheet, layer: Int?, base: String?, importChain: [String]) {
            dropped += sheet.droppedRules
            walk(sheet.items, layer: layer ?? LayerTree.unlayered, base: base, importChain: importChain)
            if !addingUserAgent { collectOrientationRules(sheet.items) }
        }

        /// Rotations declared under a top-level orientation query, applied or not on this
        /// viewport: the lock is in the sheet, whichever way the device is held.
        private mutating func collectOrientationRules(_ items: [SheetItem]) {
            for case .conditional(.media(let media), let inner) in items where media.text.lowercased().contains("orientation") {
                for case .style(let rule) in inner {
                    let transform = rule.declarations.declarations.last { $0.property == .transform }?.value
                    let rotate = rule.declarations.declarations.last { $0.property == .rotate }?.value
                    guard transform != nil || rotate != nil else { continue }
                    orientationRules.append(
                        OrientationRule(media: media.text, selectors: rule.selectors, transform: transform, rotate: rotate)
                    )
                }
            }
        }

        private mutating func walk(_ items: [SheetItem], layer: Int, base: String?, importChain: [String]) {
            for item in items {
                switch item {
                case .style(let rule):
                    let blockIndex = Int32(blocks.count)
                    blocks.append(rule.declarations)
                    for selector in rule.selectors {
                        pending.append(PendingRule(selector: selector, block: blockIndex, layer: layer, isUserAgent: addingUserAgent))
                    }
                case .conditional(let condition, let inner):
                    switch condition {
                    case .media(let media):
                        if media.matches(viewport) { walk(inner, layer: layer, base: base, importChain: importChain) }
                    case .supports(let supports):
                        if supports.holds { walk(inner, layer: layer, base: base, importChain: importChain) }
                    case .undecidable:
                        undecidable += Self.ruleCount(inner)
                        Self.collectDeclared(inner, into: &undecidableDeclared)
                    }
                case .layerBlock(let name, let inner):
                    let child = layers.child(of: layer, named: name)
                    walk(inner, layer: child, base: base, importChain: importChain)
                case .layerStatement(let names):
                    for name in names { _ = layers.child(of: layer, named: name) }
                case .importRule(let rule):
                    guard rule.media?.matches(viewport) ?? true, rule.supports?.holds ?? true else { continue }
                    let importLayer = rule.layer.map { layers.child(of: layer, named: $0.isEmpty ? nil : $0) } ?? layer
                    addLinked(rule.url, base: base, layer: importLayer, importChain: importChain)
                }
            }
        }

        private static func collectDeclared(_ items: [SheetItem], into declared: inout PropertySet) {
            for item in items {
                switch item {
                case .style(let rule): declared.formUnion(rule.declarations.declared)
                case .conditional(_, let inner), .layerBlock(_, let inner): collectDeclared(inner, into: &declared)
                default: break
                }
            }
        }

        private static func ruleCount(_ items: [SheetItem]) -> Int {
            items.reduce(0) { count, item in
                switch item {
                case .style: return count + 1
                case .conditional(_, let inner), .layerBlock(_, let inner): return count + ruleCount(inner)
                default: return count
                }
            }
        }
    }
}

/// A rule under an orientation media query that turns what it styles (`transform`, `rotate`).
public struct OrientationRule: Sendable {
    /// The media query, as written.
    public let media: String
    public let selectors: [StyleSelector]
    public let transform: String?
    public let rotate: String?
}

/// Cascade layers in the order they were first named. A layer's own rules come after (win over)
/// the rules of its sublayers, and unlayered rules win over every layer.
struct LayerTree {
    static let unlayered = 0
    private var names: [[String: Int]] = [[:]]
    private var childOrder: [[Int]] = [[]]

    /// The layer `name` (a dotted path) under `parent`, registered on first use; a new anonymous
    /// layer when `name` is nil.
    mutating func child(of parent: Int, named name: LayerName?) -> Int {
        guard let name else { return newNode(under: parent, key: nil) }
        var node = parent
        for part in name { node = names[node][part] ?? newNode(under: node, key: part) }
        return node
    }

    private mutating func newNode(under parent: Int, key: String?) -> Int {
        let node = names.count
        names.append([:])
        childOrder.append([])
        if let key { names[parent][key] = node }
        childOrder[parent].append(node)
        return node
    }

    /// Rank of each node (higher wins for normal declarations): children in order, then the parent.
    func ranks() -> [Int] {
        var ranks = [Int](repeating: 0, count: names.count)
        var next = 0
        func visit(_ node: Int) {
            for child in childOrder[node] { visit(child) }
            ranks[node] = next
            next += 1
        }
        visit(Self.unlayered)
        // Leave room below 2046 for the user-agent origin (rank 0 after the shift by one).
        return ranks.map { min($0, 2044) }
    }
}

/// Rule indices filed by the most selective part of their subject.
/// A class, not a struct: read through the rule index for every element, a struct of tables was
/// copied (each retained and released) on every read.
final class RuleBuckets: Sendable {
    let everyElement: [Int32]
    let isEmpty: Bool
    /// Rules by the id, class or element name their subject names, looked up with the element's
    /// bytes (asked for every element of every page): a key's rules are
    /// `lists[table.value(forUTF8: key)]`.
    private let idTable: ByteStringTable
    private let classTable: ByteStringTable
    private let nameTable: ByteStringTable
    private let lists: [[Int32]]

    init(_ rules: [StyleRuleIndex.IndexedRule], where include: (StyleRuleIndex.IndexedRule) -> Bool) {
        var count = 0
        var everyElement: [Int32] = []
        var byID: [String: [Int32]] = [:], byClass: [String: [Int32]] = [:], byName: [String: [Int32]] = [:]
        for (index, rule) in rules.enumerated() where include(rule) {
            count += 1
            let position = Int32(index)
            switch rule.selector.bucket {
            case .id(let id): byID[id, default: []].append(position)
            case .className(let name): byClass[name, default: []].append(position)
            case .localName(let name): byName[name, default: []].append(position)
            case .everyElement: everyElement.append(position)
            }
        }
        isEmpty = count == 0
        self.everyElement = everyElement
        var lists: [[Int32]] = []
        func table(_ buckets: [String: [Int32]]) -> ByteStringTable {
            ByteStringTable(buckets.map { key, rules in
                lists.append(rules)
                return (key: key, value: Int32(lists.count - 1))
            })
        }
        idTable = table(byID)
        classTable = table(byClass)
        nameTable = table(byName)
        self.lists = lists
    }

    /// Rules that may match `element`, in no particular order.
    func candidates(for element: Element, into result: inout [Int32]) {
        result.append(contentsOf: everyElement)
        if !nameTable.isEmpty, let list = nameTable.value(for: element.localName) { result.append(contentsOf: lists[Int(list)]) }
        if !idTable.isEmpty, let id = element.attributeBytes(.id), let list = idTable.value(forUTF8: id) {
            result.append(contentsOf: lists[Int(list)])
        }
        if !classTable.isEmpty {
            element.forEachClassNameBytes { name in
                if let list = classTable.value(forUTF8: name) { result.append(contentsOf: lists[Int(list)]) }
            }
        }
    }
}
