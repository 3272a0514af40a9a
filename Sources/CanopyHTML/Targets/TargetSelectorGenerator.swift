/// Builds, for a finding, a CSS selector that matches exactly that element in its document, and
/// that stays the same when unrelated parts of the page change.
///
/// Preference, as axe's `getSelector` has it: a unique `#id`; else one distinctive piece (a class,
/// an attribute such as `[name="q"]`, a tag) that is unique in the document; else a path of
/// ` > `-joined pieces up to the nearest ancestor that has such a piece, where each step is the
/// shortest piece that tells the element apart from its siblings and `:nth-child()` is the last
/// resort. Uniqueness comes from counts of every piece's matches, computed once per document.
public struct TargetSelectorGenerator: Sendable {
    public init() {}

    /// A selector for one element. Builds the document's counts, which costs one pass over the
    /// document: for many elements of one page use `session(for:)` or `selectors(for:)`.
    public func selector(for element: Element) -> String {
        Session(document: element.document).selector(for: element)
    }

    /// Selectors for many elements (of one or several documents), in the same order.
    public func selectors(for elements: some Sequence<Element>) -> [String] {
        var sessions: [ObjectIdentifier: Session] = [:]
        return elements.map { element in
            let key = ObjectIdentifier(element.document)
            let session = sessions[key] ?? Session(document: element.document)
            sessions[key] = session
            return session.selector(for: element)
        }
    }

    /// A session that reuses one document's counts across calls.
    public func session(for document: Document) -> Session {
        Session(document: document)
    }

    /// The per-document state: how many elements each selector piece matches in the whole
    /// document (built up front) and among each parent's children (built on first use).
    /// Not thread-safe: use one session per thread, or `selectors(for:)`.
    public final class Session {
        public let document: Document
        /// Element nodes that each feature matches, over the whole document.
        private let documentMatches: [FeatureKey: [Int32]]
        /// Per parent node: how many children each feature matches.
        private var siblingCounts: [Int: [FeatureKey: Int]] = [:]
        /// Per node: its document-unique piece (ancestors are asked again for every descendant).
        private var documentUniquePieces: [Int: Piece?] = [:]
        private var siblingUniquePieces: [Int: Piece] = [:]

        public init(document: Document) {
            self.document = document
            var matches: [FeatureKey: [Int32]] = [:]
            for element in document.elements {
                for key in Self.featureKeys(of: element) { matches[key, default: []].append(Int32(element.node)) }
            }
            documentMatches = matches
        }

        /// A selector that matches `element`, and nothing else, in the session's document.
        public func selector(for element: Element) -> String {
            precondition(element.document === document, "the element belongs to another document")
            if let piece = documentUniquePiece(for: element) { return piece.text }

            var chain: [Piece] = []  // leftmost first
            var current = element
            while true {
                chain.insert(siblingUniquePiece(for: current), at: 0)
                guard let parent = current.parent else { break }  // reached the root, which is unique
                if let anchor = documentUniquePiece(for: parent) {
                    chain.insert(anchor, at: 0)
                    break
                }
                // A shorter path may already be unique (e.g. `.card:nth-child(2) > h3`): stop climbing.
                if chain.count > 1, matchCount(of: chain) == 1 { break }
                current = parent
            }
            guard isVerified(chain, endingAt: element) else { return structuralPath(to: element) }
            return chain.map(\.text).joined(separator: " > ")
        }

        // MARK: Pieces

        /// One compound selector of a generated path, with what it can match.
        private struct Piece {
            let text: String
            let compound: CompoundSelector
            /// Features whose matches together are exactly what `compound` matches, ignoring
            /// `:nth-child()` (which only narrows).
            let keys: [FeatureKey]
            let kind: Kind

            enum Kind { case id, className, attribute, tag, nthChild }
        }

        /// What a selector piece can match, keyed the way the matcher compares: HTML elements by
        /// lowercase name and (for HTML's case-insensitive attributes) lowercase value, others exactly.
        enum FeatureKey: Hashable {
            case id(String)
            case htmlTag(String)
            case foreignTag(String)
            case className(String)
            case htmlAttribute(name: String, value: String)
            case foreignAttribute(name: String, value: String)
        }

        /// Attributes that often tell elements apart and stay stable across page versions.
        private static let distinctiveAttributes = [
            "name", "role", "type", "for", "href", "src", "alt", "title", "aria-label", "placeholder",
            "data-testid", "data-test", "data-qa", "data-cy",
        ]

        /// Longer values make unwieldy selectors (and tend to change, like tracking URLs).
        private static let maximumAttributeValueLength = 64

        private static func isUsableAttributeValue(_ value: String) -> Bool {
            !value.isEmpty && value.unicodeScalars.count <= maximumAttributeValueLength
                && !value.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }
        }

