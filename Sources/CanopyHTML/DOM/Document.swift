/// A parsed HTML page: an immutable tree stored as flat arrays indexed by node number.
///
/// Flat storage keeps the per-node cost to a few array slots instead of one object each, which is
/// what keeps parsing close to bare libxml2 speed; it also makes the document trivially `Sendable`,
/// so rules can read it from many threads at once.
public final class Document: Sendable {
    /// The address the page was fetched from (or the file it was read from), if known.
    public let url: String?
    /// The character encoding the bytes were decoded from (e.g. "UTF-8", "windows-1252").
    public let sourceEncoding: String

    let storage: NodeStorage
    /// Node numbers of all elements, in document order.
    let elementNodes: [Int32]
    /// For each node, its position in `elementNodes` (or -1 for non-elements).
    let elementPositions: [Int32]
    let idIndex: [String: [Int32]]
    /// Element positions by name key (`NameKey`), each in document order: rules, selectors and
    /// target selectors ask for the elements of a name some eighty times a page, and scanning
    /// every element for each was 1% of a styled crawl's instructions. Keyed by the name key's
    /// own bits (`PrehashedTable`): a `Dictionary` hashed the key again for every element of the
    /// page, a fifth of making the document.
    private let positionsByNameKey: PrehashedTable<[Int32]>

    init(storage: NodeStorage, url: String?, sourceEncoding: String) {
        self.storage = storage
        self.url = url
        self.sourceEncoding = sourceEncoding
        var elementNodes: [Int32] = []
        elementNodes.reserveCapacity(storage.count / 2)
        var positions = [Int32](repeating: -1, count: storage.count)
        // Node numbers are assigned in document order by the builder, so a linear scan is document order.
        for node in 0..<storage.count where storage.nodes[node].kind == .element {
            positions[node] = Int32(elementNodes.count)
            elementNodes.append(Int32(node))
        }
        var ids: [String: [Int32]] = [:]
        ids.reserveCapacity(storage.ids.count)
        for (value, node) in storage.ids { ids[value, default: []].append(node) }
        var byName = PrehashedTable<[Int32]>()
        for (position, node) in elementNodes.enumerated() { byName.update(storage.nameKeys[Int(node)], default: []) { $0.append(Int32(position)) } }
        self.elementNodes = elementNodes
        self.elementPositions = positions
        self.idIndex = ids
        self.positionsByNameKey = byName
    }

    /// The `<html>` element (the root of the element tree).
    public var documentElement: Element? {
        storage.firstElement(from: storage.nodes[0].firstChild, forward: true).map { Element(document: self, node: Int($0)) }
    }

    public var head: Element? { documentElement?.children.first { $0.localName == "head" } }
    public var body: Element? { documentElement?.children.first { $0.localName == "body" } }

    /// Every element, in document order.
    public var elements: ElementSequence { ElementSequence(document: self, range: 0..<elementNodes.count) }

    /// Number of elements in the document.
    public var elementCount: Int { elementNodes.count }

    /// The element at a document-order position (0 is `<html>`).
    public func element(atPosition position: Int) -> Element {
        Element(document: self, node: Int(elementNodes[position]))
    }

    /// The position of the parent element of the element at `position` (nil for `<html>`).
    ///
    /// For walks up the tree that need only positions: each `Element` made on the way retains
    /// the document and releases it after, and reference counting is a fifth of a styled
    /// crawl's CPU time (perf), a third of it on documents (docs/benchmarks.md).
    public func parentPosition(ofPosition position: Int) -> Int? {
        parentPosition(ofNode: Int(elementNodes[position]))
    }

    /// `parentPosition(ofPosition:)` from a node number.
    func parentPosition(ofNode node: Int) -> Int? {
        storage.parentElement(of: node).map { Int(elementPositions[Int($0)]) }
    }

    /// The position of the first element child of the element at `position`.
    public func firstChildPosition(ofPosition position: Int) -> Int? {
        storage.firstElement(from: storage.nodes[Int(elementNodes[position])].firstChild, forward: true).map { Int(elementPositions[Int($0)]) }
    }

