/// What a node of the tree is.
public enum NodeKind: UInt8, Sendable {
    case document, element, text, comment
}

/// The namespace an element lives in, as an HTML5 parser would assign it.
public enum Namespace: UInt8, Sendable {
    case html, svg, mathml
}

/// One attribute of an element, name lowercased for HTML elements.
public struct Attribute: Hashable, Sendable {
    public let name: String
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// The links and facts of one node, kept together so that adding a node is one append.
struct NodeRecord {
    var kind: NodeKind
    var namespace: Namespace
    var parent: Int32
    var firstChild: Int32 = -1
    var lastChild: Int32 = -1
    var nextSibling: Int32 = -1
    var previousSibling: Int32 = -1
    var line: Int32
    /// Text of text and comment nodes: `textBytes[textStart ..< textStart + textLength]`.
    var textStart: Int32
    var textLength: Int32
}

/// The flat arrays behind a `Document`. Node 0 is the document node; -1 means "none".
///
/// A class, not a struct: every read of a struct held in a `Document`'s `let` copied it first,
/// a retain and a release of each of its arrays (4% of a styled crawl, in `Element.attribute`).
/// Written only while a page is built, by one thread; a `Document` holds it read-only from
/// then on, which is what makes sharing it between threads safe.
final class NodeStorage: @unchecked Sendable {
    var nodes: [NodeRecord] = []
    /// Element local name, or "" for other nodes.
    var names: [String] = []
    /// `NameKey` of each node's name.
    var nameKeys: [UInt64] = []
    /// The UTF-8 text of all text and comment nodes and attribute values, one after another.
    /// Strings are made on access, as most text is never read by a rule.
    var textBytes: [UInt8] = []
    /// Attributes of node n are numbers `attributeStart[n] ..< attributeStart[n + 1]`: a name,
    /// and a value kept as bytes in `textBytes` until a rule asks for it.
    var attributeStart: [Int32] = [0]
    var attributeNames: [String] = []
    /// `NameKey` of each attribute's name.
    var attributeNameKeys: [UInt64] = []
    var attributeValueStart: [Int32] = []
    var attributeValueLength: [Int32] = []
    /// Every `id` attribute with its element, in document order, collected while building.
    var ids: [(value: String, node: Int32)] = []

    var count: Int { nodes.count }

    init() {}

    /// Storage for a copy of a tree of `nodeCount` nodes and `attributeCount` attributes.
    init(nodeCount: Int, attributeCount: Int) {
        nodes.reserveCapacity(nodeCount)
        names.reserveCapacity(nodeCount)
        nameKeys.reserveCapacity(nodeCount)
        attributeStart.reserveCapacity(nodeCount + 1)
        attributeNames.reserveCapacity(attributeCount)
        attributeNameKeys.reserveCapacity(attributeCount)
        attributeValueStart.reserveCapacity(attributeCount)
        attributeValueLength.reserveCapacity(attributeCount)
    }

    /// Storage sized for a page of `inputBytes` bytes of UTF-8, from what javadoc's pages hold
    /// (java.lang: a node per 20.5 bytes, at most one per 17.6; an attribute per 70 bytes; text
    /// and attribute values two thirds of the bytes), a little over: arrays that outgrow their
    /// capacity are copied whole, twice or three times on a typical page. Capacity never
    /// written takes no memory: large arrays are mapped pages the system fills when touched.
    init(reservingFor inputBytes: Int) {
        let nodeCount = inputBytes / 16 + 16
        nodes.reserveCapacity(nodeCount)
        names.reserveCapacity(nodeCount)
        nameKeys.reserveCapacity(nodeCount)
        attributeStart.reserveCapacity(nodeCount + 1)
        let attributeCount = inputBytes / 48 + 16
        attributeNames.reserveCapacity(attributeCount)
        attributeNameKeys.reserveCapacity(attributeCount)
        attributeValueStart.reserveCapacity(attributeCount)
        attributeValueLength.reserveCapacity(attributeCount)
        textBytes.reserveCapacity(inputBytes * 3 / 4 + 64)
    }

    /// Appends a node as the last child of `parentNode` (or as the document node when -1).
    /// Node numbers grow in document order as long as nodes are appended in a pre-order walk.
    @discardableResult
    func append(
        kind: NodeKind, parent parentNode: Int32, name: String = "", nameKey: UInt64? = nil, namespace: Namespace = .html,
        text: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0), line: Int32 = 0
    ) -> Int32 {
        let node = Int32(nodes.count)
        var record = NodeRecord(
            kind: kind, namespace: namespace, parent: parentNode, line: line, textStart: Int32(textBytes.count),
            textLength: Int32(text.count)
        )
        if parentNode >= 0 {
            let previous = nodes[Int(parentNode)].lastChild
            record.previousSibling = previous
            if previous >= 0 { nodes[Int(previous)].nextSibling = node } else { nodes[Int(parentNode)].firstChild = node }
            nodes[Int(parentNode)].lastChild = node
        }
        nodes.append(record)
        names.append(name)
        nameKeys.append(nameKey ?? NameKey.of(name))
        if !text.isEmpty { textBytes.append(contentsOf: text) }
        attributeStart.append(Int32(attributeNames.count))
        return node
    }

    /// Extends the text of the most recently appended node, which must be a text node.
    func appendToLastText(_ text: UnsafeBufferPointer<UInt8>) {
        nodes[nodes.count - 1].textLength += Int32(text.count)
        textBytes.append(contentsOf: text)
    }