        private static func featureKeys(of element: Element) -> [FeatureKey] {
            var keys: [FeatureKey] = [element.isHTML ? .htmlTag(element.localName) : .foreignTag(element.localName)]
            if let id = element.attribute("id"), !id.isEmpty { keys.append(.id(id)) }
            if let classes = element.attribute("class") {
                var seen = Set<String>()
                for name in classes.split(whereSeparator: \.isHTMLWhitespace) where seen.insert(String(name)).inserted {
                    keys.append(.className(String(name)))
                }
            }
            for name in distinctiveAttributes {
                guard let value = element.attribute(name), isUsableAttributeValue(value) else { continue }
                keys.append(attributeKey(name: name, value: value, onHTMLElement: element.isHTML))
            }
            return keys
        }

        private static func attributeKey(name: String, value: String, onHTMLElement: Bool) -> FeatureKey {
            guard onHTMLElement else { return .foreignAttribute(name: name, value: value) }
            let ignoresCase = HTMLSelectorCaseRules.caseInsensitiveAttributeNames.contains(name)
            return .htmlAttribute(name: name, value: ignoresCase ? CSSSyntax.asciiLowercased(value) : value)
        }

        private func idPiece(_ id: String) -> Piece {
            Piece(
                text: "#" + CSSSyntax.escapeIdentifier(id),
                compound: CompoundSelector(typeName: nil, conditions: [.id(id)]),
                keys: [.id(id)], kind: .id
            )
        }

        private func tagPiece(for element: Element) -> Piece {
            let name = element.localName
            // The selector text `name` matches HTML elements named lowercase(name) and others named exactly name.
            return Piece(
                text: CSSSyntax.escapeIdentifier(name),
                compound: CompoundSelector(typeName: TypeName(name), conditions: []),
                keys: [.htmlTag(CSSSyntax.asciiLowercased(name)), .foreignTag(name)], kind: .tag
            )
        }

        private func classPieces(for element: Element) -> [Piece] {
            var seen = Set<String>()
            return (element.attribute("class") ?? "").split(whereSeparator: \.isHTMLWhitespace).compactMap { part in
                let name = String(part)
                guard seen.insert(name).inserted else { return nil }
                return Piece(
                    text: "." + CSSSyntax.escapeIdentifier(name),
                    compound: CompoundSelector(typeName: nil, conditions: [.className(name)]),
                    keys: [.className(name)], kind: .className
                )
            }
        }

        private func attributePieces(for element: Element) -> [Piece] {
            Self.distinctiveAttributes.compactMap { name in
                guard let value = element.attribute(name), Self.isUsableAttributeValue(value) else { return nil }
                let condition = AttributeCondition(name: name, operation: .equals, value: value, caseFlag: .documentDefault)
                return Piece(
                    text: "[\(CSSSyntax.escapeIdentifier(name))=\(CSSSyntax.quoteString(value))]",
                    compound: CompoundSelector(typeName: nil, conditions: [.attribute(condition)]),
                    keys: [
                        Self.attributeKey(name: name, value: value, onHTMLElement: true),
                        Self.attributeKey(name: name, value: value, onHTMLElement: false),
                    ],
                    kind: .attribute
                )
            }
        }

        /// The root has no siblings; `:root` stands in if its tag is somehow not unique.
        private func rootPiece(for element: Element) -> Piece {
            let tag = tagPiece(for: element)
            if documentCount(of: tag) == 1 { return tag }
            return Piece(
                text: ":root", compound: CompoundSelector(typeName: nil, conditions: [.pseudoClass(.root)]),
                keys: tag.keys, kind: .nthChild
            )
        }

        private func nthChildPiece(for element: Element) -> Piece {
            var index = 1
            var sibling = element.previousElementSibling
            while let current = sibling {
                index += 1
                sibling = current.previousElementSibling
            }
            let tag = tagPiece(for: element)
            let nth = PseudoClass.nthChild(NthPattern(step: 0, offset: index), of: nil)
            return Piece(
                text: tag.text + ":nth-child(\(index))",
                compound: CompoundSelector(typeName: TypeName(element.localName), conditions: [.pseudoClass(nth)]),
                keys: tag.keys, kind: .nthChild
            )
        }

        // MARK: Choosing pieces

        private func documentCount(of piece: Piece) -> Int {
            piece.keys.reduce(0) { $0 + (documentMatches[$1]?.count ?? 0) }
        }

        /// A piece that matches `element` and no other element of the document, or nil.
        private func documentUniquePiece(for element: Element) -> Piece? {
            if let cached = documentUniquePieces[element.node] { return cached }
            let piece = findDocumentUniquePiece(for: element)
            documentUniquePieces[element.node] = .some(piece)
            return piece
        }

