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

/// The flat arrays behind a `Document`. Node 0 is the document node; -1 means "none".
struct NodeStorage: Sendable {
    var kinds: [NodeKind] = []
    var parent: [Int32] = []
    var firstChild: [Int32] = []
    var lastChild: [Int32] = []
    var nextSibling: [Int32] = []
    var previousSibling: [Int32] = []
    /// Element local name, or "" for other nodes.
    var names: [String] = []
    var namespaces: [Namespace] = []
    /// The UTF-8 text of all text and comment nodes, one after another; node n's text is
    /// `textBytes[textStart[n] ..< textStart[n] + textLength[n]]`. Strings are made on access, as
    /// most text is never read by a rule.
    var textBytes: [UInt8] = []
    var textStart: [Int32] = []
    var textLength: [Int32] = []
    var lines: [Int32] = []
    /// Attributes of node n are `attributes[attributeStart[n] ..< attributeStart[n + 1]]`.
    var attributeStart: [Int32] = [0]
    var attributes: [Attribute] = []
    /// Every `id` attribute with its element, in document order, collected while building.
    var ids: [(value: String, node: Int32)] = []

    var count: Int { kinds.count }

    init() {}

    init(estimatedNodes: Int) {
        kinds.reserveCapacity(estimatedNodes)
        parent.reserveCapacity(estimatedNodes)
        firstChild.reserveCapacity(estimatedNodes)
        lastChild.reserveCapacity(estimatedNodes)
        nextSibling.reserveCapacity(estimatedNodes)
        previousSibling.reserveCapacity(estimatedNodes)
        names.reserveCapacity(estimatedNodes)
        namespaces.reserveCapacity(estimatedNodes)
        textStart.reserveCapacity(estimatedNodes)
        textLength.reserveCapacity(estimatedNodes)
        lines.reserveCapacity(estimatedNodes)
        attributeStart.reserveCapacity(estimatedNodes + 1)
    }

    /// Appends a node as the last child of `parentNode` (or as the document node when -1).
    /// Node numbers grow in document order as long as nodes are appended in a pre-order walk.
    @discardableResult
    mutating func append(
        kind: NodeKind, parent parentNode: Int32, name: String = "", namespace: Namespace = .html,
        text: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0), line: Int32 = 0
    ) -> Int32 {
        let node = Int32(kinds.count)
        kinds.append(kind)
        parent.append(parentNode)
        firstChild.append(-1)
        lastChild.append(-1)
        nextSibling.append(-1)
        names.append(name)
        namespaces.append(namespace)
        textStart.append(Int32(textBytes.count))
        textLength.append(Int32(text.count))
        textBytes.append(contentsOf: text)
        lines.append(line)
        attributeStart.append(Int32(attributes.count))
        if parentNode >= 0 {
            let previous = lastChild[Int(parentNode)]
            previousSibling.append(previous)
            if previous >= 0 { nextSibling[Int(previous)] = node } else { firstChild[Int(parentNode)] = node }
            lastChild[Int(parentNode)] = node
        } else {
            previousSibling.append(-1)
        }
        return node
    }

    /// Extends the text of the most recently appended node, which must be a text node.
    mutating func appendToLastText(_ text: UnsafeBufferPointer<UInt8>) {
        textLength[kinds.count - 1] += Int32(text.count)
        textBytes.append(contentsOf: text)
    }

    func text(of node: Int) -> String {
        let start = Int(textStart[node])
        return String(decoding: textBytes[start..<start + Int(textLength[node])], as: UTF8.self)
    }

    func hasText(_ node: Int) -> Bool { textLength[node] > 0 }

    /// Adds an attribute to the most recently appended node.
    mutating func appendAttribute(_ attribute: Attribute) {
        if attribute.name == "id" { ids.append((attribute.value, Int32(kinds.count - 1))) }
        attributes.append(attribute)
        attributeStart[attributeStart.count - 1] = Int32(attributes.count)
    }

    func attributeRange(node: Int) -> Range<Int> {
        Int(attributeStart[node])..<Int(attributeStart[node + 1])
    }

    func attributeValue(node: Int, name: String) -> String? {
        for index in attributeRange(node: node) where attributes[index].name == name {
            return attributes[index].value
        }
        return nil
    }
}
