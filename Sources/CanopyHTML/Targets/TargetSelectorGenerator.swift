/// Builds, for a finding, a CSS selector that matches exactly that element in its document, and
/// that stays the same when unrelated parts of the page change.
///
/// Preference, as axe's `getSelector` has it: a unique `#id`; else one distinctive piece (a class,
/// an attribute such as `[name="q"]`, a tag) that is unique in the document; else a path of
/// ` > `-joined pieces up to the nearest ancestor that has such a piece, where each step is the
/// shortest piece that tells the element apart from its siblings and `:nth-child()` is the last
/// resort. Uniqueness comes from counts of every piece's matches, computed once per document, and
/// each result is checked with the selector matcher.
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
        /// Element nodes that each class and attribute feature matches, over the whole document,
        /// filled a kind at a time when first asked, from the elements that carry it (ids are the
        /// document's own index, tags `tagMatches`). Listing every feature of every element up
        /// front was half the cost of a page's selectors.
        private var documentMatches = PrehashedTable<MatchList>()
        /// The nodes of every feature's matches, each list chained through `nextMatch` (-1: the
        /// last): an array of nodes per feature, appended to inside the table, was reallocated
        /// on a third of the appends, and that was the most of indexing a page (callgrind).
        private var matchedNodes: [Int32] = []
        private var nextMatch: [Int32] = []

        /// A feature's matches: how many, and the first and last entries of their chain.
        private struct MatchList {
            var count: Int32
            var first: Int32
            var last: Int32
        }
        /// Element nodes of each tag feature asked, in document order, from the document's list
        /// of the name in one go: tags are counted far more often than listed, and adding each
        /// element to a chain of matches was most of counting them.
        private var tagMatches = PrehashedTable<[Int32]>()
        private var indexedClasses = false
        /// The ranks (`rankedNames`) of the attributes indexed, a bit each: asked for every
        /// attribute piece counted, where a set of names hashed each name twice (callgrind).
        private var indexedAttributeRanks: UInt64 = 0
        /// Per parent node: how many children each feature matches.
        private var childFeatureCounts: [Int: PrehashedTable<Int32>] = [:]
        /// Per node: the number in `chosenPieces` of its document-unique piece (-1: it has none),
        /// and of its sibling-unique piece; ancestors are asked again for every descendant. By
        /// number, each piece kept once: pieces held by node were 4.7 MB of javadoc's index page
        /// with 8,241 failing links while its findings were described (massif), most of them the
        /// same few (the links' `a`).
        private var documentUniquePieces: [Int32: Int32] = [:]
        private var siblingUniquePieces: [Int32: Int32] = [:]
        private var chosenPieces: [Piece] = []
        private var chosenPieceNumbers: [String: Int32] = [:]
        /// Per node: 1-based position among its parent's element children, filled a parent at a
        /// time so that long lists cost linear, not quadratic, time.
        private var childPositions: [Int32: Int32] = [:]

        public init(document: Document) {
            self.document = document
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
                // A path that starts at a class or attribute may already be unique (`.price > b`): stop
                // climbing. Not at a bare tag or position, which a change elsewhere can easily repeat.
                if chain.count > 1, chain[0].canStartShortPath, matchCount(of: chain) == 1 { break }
                current = parent
            }
            guard isVerified(chain, endingAt: element) else { return structuralPath(to: element) }
            return chain.map(\.text).joined(separator: " > ")
        }

        // MARK: Features and pieces

        /// What a selector piece can match, keyed the way the matcher compares: HTML elements by
        /// lowercase name and (for HTML's case-insensitive attributes) lowercase value, others
        /// exactly. Counted by a 64-bit hash of kind, name and value, made from the page's bytes
        /// without a string: a collision could only make two features count as one and so make a
        /// piece look less unique than it is, never unique when it is not.
        struct FeatureKey {
            enum Source {
                case id(String)
                case htmlTag(String)
                case foreignTag(String)
                case className
                /// By its place in `rankedNames`: only ranked attributes make pieces.
                case attribute(rank: Int)
            }

            /// Where its matches are found when first asked.
            let source: Source
            let hash: UInt64

            static func id(_ id: String) -> FeatureKey {
                FeatureKey(source: .id(id), hash: FeatureHash(.id).adding(id.utf8).value)
            }

            static func htmlTag(_ name: String) -> FeatureKey {
                FeatureKey(source: .htmlTag(name), hash: FeatureHash(.htmlTag).adding(name.utf8).value)
            }

            static func foreignTag(_ name: String) -> FeatureKey {
                FeatureKey(source: .foreignTag(name), hash: FeatureHash(.foreignTag).adding(name.utf8).value)
            }

            static func className(_ name: some Sequence<UInt8>) -> FeatureKey {
                FeatureKey(source: .className, hash: FeatureHash(.className).adding(name).value)
            }

            static func attribute(rank: Int, value: some Sequence<UInt8>, onHTMLElement: Bool) -> FeatureKey {
                FeatureKey(source: .attribute(rank: rank), hash: FeatureHash.attribute(rank: rank, value: value, onHTMLElement: onHTMLElement).value)
            }
        }

        /// FNV-1a over a feature's kind byte, then its name and value bytes (0xFF, which UTF-8
        /// never holds, between them).
        struct FeatureHash {
            enum Kind: UInt8 { case id = 1, htmlTag, foreignTag, className, htmlAttribute, foreignAttribute }
            private var hash = FNV1a()
            var value: UInt64 { hash.value }

            init(_ kind: Kind) { add(kind.rawValue) }

            @inline(__always)
            mutating func add(_ byte: UInt8) { hash.add(byte) }

            func adding(_ bytes: some Sequence<UInt8>) -> FeatureHash {
                var copy = self
                for byte in bytes { copy.add(byte) }
                return copy
            }

            /// The hash of a ranked attribute (`rankedNames`) with `value`.
            static func attribute(rank: Int, value: some Sequence<UInt8>, onHTMLElement: Bool) -> FeatureHash {
                // Kind and name hashed once per rank: hashed for each attribute counted, and looking
                // up the name's case rule in a set of strings, were most of the cost (callgrind).
                let prefixes = rankedPrefixes[rank]
                var hash = onHTMLElement ? prefixes.html : prefixes.foreign
                if onHTMLElement, prefixes.isCaseInsensitive {
                    for byte in value { hash.add(byte.asciiLowercased) }
                } else {
                    for byte in value { hash.add(byte) }
                }
                return hash
            }

            /// Per ranked attribute: the hash of kind, name and separator on HTML elements and on
            /// others, and whether HTML elements compare its values without case.
            private static let rankedPrefixes: [(html: FeatureHash, foreign: FeatureHash, isCaseInsensitive: Bool)] = rankedNames.map { ranked in
                func prefix(_ kind: Kind) -> FeatureHash {
                    var hash = FeatureHash(kind).adding(ranked.name.utf8)
                    hash.add(0xFF)
                    return hash
                }
                return (prefix(.htmlAttribute), prefix(.foreignAttribute), HTMLSelectorCaseRules.caseInsensitiveAttributeNames.contains(ranked.name))
            }
        }

        /// One compound selector of a generated path.
        private struct Piece {
            enum Kind {
                case id(String)
                case className(String)
                case attribute(name: String, value: String)
                case tag(String)
                case nthChild(tag: String, index: Int)
                case root
            }

            let kind: Kind
            /// Features whose matches together are what the piece matches, leaving aside
            /// `:nth-child()`, which only narrows.
            let keys: [FeatureKey]

            /// The text of a piece kept for later selectors (ancestors recur in every path below them).
            var keptText: String?

            /// The selector text, made when asked: most pieces are counted and dropped, and
            /// escaping and quoting each candidate's text was a fifth of a page's selectors.
            var text: String {
                if let keptText { return keptText }
                switch kind {
                case .id(let id): return "#" + CSSSyntax.escapeIdentifier(id)
                case .className(let name): return "." + CSSSyntax.escapeIdentifier(name)
                case .attribute(let name, let value): return "[\(CSSSyntax.escapeIdentifier(name))=\(CSSSyntax.quoteString(value))]"
                case .tag(let name): return CSSSyntax.escapeIdentifier(name)
                case .nthChild(let tag, let index): return CSSSyntax.escapeIdentifier(tag) + ":nth-child(\(index))"
                case .root: return ":root"
                }
            }

            /// The length of `text` in characters when every part of it is plain ASCII, written as
            /// is (an identifier that needs no escape, a value that needs no escape inside its
            /// quotes): then each byte is one character. Nil otherwise.
            var plainLength: Int? {
                switch kind {
                case .className(let name):
                    return CSSSyntax.isPlainIdentifier(name) ? 1 + name.utf8.count : nil
                case .tag(let name):
                    return CSSSyntax.isPlainIdentifier(name) ? name.utf8.count : nil
                case .attribute(let name, let value):
                    guard CSSSyntax.isPlainIdentifier(name), CSSSyntax.isPlainStringContent(value) else { return nil }
                    return name.utf8.count + value.utf8.count + 5  // [name="value"]
                case .id, .nthChild, .root:
                    return nil
                }
            }

            /// The parsed form, built only for the pieces that get checked with the matcher.
            var compound: CompoundSelector {
                switch kind {
                case .id(let id):
                    return CompoundSelector(typeName: nil, conditions: [.id(id)])
                case .className(let name):
                    return CompoundSelector(typeName: nil, conditions: [.className(name)])
                case .attribute(let name, let value):
                    let condition = AttributeCondition(name: name, operation: .equals, value: value, caseFlag: .documentDefault)
                    return CompoundSelector(typeName: nil, conditions: [.attribute(condition)])
                case .tag(let name):
                    return CompoundSelector(typeName: TypeName(name), conditions: [])
                case .nthChild(let tag, let index):
                    let nth = PseudoClass.nthChild(NthPattern(step: 0, offset: index), of: nil)
                    return CompoundSelector(typeName: TypeName(tag), conditions: [.pseudoClass(nth)])
                case .root:
                    return CompoundSelector(typeName: nil, conditions: [.pseudoClass(.root)])
                }
            }

            /// Unique among siblings by construction, whatever the counts say.
            var isPositional: Bool {
                switch kind {
                case .nthChild, .root: return true
                default: return false
                }
            }

            var canStartShortPath: Bool {
                switch kind {
                case .className, .attribute: return true
                default: return false
                }
            }
        }

        /// Attributes whose values usually name one thing on the page (a field, a link target, a
        /// label) and so stay stable when other parts of the page change.
        private static let specificAttributes = [
            "name", "for", "href", "src", "alt", "title", "aria-label", "placeholder",
            "data-testid", "data-test", "data-qa", "data-cy",
        ]
        /// Attributes with a small vocabulary: fine to tell siblings apart, weak as a page-wide anchor
        /// (a second `type="submit"` button appears as easily as a second `<button>`).
        private static let genericAttributes = ["type", "role"]

        /// The distinctive attributes with their name keys, in rank order: the order pieces are
        /// tried in. A feature of an attribute names it by its rank, its place here.
        private static let rankedNames = (specificAttributes + genericAttributes).map(AttributeName.init)

        /// The rank of the attribute at `index`, by the name key the page already has: hashing
        /// each attribute's name into a dictionary was most of reading an element's pieces.
        private static func rank(ofAttributeAt index: Int, in storage: NodeStorage) -> Int? {
            let key = storage.attributeNameKeys[index]
            for (rank, ranked) in rankedNames.enumerated() where NameKey.same(key, storage.attributeNames[index], as: ranked.key, ranked.name) {
                return rank
            }
            return nil
        }

        /// Longer values make unwieldy selectors (and tend to change, like tracking URLs).
        private static let maximumAttributeValueLength = 64

        /// The element's pieces of its distinct class names in written order (split on bytes, as
        /// `.name` selectors split them), made only for the names `isWanted` accepts by their
        /// feature hash: most names are counted and dropped, and a string, a piece and a key
        /// array for each was most of choosing a piece (callgrind).
        private func classPieces(for element: Element, where isWanted: (FeatureKey) -> Bool) -> [Piece] {
            let storage = element.document.storage
            guard let index = storage.attributeIndex(node: element.node, name: .class) else { return [] }
            var pieces: [Piece] = []
            seenHashes.removeAll(keepingCapacity: true)
            SelectorMatcher.forEachWord(in: storage.attributeBytes(at: index)) { name in
                let key = FeatureKey.className(name)
                guard !seenHashes.contains(key.hash) else { return true }
                seenHashes.append(key.hash)
                if isWanted(key) {
                    pieces.append(Piece(kind: .className(String(decoding: name, as: UTF8.self)), keys: [key]))
                }
                return true
            }
            return pieces
        }

        /// Hashes of the class names met so far by `classPieces`, kept across calls.
        private var seenHashes: [UInt64] = []

        /// The element's pieces of its distinctive attributes whose rank `include` accepts, in rank
        /// order, made only for those `isWanted` accepts by their two keys (as an HTML element's
        /// and as another's: the text matches both, each by its own case rules). The first
        /// attribute of a name decides, as `attribute(_:)` reads it.
        private func attributePieces(
            for element: Element, where include: (Int) -> Bool = { _ in true }, _ isWanted: (_ html: FeatureKey, _ foreign: FeatureKey) -> Bool
        ) -> [Piece] {
            var found: [(piece: Piece, rank: Int)] = []
            Self.forEachRankedAttribute(of: element) { rank, name, bytes in
                guard include(rank) else { return }
                let html = FeatureKey.attribute(rank: rank, value: bytes, onHTMLElement: true)
                let foreign = FeatureKey.attribute(rank: rank, value: bytes, onHTMLElement: false)
                guard isWanted(html, foreign) else { return }
                found.append((Piece(kind: .attribute(name: name, value: String(decoding: bytes, as: UTF8.self)), keys: [html, foreign]), rank))
            }
            return found.count > 1 ? found.sorted { $0.rank < $1.rank }.map(\.piece) : found.map(\.piece)
        }

        /// Calls `body` with the rank, name and value of each of the element's ranked attributes
        /// whose value is usable, in the element's order. The first attribute of a name decides,
        /// as `attribute(_:)` reads it: one whose value is unusable hides later ones of its name.
        /// Names first: only the values of ranked attributes are worth reading.
        private static func forEachRankedAttribute(of element: Element, _ body: (_ rank: Int, _ name: String, _ value: ArraySlice<UInt8>) -> Void) {
            var seenRanks: UInt64 = 0
            let storage = element.document.storage
            for index in storage.attributeRange(node: element.node) {
                guard let rank = rank(ofAttributeAt: index, in: storage), seenRanks & (1 << UInt64(rank)) == 0 else { continue }
                seenRanks |= 1 << UInt64(rank)
                let value = storage.attributeBytes(at: index)
                guard isUsableAttributeValue(value) else { continue }
                body(rank, storage.attributeNames[index], value)
            }
        }

        /// Hashes of the features an element has that sibling pieces are made of (tag, classes,
        /// ranked attributes; never an id), for counting (each element counts once per feature),
        /// read from the page's bytes. Ranked values are hashed into a table by rank: strings
        /// compared and arrays made for every sibling counted were most of counting a parent's
        /// children.
        private static func ownFeatureHashes(of element: Element, into hashes: inout [UInt64]) {
            hashes.removeAll(keepingCapacity: true)
            let storage = element.document.storage
            let isHTML = element.isHTML
            hashes.append(FeatureHash(isHTML ? .htmlTag : .foreignTag).adding(element.localName.utf8).value)
            guard !storage.attributeRange(node: element.node).isEmpty else { return }
            if let index = storage.attributeIndex(node: element.node, name: .class) {
                appendClassHashes(of: storage.attributeBytes(at: index), to: &hashes)
            }
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: rankedNames.count) { hashByRank in
                var found: UInt64 = 0
                forEachRankedAttribute(of: element) { rank, _, value in
                    hashByRank[rank] = FeatureHash.attribute(rank: rank, value: value, onHTMLElement: isHTML).value
                    found |= 1 << UInt64(rank)
                }
                for rank in 0..<rankedNames.count where found & (1 << UInt64(rank)) != 0 {
                    hashes.append(hashByRank[rank])
                }
            }
        }

        /// The hashes of the distinct class names in a `class` value, split on ASCII whitespace.
        private static func appendClassHashes(of value: ArraySlice<UInt8>, to hashes: inout [UInt64]) {
            let first = hashes.count
            SelectorMatcher.forEachWord(in: value) { name in
                let hash = FeatureHash(.className).adding(name).value
                if !hashes[first...].contains(hash) { hashes.append(hash) }
                return true
            }
        }

        /// A value of at most `maximumAttributeValueLength` code points and no control character,
        /// read from its UTF-8 bytes: code points counted by their lead bytes, control characters
        /// by their single byte.
        private static func isUsableAttributeValue(_ value: ArraySlice<UInt8>) -> Bool {
            guard !value.isEmpty, value.count <= maximumAttributeValueLength * 4 else { return false }
            var scalars = 0
            for byte in value {
                if byte < 0x20 || byte == 0x7F { return false }
                if byte & 0xC0 != 0x80 { scalars += 1 }
            }
            return scalars <= maximumAttributeValueLength
        }

        private func idPiece(_ id: String) -> Piece {
            Piece(kind: .id(id), keys: [.id(id)])
        }

        private func tagPiece(for element: Element) -> Piece {
            let name = element.localName
            // The text `name` matches HTML elements named lowercase(name) and other elements named exactly name.
            return Piece(
                kind: .tag(name),
                keys: [.htmlTag(CSSSyntax.asciiLowercased(name)), .foreignTag(name)]
            )
        }

        /// The root has no siblings; `:root` stands in if its tag is somehow not unique.
        private func rootPiece(for element: Element) -> Piece {
            let tag = tagPiece(for: element)
            if documentCount(of: tag) == 1 { return tag }
            return Piece(kind: .root, keys: tag.keys)
        }

        private func childPosition(of element: Element) -> Int {
            if let cached = childPositions[Int32(element.node)] { return Int(cached) }
            guard let parent = element.parent else { return 1 }
            var position: Int32 = 0
            var child = parent.firstElementChild
            while let current = child {
                position += 1
                childPositions[Int32(current.node)] = position
                child = current.nextElementSibling
            }
            return Int(childPositions[Int32(element.node)] ?? 1)
        }

        private func nthChildPiece(for element: Element) -> Piece {
            let index = childPosition(of: element)
            let tag = tagPiece(for: element)
            return Piece(kind: .nthChild(tag: element.localName, index: index), keys: tag.keys)
        }

        // MARK: Choosing pieces

        private func documentCount(of piece: Piece) -> Int {
            piece.keys.reduce(0) { $0 + documentMatchCount(of: $1) }
        }

        /// How many element nodes of the document have `key`.
        private func documentMatchCount(of key: FeatureKey) -> Int {
            switch key.source {
            case .id(let id): return document.idIndex[id]?.count ?? 0
            case .htmlTag, .foreignTag: return tagNodes(key).count
            case .className, .attribute: break
            }
            index(for: key)
            return Int(documentMatches[key.hash]?.count ?? 0)
        }

        /// The element nodes of the document that have `key`, in document order.
        private func matches(of key: FeatureKey) -> [Int32] {
            switch key.source {
            case .id(let id): return document.idIndex[id] ?? []
            case .htmlTag, .foreignTag: return tagNodes(key)
            case .className, .attribute: break
            }
            index(for: key)
            guard let list = documentMatches[key.hash] else { return [] }
            var nodes: [Int32] = []
            nodes.reserveCapacity(Int(list.count))
            var entry = list.first
            while entry >= 0 {
                nodes.append(matchedNodes[Int(entry)])
                entry = nextMatch[Int(entry)]
            }
            return nodes
        }

        /// Indexes the document's matches of every feature of `key`'s kind (of its name, for
        /// tags and attributes), the first time one is asked.
        private func index(for key: FeatureKey) {
            let storage = document.storage
            switch key.source {
            case .htmlTag, .foreignTag, .id:
                break
            case .className:
                if !indexedClasses {
                    indexedClasses = true
                    var hashes: [UInt64] = []
                    for position in document.elementPositions(withAttribute: "class") {
                        let node = Int(document.elementNodes[Int(position)])
                        guard let index = storage.attributeIndex(node: node, name: .class) else { continue }
                        hashes.removeAll(keepingCapacity: true)
                        Self.appendClassHashes(of: storage.attributeBytes(at: index), to: &hashes)
                        for hash in hashes { addMatch(hash, node: Int32(node)) }
                    }
                }
            case .attribute(let rank):
                if indexedAttributeRanks & (1 << UInt64(rank)) == 0 {
                    indexedAttributeRanks |= 1 << UInt64(rank)
                    let attributeName = Self.rankedNames[rank]
                    for position in document.elementPositions(withAttribute: attributeName.name) {
                        let node = Int(document.elementNodes[Int(position)])
                        guard let index = storage.attributeIndex(node: node, name: attributeName) else { continue }
                        let value = storage.attributeBytes(at: index)
                        guard Self.isUsableAttributeValue(value) else { continue }
                        let isHTML = storage.nodes[node].namespace == .html
                        addMatch(FeatureHash.attribute(rank: rank, value: value, onHTMLElement: isHTML).value, node: Int32(node))
                    }
                }
            }
        }

        /// The element nodes of tag feature `key` (an HTML tag matches HTML elements of its
        /// lowercase name, a foreign tag other elements of its exact name).
        private func tagNodes(_ key: FeatureKey) -> [Int32] {
            if let known = tagMatches[key.hash] { return known }
            var isHTML = false, name = ""
            switch key.source {
            case .htmlTag(let tag): (isHTML, name) = (true, tag)
            case .foreignTag(let tag): name = tag
            default: preconditionFailure("not a tag feature")
            }
            let storage = document.storage
            let nodes = document.elementPositions(named: name).compactMap { position -> Int32? in
                let node = document.elementNodes[Int(position)]
                return (storage.nodes[Int(node)].namespace == .html) == isHTML ? node : nil
            }
            tagMatches.set(key.hash, to: nodes)
            return nodes
        }

        /// Adds `node` to the end of the matches of feature `hash`.
        private func addMatch(_ hash: UInt64, node: Int32) {
            let entry = Int32(matchedNodes.count)
            matchedNodes.append(node)
            nextMatch.append(-1)
            documentMatches.update(hash, default: MatchList(count: 0, first: entry, last: -1)) { list in
                if list.last >= 0 { nextMatch[Int(list.last)] = entry }
                list.last = entry
                list.count += 1
            }
        }

        /// A piece that matches `element` and no other element of the document, or nil.
        private func documentUniquePiece(for element: Element) -> Piece? {
            let node = Int32(element.node)
            if let number = documentUniquePieces[node] { return number < 0 ? nil : chosenPieces[Int(number)] }
            guard let piece = findDocumentUniquePiece(for: element) else {
                documentUniquePieces[node] = -1
                return nil
            }
            let number = keep(piece)
            documentUniquePieces[node] = number
            return chosenPieces[Int(number)]
        }

        /// The number of `piece` in `chosenPieces`, with its text kept, added if no piece of its
        /// text is there yet (a piece's text is its selector, so pieces of one text are alike).
        private func keep(_ piece: Piece) -> Int32 {
            var piece = piece
            let text = piece.text
            if let number = chosenPieceNumbers[text] { return number }
            piece.keptText = text
            let number = Int32(chosenPieces.count)
            chosenPieces.append(piece)
            chosenPieceNumbers[text] = number
            return number
        }

        /// The shortest of `pieces` by the length of its text, the first of equally short ones,
        /// with its text kept. Pieces of plain ASCII are measured without making their text, and
        /// only the winner's is made: escaping and joining every candidate's text was most of
        /// choosing among them (callgrind).
        private static func shortest(_ pieces: [Piece]) -> Piece? {
            var best: Piece?
            var bestLength = Int.max
            for var piece in pieces {
                let length: Int
                if let plain = piece.plainLength {
                    length = plain
                } else {
                    let text = piece.text
                    // Characters, counted by bytes where each is one: grapheme breaking was a sixth of
                    // choosing a piece.
                    length = text.isOneCharacterPerByte ? text.utf8.count : text.count
                    piece.keptText = text
                }
                guard length < bestLength else { continue }
                best = piece
                bestLength = length
            }
            guard var winner = best else { return nil }
            if winner.keptText == nil { winner.keptText = winner.text }
            return winner
        }

        private func findDocumentUniquePiece(for element: Element) -> Piece? {
            let isUnique = { (piece: Piece) in self.documentCount(of: piece) == 1 }
            let tag = tagPiece(for: element)
            // The root and its head and body are unique by tree construction: no counting needed.
            if element.isHTML, ["html", "head", "body"].contains(element.localName), element.parent?.parent == nil {
                return tag
            }
            // The document's id index answers for ids without the page-wide counts.
            if let id = element.attribute("id"), !id.isEmpty, document.elementCount(withID: id) == 1 { return idPiece(id) }
            // Classes and specific attributes before tags: they survive the insertion of another
            // element of the same kind elsewhere (a second <form>, a banner with an <h1>).
            let specificCount = Self.specificAttributes.count
            let isUniqueKey = { (key: FeatureKey) in self.documentMatchCount(of: key) == 1 }
            let isUniqueKeyPair = { (html: FeatureKey, foreign: FeatureKey) in
                self.documentMatchCount(of: html) + self.documentMatchCount(of: foreign) == 1
            }
            if let piece = Self.shortest(classPieces(for: element, where: isUniqueKey)) { return piece }
            if let piece = Self.shortest(attributePieces(for: element, where: { $0 < specificCount }, isUniqueKeyPair)) { return piece }
            if isUnique(tag) { return tag }
            return Self.shortest(attributePieces(for: element, where: { $0 >= specificCount }, isUniqueKeyPair))
        }

        /// Counts of each feature among the children of `parent` (computed once per parent).
        private func childCounts(of parent: Element) -> PrehashedTable<Int32> {
            if let cached = childFeatureCounts[parent.node] { return cached }
            var counts = PrehashedTable<Int32>()
            var hashes: [UInt64] = []
            var child = parent.firstElementChild
            while let current = child {
                Self.ownFeatureHashes(of: current, into: &hashes)
                for hash in hashes { counts.update(hash, default: 0) { $0 += 1 } }
                child = current.nextElementSibling
            }
            childFeatureCounts[parent.node] = counts
            return counts
        }

        private func isUniqueAmongSiblings(_ piece: Piece, of element: Element) -> Bool {
            if piece.isPositional { return true }
            guard let parent = element.parent else { return true }
            let counts = childCounts(of: parent)
            return piece.keys.reduce(0) { $0 + Int(counts[$1.hash] ?? 0) } == 1
        }

        /// The shortest piece that matches `element` and none of its siblings; `tag:nth-child(n)`
        /// when nothing else does.
        private func siblingUniquePiece(for element: Element) -> Piece {
            let node = Int32(element.node)
            if let number = siblingUniquePieces[node] { return chosenPieces[Int(number)] }
            let number = keep(findSiblingUniquePiece(for: element))
            siblingUniquePieces[node] = number
            return chosenPieces[Int(number)]
        }

        private func findSiblingUniquePiece(for element: Element) -> Piece {
            guard let parent = element.parent else { return rootPiece(for: element) }
            // Not a duplicated id: duplicates are page errors that get fixed, which would change the selector.
            let counts = childCounts(of: parent)
            let count = { (key: FeatureKey) in Int(counts[key.hash] ?? 0) }
            let tag = tagPiece(for: element)
            let tagIsUnique = isUniqueAmongSiblings(tag, of: element)
            // A class piece takes two characters at least (`.x`) and an attribute piece six
            // (`[x=""]`), and `shortest` keeps the tag of equally short pieces: a unique tag of
            // one or two characters (javadoc's failing links) wins without the others being made.
            if tagIsUnique, let length = tag.plainLength, length <= 2 { return tag }
            var candidates = tagIsUnique ? [tag] : []
            candidates += classPieces(for: element) { count($0) == 1 }
            candidates += attributePieces(for: element) { count($0) + count($1) == 1 }
            // `shortest` keeps the first of equally short pieces: tag, then class, then attribute.
            return Self.shortest(candidates) ?? nthChildPiece(for: element)
        }

        // MARK: Checking paths

        /// How many elements a ` > ` path matches (`evaluatedMatchCount`), once per path: the
        /// links of a table's rows climb through the same `.col-last > a` one after another, and
        /// evaluating it again for each was a sixth of a page's selectors (callgrind).
        private func matchCount(of chain: [Piece]) -> Int? {
            let path = chain.map(\.text)
            if let known = pathMatchCounts[path] { return known }
            let count = evaluatedMatchCount(of: chain)
            pathMatchCounts[path] = .some(count)
            return count
        }

        /// Match counts by the texts of their paths' pieces (a piece's text is its selector).
        private var pathMatchCounts: [[String]: Int?] = [:]

        /// How many elements a ` > ` path matches, evaluated from the left; nil when finding out
        /// would cost more than the shortening is worth (the path then just grows by a level).
        private func evaluatedMatchCount(of chain: [Piece]) -> Int? {
            let maximumStarts = 256
            var budget = 4096
            let starts = chain[0].keys.flatMap { matches(of: $0) }
            guard starts.count <= maximumStarts else { return nil }
            let firstCompound = chain[0].compound
            var current = starts.map { Element(document: document, node: Int($0)) }
                .filter { SelectorMatcher.matchesCompound(firstCompound, $0, anchor: nil) }
            for piece in chain.dropFirst() {
                let compound = piece.compound
                var next: [Element] = []
                for parent in current {
                    var child = parent.firstElementChild
                    while let candidate = child {
                        budget -= 1
                        guard budget > 0 else { return nil }
                        if SelectorMatcher.matchesCompound(compound, candidate, anchor: nil) { next.append(candidate) }
                        child = candidate.nextElementSibling
                    }
                }
                if next.isEmpty { return 0 }
                current = next
            }
            return current.count
        }

        /// Checks the path level by level with the matcher: each piece matches the element at its
        /// level, the first one is unique in the document (or is the root), every other one is
        /// unique among its siblings — which together make the path match `target` alone.
        private func isVerified(_ chain: [Piece], endingAt target: Element) -> Bool {
            var element: Element? = target
            for (level, piece) in chain.enumerated().reversed() {
                guard let current = element, matches(piece, current) else { return false }
                if level == 0 {
                    if current.parent == nil { return true }
                    return documentCount(of: piece) == 1 || matchCount(of: chain) == 1
                }
                guard isUniqueAmongSiblings(piece, of: current) else { return false }
                element = current.parent
            }
            return false
        }

        /// The matcher's verdict on `piece`, except that positions come from the session's cache:
        /// the matcher counts siblings on every call, quadratic over a 10,000-row table.
        private func matches(_ piece: Piece, _ element: Element) -> Bool {
            guard case .nthChild(let tag, let index) = piece.kind else {
                return SelectorMatcher.matchesCompound(piece.compound, element, anchor: nil)
            }
            return SelectorMatcher.matchesType(TypeName(tag), element) && childPosition(of: element) == index
        }

        /// `:root > tag:nth-child(i) > …`: unique by construction, used only if the counts and the
        /// matcher ever disagree.
        private func structuralPath(to element: Element) -> String {
            var parts: [String] = []
            var current = element
            while let parent = current.parent {
                parts.append(nthChildPiece(for: current).text)
                current = parent
            }
            parts.append(":root")
            return parts.reversed().joined(separator: " > ")
        }
    }
}