    func text(of node: Int) -> String {
        String(decoding: textBytes[textRange(of: node)], as: UTF8.self)
    }

    /// Where the text of a text or comment node lies in `textBytes`.
    func textRange(of node: Int) -> Range<Int> {
        let record = nodes[node]
        let start = Int(record.textStart)
        return start..<start + Int(record.textLength)
    }

    func hasText(_ node: Int) -> Bool { nodes[node].textLength > 0 }

    /// Adds an attribute to the most recently appended node.
    func appendAttribute(name: String, key: UInt64? = nil, value: UnsafeBufferPointer<UInt8>) {
        let start = Int32(textBytes.count)
        if !value.isEmpty { textBytes.append(contentsOf: value) }
        appendAttribute(name: name, key: key, valueStart: start, valueLength: Int32(value.count))
    }

    /// Adds an attribute whose value is already in `textBytes`.
    func appendAttribute(name: String, key: UInt64? = nil, valueStart: Int32, valueLength: Int32) {
        attributeNames.append(name)
        attributeNameKeys.append(key ?? NameKey.of(name))
        attributeValueStart.append(valueStart)
        attributeValueLength.append(valueLength)
        attributeStart[attributeStart.count - 1] = Int32(attributeNames.count)
        if name == "id" { ids.append((attributeValue(at: attributeNames.count - 1), Int32(nodes.count - 1))) }
    }

    func attributeValue(at index: Int) -> String {
        let start = Int(attributeValueStart[index])
        return String(decoding: textBytes[start..<start + Int(attributeValueLength[index])], as: UTF8.self)
    }

    /// The UTF-8 bytes of attribute `index`'s value, without making a string.
    func attributeBytes(at index: Int) -> ArraySlice<UInt8> {
        let start = Int(attributeValueStart[index])
        return textBytes[start..<start + Int(attributeValueLength[index])]
    }

    func attributeRange(node: Int) -> Range<Int> {
        Int(attributeStart[node])..<Int(attributeStart[node + 1])
    }

    /// The node an attribute (by its number) belongs to: the last node whose run starts at or
    /// before it, found by binary search over `attributeStart`.
    func node(owningAttribute index: Int) -> Int {
        var low = 0, high = attributeStart.count - 2  // attributeStart has one entry per node, plus one
        while low < high {
            let middle = (low + high + 1) / 2
            if Int(attributeStart[middle]) <= index { low = middle } else { high = middle - 1 }
        }
        return low
    }

    func attributeValue(node: Int, name: String) -> String? {
        attributeIndex(node: node, name: name).map(attributeValue(at:))
    }

    func hasAttribute(node: Int, name: String) -> Bool {
        attributeIndex(node: node, name: name) != nil
    }

    func attributeIndex(node: Int, name: String) -> Int? {
        attributeIndex(node: node, name: name, key: NameKey.of(name))
    }

    func attributeIndex(node: Int, name: AttributeName) -> Int? {
        attributeIndex(node: node, name: name.name, key: name.key)
    }

    /// `attributeIndex(node:name:)` with the name's key made once by the caller.
    func attributeIndex(node: Int, name: String, key: UInt64) -> Int? {
        for index in attributeRange(node: node) where NameKey.same(attributeNameKeys[index], attributeNames[index], as: key, name) {
            return index
        }
        return nil
    }

    /// The parent of `node` when it is an element (nil under the document node): what both an
    /// element's `parent` and the document's walks by position climb to.
    func parentElement(of node: Int) -> Int32? {
        let parent = nodes[node].parent
        return parent >= 0 && nodes[Int(parent)].kind == .element ? parent : nil
    }

    /// The first element among `node` and the siblings after it (before it when not `forward`).
    func firstElement(from node: Int32, forward: Bool) -> Int32? {
        var current = node
        while current >= 0 {
            if nodes[Int(current)].kind == .element { return current }
            current = forward ? nodes[Int(current)].nextSibling : nodes[Int(current)].previousSibling
        }
        return nil
    }

    func nodeHasName(_ node: Int, _ name: String, key: UInt64) -> Bool {
        NameKey.same(nameKeys[node], names[node], as: key, name)
    }
}

/// A name's length and first seven UTF-8 bytes packed in a word, kept beside every element and
/// attribute name. Rules compare names all the time, mostly unequal ones, and Swift's `==` on two
/// different strings takes a slow general path; two words compare in one instruction. Equal keys
/// decide equality for names of up to seven bytes (nearly every HTML element and attribute name);
/// longer ones are confirmed with `==`.
enum NameKey {
    static func of(_ name: String) -> UInt64 {
        // Over the UTF-8 buffer, not the view: asked for the name of every attribute read (2% of a
        // styled crawl when the bytes were iterated one view index at a time). Read in place when
        // the string allows it: a mutable copy for `withUTF8` retained and released the string
        // on each of two million asks per 300 pages.
        if let key = name.utf8.withContiguousStorageIfAvailable(key(of:)) { return key }
        var name = name
        return name.withUTF8(key(of:))
    }

    private static func key(of bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var key: UInt64 = 0
        for index in 0..<min(bytes.count, 7) { key |= UInt64(bytes[index]) << (8 * UInt64(index)) }
        return key | (UInt64(min(bytes.count, 255)) << 56)
    }

    @inline(__always)
    static func same(_ key: UInt64, _ name: String, as otherKey: UInt64, _ other: String) -> Bool {
        key == otherKey && (key >> 56 <= 7 || name == other)
    }
}
