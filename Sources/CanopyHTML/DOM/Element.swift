/// An element of a `Document`: a light handle (document + node number), cheap to copy and compare.
public struct Element: Hashable, Sendable, CustomStringConvertible {
    public let document: Document
    /// The node number inside the document's document.storage.
    public let node: Int

    init(document: Document, node: Int) {
        self.document = document
        self.node = node
    }

    public static func == (lhs: Element, rhs: Element) -> Bool {
        lhs.node == rhs.node && lhs.document === rhs.document
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(node)
        hasher.combine(ObjectIdentifier(document))
    }

    // Every read goes through `document.storage` itself: through a computed property the
    // optimizer copied the whole storage struct (a retain of each of its arrays) on each
    // attribute read, a tenth of a styled crawl.

    /// Position among all elements in document order: `a.position < b.position` iff `a` comes first.
    public var position: Int { Int(document.elementPositions[node]) }

    /// The local name: lowercase for HTML elements, with SVG's camelCase restored for SVG elements.
    public var localName: String { document.storage.names[node] }
    /// A word that stands for the local name (its length and first seven bytes): equal for equal
    /// names, so a cheap hash input where the name itself is then compared.
    public var localNameKey: UInt64 { document.storage.nameKeys[node] }
    public var namespace: Namespace { document.storage.nodes[node].namespace }
    public var isHTML: Bool { namespace == .html }

    /// The 1-based source line where the element's start tag was.
    public var line: Int { Int(document.storage.nodes[node].line) }

    // MARK: Attributes

    public var attributes: [Attribute] {
        document.storage.attributeRange(node: node).map { Attribute(name: document.storage.attributeNames[$0], value: document.storage.attributeValue(at: $0)) }
    }

    /// Attribute names in source order, without reading their values.
    public var attributeNames: ArraySlice<String> { document.storage.attributeNames[document.storage.attributeRange(node: node)] }

    /// The value of attribute `name` (attribute names of HTML elements are lowercase).
    public func attribute(_ name: String) -> String? { document.storage.attributeValue(node: node, name: name) }

    public func hasAttribute(_ name: String) -> Bool { document.storage.hasAttribute(node: node, name: name) }

    /// `attribute(_:)` with the name's key made once, for callers that ask every element.
    public func attribute(_ name: AttributeName) -> String? {
        document.storage.attributeIndex(node: node, name: name).map(document.storage.attributeValue(at:))
    }

    public func hasAttribute(_ name: AttributeName) -> Bool {
        document.storage.attributeIndex(node: node, name: name) != nil
    }

    public var id: String? { attribute(.id) }

    /// The class names, split on ASCII whitespace as `classList` does.
    public var classNames: [String] {
        guard let value = attribute("class") else { return [] }
        return value.split(whereSeparator: \.isHTMLWhitespace).map(String.init)
    }

    /// Calls `body` with each class name, split on the UTF-8 bytes of ASCII whitespace as `.name`
    /// selectors split it (a vertical tab is not whitespace there): for the cascade's hot paths,
    /// where a Character split would ask Unicode about every character of every class attribute.
    public func forEachClassName(_ body: (Substring) -> Void) {
        guard let value = attribute("class") else { return }
        // A scan rather than `split`, which made an array for each element's one or two names.
        let bytes = value.utf8
        var start = bytes.startIndex
        var index = start
        while index != bytes.endIndex {
            if SelectorMatcher.isASCIIWhitespace(bytes[index]) {
                if start != index { body(Substring(bytes[start..<index])) }
                start = bytes.index(after: index)
            }
            index = bytes.index(after: index)
        }
        if start != bytes.endIndex { body(Substring(bytes[start..<bytes.endIndex])) }
    }

    /// The values of the attributes `names` lists (the first attribute of each name), in the
    /// order of the list, read in one pass over the element's attributes: for callers that ask
    /// for a dozen names of every element they describe.
    public func attributeValues(_ names: AttributeNameList) -> [String?] {
        var values = [String?](repeating: nil, count: names.names.count)
        forEachAttribute(in: names) { slot, index in values[slot] = document.storage.attributeValue(at: index) }
        return values
    }

    /// `attributeValues` as UTF-8 bytes, written into `values` (its old content replaced), for
    /// callers that hash or scan the values of many elements: a string for each value of every
    /// link described was a fifth of a fingerprint (perf), and a new array for each element a
    /// tenth, allocated, filled and released (callgrind).
    public func attributeBytes(_ names: AttributeNameList, into values: inout [ArraySlice<UInt8>?]) {
        if values.count == names.names.count {
            for slot in values.indices { values[slot] = nil }
        } else {
            values = Array(repeating: nil, count: names.names.count)
        }
        forEachAttribute(in: names) { slot, index in values[slot] = document.storage.attributeBytes(at: index) }
    }