    /// The position of the next element sibling of the element at `position`.
    public func nextSiblingPosition(ofPosition position: Int) -> Int? {
        storage.firstElement(from: storage.nodes[Int(elementNodes[position])].nextSibling, forward: true).map { Int(elementPositions[Int($0)]) }
    }

    /// The local name of the element at `position`, without making an `Element`.
    public func localName(atPosition position: Int) -> String {
        storage.names[Int(elementNodes[position])]
    }

    /// Document-order positions of the elements whose local name is `name`.
    func elementPositions(named name: String) -> [Int32] {
        let key = NameKey.of(name)
        guard let found = positionsByNameKey[key] else { return [] }
        // A key holds a name of up to seven bytes whole; longer names sharing one are told apart here.
        if key >> 56 <= 7 { return found }
        return found.filter { storage.names[Int(elementNodes[Int($0)])] == name }
    }

    /// The elements whose local name is `name`, in document order.
    public func elements(named name: String) -> [Element] {
        elementPositions(named: name).map { element(atPosition: Int($0)) }
    }

    /// The elements that have an attribute named `name`, in document order.
    public func elements(withAttribute name: String) -> [Element] {
        elementPositions(withAttribute: name).map { element(atPosition: Int($0)) }
    }

    /// The elements with at least one attribute whose name satisfies `test`, in document order:
    /// one pass over the page's attribute names, with no per-element work.
    public func elements(withAttributeNamed test: (String) -> Bool) -> [Element] {
        var found: [Int32] = []
        for index in storage.attributeNames.indices where test(storage.attributeNames[index]) {
            appendOwner(ofAttribute: index, to: &found)
        }
        return found.map { element(atPosition: Int($0)) }
    }

    /// Document-order positions of the elements that have an attribute named `name`.
    public func elementPositions(withAttribute name: String) -> [Int32] {
        var found: [Int32] = []
        let key = NameKey.of(name)
        storage.attributeNameKeys.withUnsafeBufferPointer { keys in
            for index in keys.indices where NameKey.same(keys[index], storage.attributeNames[index], as: key, name) {
                appendOwner(ofAttribute: index, to: &found)
            }
        }
        return found
    }

    /// Whether any node of the document has an attribute named `name`: one pass over the
    /// attributes' name keys, stopping at the first.
    public func containsAttribute(_ name: AttributeName) -> Bool {
        storage.attributeNameKeys.withUnsafeBufferPointer { keys in
            keys.indices.contains { NameKey.same(keys[$0], storage.attributeNames[$0], as: name.key, name.name) }
        }
    }

    /// Adds the position of the element that owns attribute `index`, unless it is the last one
    /// added. Attributes are stored node by node in document order, so one pass over all of them
    /// finds the owners in order; `attributeStart` says where each node's run begins.
    private func appendOwner(ofAttribute index: Int, to found: inout [Int32]) {
        let position = elementPositions[storage.node(owningAttribute: index)]
        if position >= 0, found.last != position { found.append(position) }
    }

    /// All elements whose `id` is exactly `id`, in document order.
    public func elements(withID id: String) -> [Element] {
        (idIndex[id] ?? []).map { Element(document: self, node: Int($0)) }
    }

    /// How many elements have `id` as their `id`, without listing them: a page can repeat one id
    /// on 100,000 elements, and a caller asking for each of them must not pay for all of them.
    public func elementCount(withID id: String) -> Int {
        idIndex[id]?.count ?? 0
    }

    /// The first element whose `id` is exactly `id`, as `getElementById` finds it.
    public func element(withID id: String) -> Element? {
        idIndex[id]?.first.map { Element(document: self, node: Int($0)) }
    }

    /// The text of the first `<title>` in the document, whitespace as written.
    public var title: String? {
        elements.first { $0.localName == "title" && $0.namespace == .html }?.textContent
    }
}

/// Elements of a document in document order, without materialising an array.
public struct ElementSequence: RandomAccessCollection, Sendable {
    let document: Document
    let range: Range<Int>

    public var startIndex: Int { range.lowerBound }
    public var endIndex: Int { range.upperBound }
    public subscript(position: Int) -> Element { document.element(atPosition: position) }
}
