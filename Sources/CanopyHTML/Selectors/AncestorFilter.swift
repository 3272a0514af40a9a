/// A Bloom filter of the element names, ids and classes of an element's ancestors, as browsers
/// keep while they match style rules: a rule like `.sidebar nav a` needs an ancestor of class
/// `sidebar`, and most elements have none, which one bitwise test tells without walking up the
/// tree. A filter can say "maybe" wrongly, never "no": a miss always means the rule cannot match.
///
/// Names are hashed ASCII-lowercased on both sides, so quirks-mode pages, where classes and ids
/// match regardless of case, are filtered soundly too.
public struct AncestorFilter: Sendable, Hashable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    public init() {}

    /// Whether every feature of `required` may be present.
    @inline(__always)
    public func mayContain(_ required: AncestorFilter) -> Bool {
        required.low & ~low == 0 && required.high & ~high == 0
    }

    mutating func formUnion(_ other: AncestorFilter) {
        low |= other.low
        high |= other.high
    }

    var isEmpty: Bool { low == 0 && high == 0 }

    enum Kind: UInt8 { case name = 1, id = 2, className = 3 }

    /// Adds a feature; two bits, one per half, from one hash of its lowercased bytes.
    mutating func insert<Bytes: Sequence<UInt8>>(_ kind: Kind, _ bytes: Bytes) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(kind.rawValue)
        for byte in bytes {
            hash = (hash ^ UInt64(byte.asciiLowercased)) &* 0x0000_0100_0000_01B3
        }
        low |= 1 << (hash & 63)
        high |= 1 << ((hash >> 32) & 63)
    }

    /// The features an element shows to its descendants: its name, id and each class.
    static func features(of element: Element) -> AncestorFilter {
        var filter = AncestorFilter()
        filter.insert(.name, element.localName.utf8)
        if let id = element.attribute("id"), !id.isEmpty { filter.insert(.id, id.utf8) }
        element.forEachClassName { filter.insert(.className, $0.utf8) }
        return filter
    }

    /// Each element's filter of its ancestors, by document position, in one pass.
    public static func filters(for document: Document) -> [AncestorFilter] {
        var filters = [AncestorFilter](repeating: AncestorFilter(), count: document.elementCount)
        var own = [AncestorFilter?](repeating: nil, count: document.elementCount)
        for element in document.elements {
            guard let parent = element.parent else { continue }
            let parentPosition = parent.position
            if own[parentPosition] == nil { own[parentPosition] = features(of: parent) }
            var filter = filters[parentPosition]
            filter.formUnion(own[parentPosition]!)
            filters[element.position] = filter
        }
        return filters
    }

    /// Each element's filter of its ancestors made when first asked, from its parent's: the
    /// cascade asks for the elements that are candidates of a rule reading surroundings, a few in
    /// a hundred, and filtering every element of every page up front cost more than they did.
    /// Not thread-safe: one per cascade.
    public final class OnDemand {
        private let document: Document
        /// By position: the filter of an element's ancestors and the element itself, which is what
        /// its children are filtered with; all zero until made (a made one holds at least the
        /// element's name). One table of 16 bytes an element: with a table of made flags and one
        /// of each parent's own features beside it, this took 41, 4.4 MB on javadoc's largest page.
        private var inclusive: [AncestorFilter] = []

        public init(document: Document) {
            self.document = document
        }

        /// The filter of `element`'s ancestors, as `filters(for:)` gives it.
        public func filter(of element: Element) -> AncestorFilter {
            guard let parent = element.parent else { return AncestorFilter() }
            if inclusive.isEmpty { inclusive = Array(repeating: AncestorFilter(), count: document.elementCount) }
            let known = inclusive[parent.position]
            if !known.isEmpty { return known }
            // Up to the first ancestor made (or the root), then down, without recursion: pages nest deep.
            var chain = [parent]
            var current = parent
            while let above = current.parent, inclusive[above.position].isEmpty {
                chain.append(above)
                current = above
            }
            for member in chain.reversed() {
                var filter = member.parent.map { inclusive[$0.position] } ?? AncestorFilter()
                filter.formUnion(features(of: member))
                inclusive[member.position] = filter
            }
            return inclusive[parent.position]
        }
    }

    /// What a selector needs of the subject's ancestors: the names, ids and classes of the
    /// compounds joined to the subject by descendant and child combinators (up to the first
    /// sibling combinator, past which compounds are not ancestors of the subject).
    static func requirements(of complex: ComplexSelector) -> AncestorFilter {
        var filter = AncestorFilter()
        for (index, combinator) in complex.combinators.enumerated() {
            guard combinator == .descendant || combinator == .child else { break }
            let compound = complex.compounds[index + 1]
            if compound.isRelativeAnchor { break }
            if let type = compound.typeName { filter.insert(.name, type.lowercased.utf8) }
            for condition in compound.conditions {
                switch condition {
                case .id(let id): filter.insert(.id, id.utf8)
                case .className(let name): filter.insert(.className, name.utf8)
                default: continue
                }
            }
        }
        return filter
    }
}