    /// Calls `body` with the slot in `names` and the storage index of the first attribute of
    /// each listed name the element has, in one pass over its attributes.
    @inline(__always)
    private func forEachAttribute(in names: AttributeNameList, _ body: (_ slot: Int, _ index: Int) -> Void) {
        var found: UInt64 = 0  // a bit per slot already given (lists hold at most 64 names)
        let storage = document.storage
        for index in storage.attributeRange(node: node) {
            let key = storage.attributeNameKeys[index]
            for (slot, wanted) in names.names.enumerated() where found & (1 << UInt64(slot)) == 0
                && NameKey.same(key, storage.attributeNames[index], as: wanted.key, wanted.name) {
                found |= 1 << UInt64(slot)
                body(slot, index)
            }
        }
    }

    /// The UTF-8 bytes of attribute `name`'s value, without making a string.
    public func attributeBytes(_ name: String) -> ArraySlice<UInt8>? {
        document.storage.attributeIndex(node: node, name: name).map(document.storage.attributeBytes(at:))
    }

    /// `attributeBytes(_:)` by a name whose key is made once.
    public func attributeBytes(_ name: AttributeName) -> ArraySlice<UInt8>? {
        document.storage.attributeIndex(node: node, name: name).map(document.storage.attributeBytes(at:))
    }

    /// Calls `body` with the UTF-8 bytes of each class name, split as `forEachClassName` splits:
    /// for lookups in tables keyed by bytes (`ByteStringTable`), with no string per name.
    public func forEachClassNameBytes(_ body: (ArraySlice<UInt8>) -> Void) {
        guard let value = attributeBytes(.class) else { return }
        SelectorMatcher.forEachWord(in: value) { name in
            body(name)
            return true
        }
    }

    // MARK: Tree

    /// The parent element (nil for `<html>`, whose parent is the document).
    public var parent: Element? {
        document.storage.parentElement(of: node).map { Element(document: document, node: Int($0)) }
    }

    /// The parent's position, without making the parent (see `Document.parentPosition(ofPosition:)`).
    public var parentPosition: Int? { document.parentPosition(ofNode: node) }

    /// Ancestors from the parent up to `<html>`.
    public var ancestors: AncestorSequence { AncestorSequence(start: parent) }

    /// Child nodes (elements, text, comments) in order.
    public var childNodes: ChildNodes { ChildNodes(document: document, first: document.storage.nodes[node].firstChild) }

    /// Whether some text node child satisfies `predicate`, without listing the children: asked
    /// of every element of a page, a list each time was the cost of the question.
    public func containsTextChild(where predicate: (String) -> Bool) -> Bool {
        containsTextChild(whereBytes: { predicate(String(decoding: $0, as: UTF8.self)) })
    }

    /// `containsTextChild(where:)` given each text child's UTF-8 bytes, without making a string:
    /// the contrast rule asks it of every element of every page.
    public func containsTextChild(whereBytes predicate: (ArraySlice<UInt8>) -> Bool) -> Bool {
        var found = false
        forEachTextChild { bytes in
            found = predicate(bytes)
            return !found
        }
        return found
    }

    /// The text of the element's text node children, in order (not its descendants' text),
    /// without listing the children: fingerprints and the contrast rule ask it of many elements.
    public var textOfTextChildren: String {
        var text = ""
        forEachTextChild { bytes in
            let part = String(decoding: bytes, as: UTF8.self)
            if text.isEmpty { text = part } else { text += part }
            return true
        }
        return text
    }

    /// `textOfTextChildren` as UTF-8 bytes, for callers that fold or scan them without a string.
    public var utf8OfTextChildren: [UInt8] {
        var text: [UInt8] = []
        appendUTF8OfTextChildren(to: &text)
        return text
    }

    /// Appends `utf8OfTextChildren` to `text`: for callers that reuse one buffer across elements.
    public func appendUTF8OfTextChildren(to text: inout [UInt8]) {
        forEachTextChild { bytes in
            text.append(contentsOf: bytes)
            return true
        }
    }

    /// Calls `body` with the UTF-8 bytes of each text node child, in order, while it returns true.
    private func forEachTextChild(_ body: (ArraySlice<UInt8>) -> Bool) {
        let storage = document.storage
        var child = storage.nodes[node].firstChild
        while child >= 0 {
            if storage.nodes[Int(child)].kind == .text, !body(storage.textBytes[storage.textRange(of: Int(child))]) { return }
            child = storage.nodes[Int(child)].nextSibling
        }
    }

