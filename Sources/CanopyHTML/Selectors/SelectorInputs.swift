/// What a set of selectors can tell apart in an element itself: which of the ids, classes and
/// attribute conditions they name it has, and whether it is `:checked` or a `:link`.
///
/// Two elements with the same name, namespace and signature whose parents match the same
/// selectors match the same selectors too, as long as no selector reads siblings, children or
/// position (`StyleSelector.readsSurroundings`): that is what lets the cascade match once for all
/// the links of a table, or all the sections of a page that differ only in an `id` no rule names.
public final class SelectorInputs: Sendable {
    // A class: the cascade asks it about every element of every page, and a struct of tables
    // read through the rule index was copied (each table retained and released) on every ask.
    // Every table is looked up with the element's bytes: string keys cost a string and a SipHash
    // per id, class and attribute name.
    private let idTable: ByteStringTable
    private let classTable: ByteStringTable
    /// Attribute name as stored on the element → the conditions that read it on HTML elements
    /// (by lowercase name) and on others (by name as written), as indices into `conditionTests`.
    private let attributeTable: ByteStringTable
    private let htmlConditionLists: [[Int32]]
    private let foreignConditionLists: [[Int32]]
    private let conditionTests: [AttributeValueTest]
    private let conditionFeatures: [Int32]
    private let checkedFeature: Int32
    private let linkFeature: Int32
    /// The name keys (`NameKey`) of the attribute names in `attributeTable`: most attributes an
    /// element carries are named by no condition, which comparing keys tells without hashing.
    private let attributeNameKeys: [UInt64]

    public init(_ selectors: some Sequence<StyleSelector>) {
        var collected = Collector()
        for selector in selectors { collected.collect(selector.complex) }
        idTable = ByteStringTable(collected.ids.map { (key: $0.key, value: $0.value) })
        classTable = ByteStringTable(collected.classes.map { (key: $0.key, value: $0.value) })
        conditionTests = collected.conditions.map(\.condition.test)
        conditionFeatures = collected.conditions.map(\.feature)
        let names = Set(collected.conditions.flatMap { [$0.condition.name.lowercased, $0.condition.name.asWritten] }).sorted()
        htmlConditionLists = names.map { name in
            collected.conditions.indices.filter { collected.conditions[$0].condition.name.lowercased == name }.map { Int32($0) }
        }
        foreignConditionLists = names.map { name in
            collected.conditions.indices.filter { collected.conditions[$0].condition.name.asWritten == name }.map { Int32($0) }
        }
        attributeTable = ByteStringTable(names.enumerated().map { (key: $0.element, value: Int32($0.offset)) })
        attributeNameKeys = names.map(NameKey.of)
        checkedFeature = collected.checkedFeature
        linkFeature = collected.linkFeature
    }

