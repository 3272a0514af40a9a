/// A document's elements by local name and by attribute name, so that a selector whose subjects
/// all name an element type or an attribute (`img`, `a[href]`, `[role="button"]`, `[lang]`) is
/// tested only against elements that have it, instead of every element of the page.
///
/// Elements by name come from the document's own index. Each attribute's list is made the first
/// time a selector asks for it, by one pass that compares names: an audit asks for a few dozen,
/// and comparing short strings is far cheaper than hashing every attribute into a table up front.
///
/// Built once per audit and used for every rule; not thread-safe, so one per audit.
public final class ElementNameIndex {
    public let document: Document
    private var positionsByAttribute: [String: [Int32]] = [:]

    public init(document: Document) {
        self.document = document
    }

    /// The same elements, in the same order, as `document.querySelectorAll(selector)`.
    public func querySelectorAll(_ selector: SelectorList) -> [Element] {
        let positions: [Int32]
        switch selector.candidates {
        case .everyElement:
            return Array(document.elements)
        case .scan:
            return document.querySelectorAll(selector)
        case .keyed(let keys, let everyCandidateMatches):
            positions = candidatePositions(keys)
            if everyCandidateMatches { return positions.map { document.element(atPosition: Int($0)) } }
        }
        var result: [Element] = []
        for position in positions {
            let element = document.element(atPosition: Int(position))
            if selector.matches(element) { result.append(element) }
        }
        return result
    }

    private func candidatePositions(_ keys: [SubjectKey]) -> [Int32] {
        if keys.count == 1 { return positions(for: keys[0]) }
        var merged: [Int32] = []
        for key in keys { merged += positions(for: key) }
        merged.sort()
        var unique: [Int32] = []
        unique.reserveCapacity(merged.count)
        for position in merged where unique.last != position { unique.append(position) }
        return unique
    }

    private func positions(for key: SubjectKey) -> [Int32] {
        switch key {
        case .localName(let name):
            return document.elementPositions(named: name)
        case .attribute(let name):
            if let known = positionsByAttribute[name] { return known }
            let found = document.elementPositions(withAttribute: name)
            positionsByAttribute[name] = found
            return found
        }
    }
}

/// Something every element matching a selector's subject has.
enum SubjectKey: Hashable, Sendable {
    case localName(String)
    case attribute(String)
}

/// How to find the elements a selector list can match, decided once when it is parsed: rule
/// selectors are parsed once and queried on every page.
enum CandidateStrategy: Hashable, Sendable {
    /// Some alternative is a bare `*`: every element matches, no test needed.
    case everyElement
    /// Every alternative requires one of these names or attributes on its subject. When every
    /// alternative is a bare lowercase type selector (`li`, `ul, ol`, `table`), the elements with
    /// those names are exactly the matches and need no test.
    case keyed([SubjectKey], everyCandidateMatches: Bool)
    /// Some alternative can match an element with neither (e.g. `:is(...)` alone): test them all.
    case scan

    init(_ selectors: [ComplexSelector]) {
        var keys: [SubjectKey] = []
        var needsScan = false
        var everyCandidateMatches = true
        for selector in selectors {
            // A lowercase name is matched as written by HTML and foreign elements alike.
            let isBareType = selector.compounds.count == 1 && selector.compounds[0].conditions.isEmpty
                && !selector.compounds[0].isRelativeAnchor
                && selector.compounds[0].typeName.map { $0.asWritten == $0.lowercased } == true
            if !isBareType { everyCandidateMatches = false }
            guard let subject = selector.compounds.first else { needsScan = true; continue }
            if selector.compounds.count == 1, subject.typeName == nil, subject.conditions.isEmpty, !subject.isRelativeAnchor {
                self = .everyElement
                return
            }
            // HTML names are stored lowercase and foreign ones as written: either may be the one.
            if let typeName = subject.typeName {
                keys += [.localName(typeName.lowercased), .localName(typeName.asWritten)]
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
            guard let required else { needsScan = true; continue }
            keys += required
        }
        if needsScan {
            self = .scan
        } else {
            var seen: Set<SubjectKey> = []
            self = .keyed(keys.filter { seen.insert($0).inserted }, everyCandidateMatches: everyCandidateMatches)
        }
    }
}
