/// What a set of selectors can tell apart in an element itself: which of the ids, classes and
/// attribute conditions they name it has, and whether it is `:checked` or a `:link`.
///
/// Two elements with the same name, namespace and signature whose parents match the same
/// selectors match the same selectors too, as long as no selector reads siblings, children or
/// position (`StyleSelector.readsSurroundings`): that is what lets the cascade match once for all
/// the links of a table, or all the sections of a page that differ only in an `id` no rule names.
public struct SelectorInputs: Sendable {
    private var idFeatures: [String: Int32] = [:]
    private var classFeatures: [String: Int32] = [:]
    /// Attribute conditions by the attribute name they read, as stored on the element.
    private var attributeFeatures: [String: [(condition: AttributeCondition, feature: Int32)]] = [:]
    private var checkedFeature: Int32 = -1
    private var linkFeature: Int32 = -1
    private var featureCount: Int32 = 0

    public init(_ selectors: some Sequence<StyleSelector>) {
        for selector in selectors { collect(selector.complex) }
    }

    /// Appends the element's features, ascending, to `signature`.
    public func signature(of element: Element, into signature: inout [Int32]) {
        let start = signature.count
        let document = element.document
        let node = element.node
        if !idFeatures.isEmpty, let id = document.storage.attributeValue(node: node, name: "id"), let feature = idFeatures[id] {
            signature.append(feature)
        }
        if !classFeatures.isEmpty {
            element.forEachClassName { name in
                if let feature = classFeatures[String(name)] { signature.append(feature) }
            }
        }
        if !attributeFeatures.isEmpty {
            let isHTML = document.storage.nodes[node].namespace == .html
            for index in document.storage.attributeRange(node: node) {
                let name = document.storage.attributeNames[index]
                guard let conditions = attributeFeatures[name] else { continue }
                var value: String?
                for (condition, feature) in conditions where (isHTML ? condition.name.lowercased : condition.name.asWritten) == name {
                    // `[name]` holds without a look at the value; the value is read once for the others.
                    if condition.operation != nil, value == nil { value = document.storage.attributeValue(at: index) }
                    if condition.operation == nil || SelectorMatcher.attributeValue(value!, matches: condition, onHTMLElement: isHTML) {
                        signature.append(feature)
                    }
                }
            }
        }
        if checkedFeature >= 0, element.isCheckedForSelectors { signature.append(checkedFeature) }
        if linkFeature >= 0, element.isLinkForSelectors { signature.append(linkFeature) }
        if signature.count - start > 1 { signature[start...].sort() }
    }

    private mutating func nextFeature() -> Int32 {
        defer { featureCount += 1 }
        return featureCount
    }

    private mutating func collect(_ complex: ComplexSelector) {
        for compound in complex.compounds {
            for condition in compound.conditions {
                switch condition {
                case .id(let id):
                    if idFeatures[id] == nil { idFeatures[id] = nextFeature() }
                case .className(let name):
                    if classFeatures[name] == nil { classFeatures[name] = nextFeature() }
                case .attribute(let attribute):
                    // Stored names are lowercase on HTML elements and as written on others.
                    let feature = nextFeature()
                    for name in Set([attribute.name.lowercased, attribute.name.asWritten]) {
                        attributeFeatures[name, default: []].append((attribute, feature))
                    }
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
