/// A document's elements grouped by local name and by attribute name, so that a selector whose
/// subjects all name an element type or an attribute (`img`, `a[href]`, `[role="button"]`,
/// `[lang]`) is tested only against elements that have it, instead of every element of the page.
///
/// Built once per audit and used for every rule; not thread-safe, so one per audit.
public final class ElementNameIndex {
    public let document: Document
    private lazy var positionsByName: [String: [Int32]] = {
        var positions: [String: [Int32]] = [:]
        for element in document.elements { positions[element.localName, default: []].append(Int32(element.position)) }
        return positions
    }()
    private lazy var positionsByAttribute: [String: [Int32]] = {
        var positions: [String: [Int32]] = [:]
        for element in document.elements {
            for name in element.attributeNames { positions[name, default: []].append(Int32(element.position)) }
        }
        return positions
    }()

    public init(document: Document) {
        self.document = document
    }

    /// The same elements, in the same order, as `document.querySelectorAll(selector)`.
    public func querySelectorAll(_ selector: SelectorList) -> [Element] {
        guard let keys = selector.subjectKeys else { return document.querySelectorAll(selector) }
        var positions: [Int32] = []
        for key in keys {
            switch key {
            case .localName(let name): positions += positionsByName[name] ?? []
            case .attribute(let name): positions += positionsByAttribute[name] ?? []
            }
        }
        if keys.count > 1 {
            positions.sort()
            positions = positions.enumerated().filter { $0.offset == 0 || positions[$0.offset - 1] != $0.element }.map(\.element)
        }
        var result: [Element] = []
        for position in positions {
            let element = document.element(atPosition: Int(position))
            if selector.matches(element) { result.append(element) }
        }
        return result
    }
}

/// Something every element matching a selector's subject has.
enum SubjectKey: Hashable {
    case localName(String)
    case attribute(String)
}

extension SelectorList {
    /// For each selector of the list, a name or attribute its subject requires; nil when some
    /// alternative can match an element with neither (e.g. `*`, `:is(...)`), which needs a full scan.
    var subjectKeys: Set<SubjectKey>? {
        var keys: Set<SubjectKey> = []
        for selector in selectors {
            guard let subject = selector.compounds.first else { return nil }
            // HTML names are stored lowercase and foreign ones as written: either may be the one.
            if let typeName = subject.typeName {
                keys.insert(.localName(typeName.lowercased))
                keys.insert(.localName(typeName.asWritten))
                continue
            }
            let required = subject.conditions.lazy.compactMap { condition -> [SubjectKey]? in
                switch condition {
                case .attribute(let attribute):
                    return [.attribute(attribute.name.lowercased), .attribute(attribute.name.asWritten)]
                case .id: return [.attribute("id")]
                case .className: return [.attribute("class")]
                case .pseudoClass: return nil
                }
            }.first
            guard let required else { return nil }
            keys.formUnion(required)
        }
        return keys
    }
}