        private func findDocumentUniquePiece(for element: Element) -> Piece? {
            if element.isHTML, ["html", "head", "body"].contains(element.localName) {
                let tag = tagPiece(for: element)
                if documentCount(of: tag) == 1 { return tag }
            }
            if let id = element.attribute("id"), !id.isEmpty {
                let piece = idPiece(id)
                if documentCount(of: piece) == 1 { return piece }
            }
            // Classes and attributes before tags: they survive the insertion of another element of
            // the same kind elsewhere (a second <form>, a banner with an <h1>).
            let unique = { (pieces: [Piece]) in
                pieces.filter { self.documentCount(of: $0) == 1 }.min { $0.text.count < $1.text.count }
            }
            if let piece = unique(classPieces(for: element)) { return piece }
            if let piece = unique(attributePieces(for: element)) { return piece }
            let tag = tagPiece(for: element)
            return documentCount(of: tag) == 1 ? tag : nil
        }

        /// Counts of each feature among the children of `parent` (computed once per parent).
        private func childCounts(of parent: Element) -> [FeatureKey: Int] {
            if let cached = siblingCounts[parent.node] { return cached }
            var counts: [FeatureKey: Int] = [:]
            var child = parent.firstElementChild
            while let current = child {
                for key in Self.featureKeys(of: current) { counts[key, default: 0] += 1 }
                child = current.nextElementSibling
            }
            siblingCounts[parent.node] = counts
            return counts
        }

        /// The shortest piece that matches `element` and none of its siblings; `tag:nth-child(n)`
        /// when nothing else does.
        private func siblingUniquePiece(for element: Element) -> Piece {
            if let cached = siblingUniquePieces[element.node] { return cached }
            let piece = findSiblingUniquePiece(for: element)
            siblingUniquePieces[element.node] = piece
            return piece
        }

        private func findSiblingUniquePiece(for element: Element) -> Piece {
            guard let parent = element.parent else { return rootPiece(for: element) }
            let counts = childCounts(of: parent)
            let isUnique = { (piece: Piece) in piece.keys.reduce(0) { $0 + (counts[$1] ?? 0) } == 1 }
            var candidates = [tagPiece(for: element)] + classPieces(for: element) + attributePieces(for: element)
            if let id = element.attribute("id"), !id.isEmpty { candidates.append(idPiece(id)) }
            // min(by:) keeps the first of equally short pieces: tag, then class, then attribute.
            if let piece = candidates.filter(isUnique).min(by: { $0.text.count < $1.text.count }) { return piece }
            return nthChildPiece(for: element)
        }

        // MARK: Checking paths

        /// How many elements a ` > ` path matches, evaluated from the left; nil when finding out
        /// would cost more than the shortening is worth (the path then just grows by a level).
        private func matchCount(of chain: [Piece]) -> Int? {
            let maximumStarts = 256
            var budget = 4096
            let starts = chain[0].keys.flatMap { documentMatches[$0] ?? [] }
            guard starts.count <= maximumStarts else { return nil }
            var current = starts.map { Element(document: document, node: Int($0)) }
                .filter { SelectorMatcher.matchesCompound(chain[0].compound, $0, anchor: nil) }
            for piece in chain.dropFirst() {
                var next: [Element] = []
                for parent in current {
                    var child = parent.firstElementChild
                    while let candidate = child {
                        budget -= 1
                        guard budget > 0 else { return nil }
                        if SelectorMatcher.matchesCompound(piece.compound, candidate, anchor: nil) { next.append(candidate) }
                        child = candidate.nextElementSibling
                    }
                }
                if next.isEmpty { return 0 }
                current = next
            }
            return current.count
        }

        /// Checks the path element by element with the matcher: each piece matches the element at
        /// its level, the first is unique in the document (or is the root), every other one is
        /// unique among its siblings — which together make the path match `target` alone.
        private func isVerified(_ chain: [Piece], endingAt target: Element) -> Bool {
            var element: Element? = target
            for (level, piece) in chain.enumerated().reversed() {
                guard let current = element, SelectorMatcher.matchesCompound(piece.compound, current, anchor: nil) else {
                    return false
                }
                if level == 0 {
                    if current.parent == nil { return true }
                    return documentCount(of: piece) == 1 || matchCount(of: chain) == 1
                }
                guard piece.kind == .nthChild || current.parent.map({ parent in
                    let counts = childCounts(of: parent)
                    return piece.keys.reduce(0) { $0 + (counts[$1] ?? 0) } == 1
                }) == true else { return false }
                element = current.parent
            }
            return false
        }

        /// `:root > tag:nth-child(i) > …`: unique by construction, used only if the counts and the
        /// matcher ever disagree.
        private func structuralPath(to element: Element) -> String {
            var parts: [String] = []
            var current = element
            while current.parent != nil {
                parts.append(nthChildPiece(for: current).text)
                current = current.parent!
            }
            parts.append(":root")
            return parts.reversed().joined(separator: " > ")
        }
    }
}