    /// Appends the element's features, ascending, to `signature`.
    ///
    /// One pass over the element's attributes, names compared by their keys: the cascade asks
    /// this of every element of every page, and looking up `id`, then `class`, then hashing every
    /// attribute's name was 2,100 instructions an element.
    public func signature(of element: Element, into signature: inout [Int32]) {
        let start = signature.count
        let storage = element.document.storage
        let node = element.node
        let isHTML = storage.nodes[node].namespace == .html
        var seenID = false, seenClass = false, hasHref = false
        for index in storage.attributeRange(node: node) {
            let key = storage.attributeNameKeys[index]
            // Keys of names of up to seven bytes are the names: `id` and `class` need no more.
            if key == AttributeName.id.key {
                // The first `id`, as `attribute("id")` reads it.
                if !seenID, !idTable.isEmpty, let feature = idTable.value(forUTF8: storage.attributeBytes(at: index)) {
                    signature.append(feature)
                }
                seenID = true
            } else if key == AttributeName.class.key {
                if !seenClass, !classTable.isEmpty {
                    SelectorMatcher.forEachWord(in: storage.attributeBytes(at: index)) { name in
                        if let feature = classTable.value(forUTF8: name) { signature.append(feature) }
                        return true
                    }
                }
                seenClass = true
            } else if key == AttributeName.href.key {
                hasHref = true
            }
            guard attributeNameKeys.contains(key), let list = attributeTable.value(for: storage.attributeNames[index]) else { continue }
            for condition in isHTML ? htmlConditionLists[Int(list)] : foreignConditionLists[Int(list)] {
                // `[name]` holds without a look at the value.
                let test = conditionTests[Int(condition)]
                if test.operation == nil || SelectorMatcher.attributeBytes(storage.attributeBytes(at: index), match: test, onHTMLElement: isHTML) {
                    signature.append(conditionFeatures[Int(condition)])
                }
            }
        }
        if checkedFeature >= 0, element.isCheckedForSelectors { signature.append(checkedFeature) }
        if linkFeature >= 0, element.isLinkForSelectors(hasHref: hasHref) { signature.append(linkFeature) }
        if signature.count - start > 1 {
            // In place, by insertion: an element has a handful of features, and sorting the slice
            // copied it out and back for every element of every page.
            signature.withUnsafeMutableBufferPointer { features in
                for index in (start + 1)..<features.count {
                    let feature = features[index]
                    var slot = index
                    while slot > start, features[slot - 1] > feature {
                        features[slot] = features[slot - 1]
                        slot -= 1
                    }
                    features[slot] = feature
                }
            }
        }
    }

    /// The features the selectors name, numbered in the order first met.
    private struct Collector {
        var ids: [String: Int32] = [:]
        var classes: [String: Int32] = [:]
        var conditions: [(condition: AttributeCondition, feature: Int32)] = []
        var checkedFeature: Int32 = -1
        var linkFeature: Int32 = -1
        private var featureCount: Int32 = 0

        private mutating func nextFeature() -> Int32 {
            defer { featureCount += 1 }
            return featureCount
        }

        mutating func collect(_ complex: ComplexSelector) {
            for compound in complex.compounds {
                for condition in compound.conditions {
                    switch condition {
                    case .id(let id):
                        if ids[id] == nil { ids[id] = nextFeature() }
                    case .className(let name):
                        if classes[name] == nil { classes[name] = nextFeature() }
                    case .attribute(let attribute):
                        conditions.append((attribute, nextFeature()))
                    case .pseudoClass(let pseudo):
                        switch pseudo {
                        case .not(let list), .isAny(let list), .whereAny(let list), .nthChild(_, let list?), .nthLastChild(_, let list?):
                            for inner in list { collect(inner) }
                        case .has(let relatives):
                            for relative in relatives { collect(relative.complex) }
                        case .checked:
                            if checkedFeature < 0 { checkedFeature = nextFeature() }
                        case .link:
                            if linkFeature < 0 { linkFeature = nextFeature() }
                        default: break
                        }
                    }
                }
            }
        }
    }
}

extension StyleSelector {
    /// Whether matching reads more than the element's own inputs and its ancestors' (siblings,
    /// children, position among siblings, the first legend of a fieldset): such a rule is matched
    /// on each element alone.
    static func readsSurroundings(_ complex: ComplexSelector) -> Bool {
        if complex.combinators.contains(where: { $0 == .nextSibling || $0 == .subsequentSibling }) { return true }
        for compound in complex.compounds {
            for case .pseudoClass(let pseudo) in compound.conditions {
                switch pseudo {
                case .not(let list), .isAny(let list), .whereAny(let list):
                    if list.contains(where: readsSurroundings) { return true }
                case .never, .root, .checked, .link:
                    continue
                case .has, .firstChild, .lastChild, .onlyChild, .firstOfType, .lastOfType, .onlyOfType, .nthChild, .nthLastChild,
                     .nthOfType, .nthLastOfType, .empty, .disabled, .enabled:
                    return true
                }
            }
        }
        return false
    }
}