    /// Element children in order.
    public var children: ElementChildren { ElementChildren(first: firstElementChild) }

    public var firstElementChild: Element? { firstElement(from: document.storage.nodes[node].firstChild, forward: true) }
    public var lastElementChild: Element? { firstElement(from: document.storage.nodes[node].lastChild, forward: false) }
    public var nextElementSibling: Element? { firstElement(from: document.storage.nodes[node].nextSibling, forward: true) }
    public var previousElementSibling: Element? { firstElement(from: document.storage.nodes[node].previousSibling, forward: false) }

    private func firstElement(from start: Int32, forward: Bool) -> Element? {
        document.storage.firstElement(from: start, forward: forward).map { Element(document: document, node: Int($0)) }
    }

    /// All descendant elements in document order.
    public var descendants: ElementSequence {
        let start = position + 1
        return ElementSequence(document: document, range: start..<descendantEndPosition)
    }

    /// Document-order position just past this element's last descendant.
    var descendantEndPosition: Int {
        // Node numbers are pre-order, so the subtree ends where the next node outside it begins.
        var current = node
        while current >= 0 {
            let next = document.storage.nodes[current].nextSibling
            if next >= 0 { return firstElementPosition(atOrAfterNode: Int(next)) }
            current = Int(document.storage.nodes[current].parent)
        }
        return document.elementCount
    }

    private func firstElementPosition(atOrAfterNode start: Int) -> Int {
        var candidate = start
        while candidate < document.storage.count {
            let position = document.elementPositions[candidate]
            if position >= 0 { return Int(position) }
            candidate += 1
        }
        return document.elementCount
    }

    /// Whether `self` is a strict descendant of `other`.
    public func isDescendant(of other: Element) -> Bool {
        guard other.document === document else { return false }
        let position = self.position
        return position > other.position && position < other.descendantEndPosition
    }

    /// Whether the element has no child elements and no text (comments do not count), as `:empty` reads it.
    public var hasNoContent: Bool {
        var child = document.storage.nodes[node].firstChild
        while child >= 0 {
            switch document.storage.nodes[Int(child)].kind {
            case .element: return false
            case .text where document.storage.hasText(Int(child)): return false
            default: break
            }
            child = document.storage.nodes[Int(child)].nextSibling
        }
        return true
    }

    /// The concatenated text of all descendant text nodes, as `textContent` gives it.
    public var textContent: String {
        var text: [UInt8] = []
        appendText(of: node, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends the UTF-8 bytes of `textContent` to `text`, for callers that gather the text of
    /// many elements and would otherwise make a string of each.
    public func appendTextContent(to text: inout [UInt8]) {
        appendText(of: node, to: &text)
    }

    private func appendText(of start: Int, to text: inout [UInt8]) {
        // Iterative pre-order walk: real pages nest deeply enough to overflow a recursive one.
        var current = document.storage.nodes[start].firstChild
        while current >= 0 {
            let index = Int(current)
            if document.storage.nodes[index].kind == .text {
                text.append(contentsOf: document.storage.textBytes[document.storage.textRange(of: index)])
            }
            if document.storage.nodes[index].firstChild >= 0 {
                current = document.storage.nodes[index].firstChild
                continue
            }
            while current >= 0, document.storage.nodes[Int(current)].nextSibling < 0 {
                current = document.storage.nodes[Int(current)].parent
                if Int(current) == start { return }
            }
            if current >= 0 { current = document.storage.nodes[Int(current)].nextSibling }
        }
    }

    public var description: String { "<\(localName)>@\(line)" }
}

/// The child nodes of an element, in order, read from the tree as they are walked: most
/// questions about children stop early or look at each once, and a list of them for each
/// question was 1% of a styled crawl's instructions (callgrind, 300 java.base pages).
public struct ChildNodes: Collection, Sendable {
    private let document: Document
    private let first: Int32

    init(document: Document, first: Int32) {
        self.document = document
        self.first = first
    }

    public var startIndex: SiblingIndex { SiblingIndex(first: first) }
    public var endIndex: SiblingIndex { .end }
    public subscript(index: SiblingIndex) -> Node { Node(document: document, node: Int(index.node)) }
    public func index(after index: SiblingIndex) -> SiblingIndex {
        index.next(document.storage.nodes[Int(index.node)].nextSibling)
    }
}

/// The element children of an element, in order, read from the tree as they are walked.
public struct ElementChildren: Collection, Sendable {
    private let first: Element?

    init(first: Element?) { self.first = first }

    public var startIndex: SiblingIndex { first.map { SiblingIndex(first: Int32($0.node)) } ?? .end }
    public var endIndex: SiblingIndex { .end }
    public subscript(index: SiblingIndex) -> Element { Element(document: first!.document, node: Int(index.node)) }
    public func index(after index: SiblingIndex) -> SiblingIndex {
        index.next(self[index].nextElementSibling.map { Int32($0.node) } ?? -1)
    }
}

/// A place among an element's children: the how-manyth child it is, and the child's node.
/// Ordered by the count, not the node: a repaired tree's children need not be in storage order.
public struct SiblingIndex: Comparable, Sendable {
    fileprivate let ordinal: Int
    fileprivate let node: Int32

    fileprivate init(first: Int32) {
        self = first >= 0 ? SiblingIndex(ordinal: 0, node: first) : .end
    }

    private init(ordinal: Int, node: Int32) {
        self.ordinal = ordinal
        self.node = node
    }

    fileprivate static let end = SiblingIndex(ordinal: .max, node: -1)

    fileprivate func next(_ node: Int32) -> SiblingIndex { node >= 0 ? SiblingIndex(ordinal: ordinal + 1, node: node) : .end }

    public static func < (lhs: SiblingIndex, rhs: SiblingIndex) -> Bool { lhs.ordinal < rhs.ordinal }
    public static func == (lhs: SiblingIndex, rhs: SiblingIndex) -> Bool { lhs.ordinal == rhs.ordinal }
}

/// The ancestors of an element, nearest first.
public struct AncestorSequence: Sequence, IteratorProtocol, Sendable {
    private var upcoming: Element?

    init(start: Element?) { upcoming = start }

    public mutating func next() -> Element? {
        let current = upcoming
        upcoming = current?.parent
        return current
    }
}

/// Any node of the tree: an element, a run of text, or a comment.
public struct Node: Hashable, Sendable {
    public let document: Document
    public let node: Int

    public static func == (lhs: Node, rhs: Node) -> Bool { lhs.node == rhs.node && lhs.document === rhs.document }
    public func hash(into hasher: inout Hasher) { hasher.combine(node) }

    public var kind: NodeKind { document.storage.nodes[node].kind }
    /// The element, if this node is one.
    public var element: Element? { kind == .element ? Element(document: document, node: node) : nil }
    /// The text of a text or comment node ("" for elements).
    public var text: String { document.storage.text(of: node) }

    /// The UTF-8 bytes of `text`, without making a string.
    public var textBytes: ArraySlice<UInt8> { document.storage.textBytes[document.storage.textRange(of: node)] }

    /// Appends the UTF-8 bytes of `text` to `bytes`, without making a string.
    public func appendText(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: document.storage.textBytes[document.storage.textRange(of: node)])
    }
}

extension Character {
    /// ASCII whitespace as HTML defines it: space, tab, LF, FF, CR.
    public var isHTMLWhitespace: Bool {
        self == " " || self == "\t" || self == "\n" || self == "\u{0C}" || self == "\r" || self == "\r\n"
    }
}

extension StringProtocol {
    /// Whether each UTF-8 byte is one character: ASCII without a CR (which joins a following LF
    /// into one). Text that is can be split, searched and counted on its bytes exactly as by
    /// characters, which is many times cheaper; fast paths ask this before taking that way.
    public var isOneCharacterPerByte: Bool { utf8.allSatisfy { $0 < 0x80 && $0 != 0x0D } }
}

/// An attribute name with its key worked out once: the rules, the cascade and fingerprints ask
/// every element of a page for a handful of attributes, and making the key from the name each
/// time was more than half of such a lookup (1.3 million of them on 300 pages).
public struct AttributeName: Sendable {
    let name: String
    let key: UInt64

    public init(_ name: String) {
        self.name = name
        key = NameKey.of(name)
    }

    public static let id = AttributeName("id")
    public static let `class` = AttributeName("class")
    public static let role = AttributeName("role")
    public static let type = AttributeName("type")
    public static let style = AttributeName("style")
    public static let href = AttributeName("href")
    public static let disabled = AttributeName("disabled")
    public static let ariaDisabled = AttributeName("aria-disabled")
    public static let ariaLabel = AttributeName("aria-label")
    public static let dataTestID = AttributeName("data-testid")
}

/// Attribute names to read together with `Element.attributeValues(_:)`, their keys worked out once.
public struct AttributeNameList: Sendable {
    let names: [AttributeName]

    public init(_ names: [String]) {
        precondition(names.count <= 64, "an attribute name list holds at most 64 names")
        self.names = names.map(AttributeName.init)
    }
}
