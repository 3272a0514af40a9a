extension Element {
    /// The element's markup as the HTML serializer writes it (attribute values and text escaped).
    public var outerHTML: String {
        var output = ""
        serialize(into: &output, limit: Int.max)
        return output
    }

    /// A snippet for reports: the whole `outerHTML` when it is at most `maxLength` characters,
    /// otherwise the start tag alone, itself cut to `maxLength` with "…" when still too long.
    public func snippet(maxLength: Int = 300) -> String {
        asciiSnippet(maxLength: maxLength) ?? characterSnippet(maxLength: maxLength)
    }

    /// `snippet(maxLength:)` for any markup, lengths counted in Characters.
    func characterSnippet(maxLength: Int) -> String {
        let startTag = self.startTag
        let startLength = startTag.count
        if startLength > maxLength { return String(startTag.prefix(maxLength - 1)) + "…" }
        var output = ""
        if serialize(into: &output, limit: maxLength) { return output }
        return startTag + (hasNoContent && !isVoid ? "</\(localName)>" : "")
    }

    /// The shape of the element's subtree: element names alone, children in parentheses
    /// (`html(head(title) body(main(h1 p)))`). Compared with the tree an HTML5 parser builds by
    /// `benchmarks/check-tree.py` and the ACT tree test. Iterative, for trees of any depth.
    public var elementOutline: String {
        var output = localName
        // Each entry: the next child to write at that level, and whether it is the level's first.
        var pending: [(next: Element?, isFirst: Bool)] = []
        if let first = firstElementChild {
            output += "("
            pending.append((first, true))
        }
        while let (next, isFirst) = pending.popLast() {
            guard let element = next else {
                output += ")"
                continue
            }
            if !isFirst { output += " " }
            output += element.localName
            pending.append((element.nextElementSibling, false))
            if let child = element.firstElementChild {
                output += "("
                pending.append((child, true))
            }
        }
        return output
    }

    /// The start tag, e.g. `<img src="a.png" alt="">`.
    public var startTag: String {
        var output = "<" + localName
        for attribute in attributes {
            output += " " + attribute.name + "=\"" + Self.escape(attribute.value, inAttribute: true) + "\""
        }
        return output + ">"
    }

    private var isVoid: Bool { isHTML && SelfClosingTagRewriter.voidElements.contains(localName) }

    /// Writes the element's markup; stops and returns false once it exceeds `limit` characters.
    @discardableResult
    private func serialize(into output: inout String, limit: Int) -> Bool {
        // Iterative, with an explicit stack of open elements, so deep trees cannot overflow.
        let storage = self.document.storage
        var length = 0
        func write(_ piece: String) -> Bool {
            output += piece
            if limit != Int.max { length += piece.count }
            return length <= limit
        }
        var stack: [(node: Int, closed: Bool)] = [(node, false)]
        while let (current, closed) = stack.popLast() {
            switch storage.nodes[current].kind {
            case .element:
                let element = Element(document: document, node: current)
                if closed {
                    guard write("</" + element.localName + ">") else { return false }
                    continue
                }
                guard write(element.startTag) else { return false }
                if element.isVoid { continue }
                stack.append((current, true))
                var children: [Int] = []
                var child = storage.nodes[current].firstChild
                while child >= 0 {
                    children.append(Int(child))
                    child = storage.nodes[Int(child)].nextSibling
                }
                stack.append(contentsOf: children.reversed().map { ($0, false) })
            case .text:
                let parentName = storage.names[Int(storage.nodes[current].parent)]
                let raw = ["script", "style", "xmp", "iframe", "noembed", "noframes", "plaintext"].contains(parentName)
                let text = storage.text(of: current)
                guard write(raw ? text : Self.escape(text, inAttribute: false)) else { return false }
            case .comment:
                guard write("<!--" + storage.text(of: current) + "-->") else { return false }
            case .document:
                break
            }
        }
        return true
    }

    /// `snippet(maxLength:)` written on bytes, for markup that is ASCII without carriage returns,
    /// where a byte is a Character: nil for any other markup, which takes the general path. One
    /// snippet is made for every finding, and the general path's string pieces, each counted in
    /// Characters, cost more than the rest of a finding's description (6 µs on javadoc's pages).
    func asciiSnippet(maxLength: Int) -> String? {
        guard maxLength > 0 else { return nil }
        let storage = document.storage
        var output: [UInt8] = []
        output.reserveCapacity(maxLength + 16)
        guard appendASCIIStartTag(of: node, to: &output) else { return nil }
        let startTagLength = output.count
        if startTagLength > maxLength {
            return String(decoding: output[0..<maxLength - 1], as: UTF8.self) + "…"
        }
        // Depth-first over the subtree, as `serialize` goes, but on node numbers; over the limit
        // the snippet is the start tag alone, as there.
        var fits = !isVoid
        if fits {
            var current = storage.nodes[node].firstChild
            walk: while current >= 0 {
                let index = Int(current)
                let record = storage.nodes[index]
                switch record.kind {
                case .element:
                    guard appendASCIIStartTag(of: index, to: &output) else { return nil }
                case .text:
                    let raw = Self.rawTextParents.contains(storage.names[Int(record.parent)])
                    guard Self.appendASCIIText(storage.textBytes[storage.textRange(of: index)], escaping: !raw, to: &output) else { return nil }
                case .comment:
                    output.append(contentsOf: "<!--".utf8)
                    guard Self.appendASCIIText(storage.textBytes[storage.textRange(of: index)], escaping: false, to: &output) else { return nil }
                    output.append(contentsOf: "-->".utf8)
                case .document:
                    break
                }
                if output.count > maxLength { fits = false; break walk }
                let descends = record.kind == .element && !Element(document: document, node: index).isVoid
                if descends, record.firstChild >= 0 {
                    current = record.firstChild
                    continue
                }
                if descends { Self.appendEndTag(storage.names[index], to: &output) }
                // Up past finished elements, closing each, to the next sibling.
                var climbing = index
                while storage.nodes[climbing].nextSibling < 0 {
                    climbing = Int(storage.nodes[climbing].parent)
                    if climbing == node { break walk }
                    Self.appendEndTag(storage.names[climbing], to: &output)
                }
                current = storage.nodes[climbing].nextSibling
            }
        }
        if fits {
            Self.appendEndTag(localName, to: &output)
            fits = output.count <= maxLength
        }
        if !fits {
            output.removeSubrange(startTagLength...)
            if hasNoContent && !isVoid { Self.appendEndTag(localName, to: &output) }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Parents whose text the serializer writes unescaped.
    private static let rawTextParents: Set<String> = ["script", "style", "xmp", "iframe", "noembed", "noframes", "plaintext"]

    private static func appendEndTag(_ name: String, to output: inout [UInt8]) {
        output.append(contentsOf: "</".utf8)
        output.append(contentsOf: name.utf8)
        output.append(UInt8(ascii: ">"))
    }

    /// `startTag` of `node` appended as bytes; false when a name or value is not ASCII or holds a carriage return.
    private func appendASCIIStartTag(of node: Int, to output: inout [UInt8]) -> Bool {
        let storage = document.storage
        output.append(UInt8(ascii: "<"))
        guard Self.appendASCIIName(storage.names[node], to: &output) else { return false }
        for index in storage.attributeRange(node: node) {
            output.append(UInt8(ascii: " "))
            guard Self.appendASCIIName(storage.attributeNames[index], to: &output) else { return false }
            output.append(contentsOf: "=\"".utf8)
            guard appendASCIIAttributeValue(storage.attributeBytes(at: index), to: &output) else { return false }
            output.append(UInt8(ascii: "\""))
        }
        output.append(UInt8(ascii: ">"))
        return true
    }

    private static func appendASCIIName(_ name: String, to output: inout [UInt8]) -> Bool {
        for byte in name.utf8 {
            guard byte < 0x80, byte != 0x0D else { return false }
            output.append(byte)
        }
        return true
    }

    private func appendASCIIAttributeValue(_ value: ArraySlice<UInt8>, to output: inout [UInt8]) -> Bool {
        for byte in value {
            switch byte {
            case UInt8(ascii: "&"): output.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "\""): output.append(contentsOf: "&quot;".utf8)
            case 0x0D, 0x80...: return false
            default: output.append(byte)
            }
        }
        return true
    }

    private static func appendASCIIText(_ text: ArraySlice<UInt8>, escaping: Bool, to output: inout [UInt8]) -> Bool {
        for byte in text {
            switch byte {
            case 0x0D, 0x80...: return false
            case UInt8(ascii: "&") where escaping: output.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "<") where escaping: output.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">") where escaping: output.append(contentsOf: "&gt;".utf8)
            default: output.append(byte)
            }
        }
        return true
    }

    static func escape(_ text: String, inAttribute: Bool) -> String {
        guard text.contains(where: { $0 == "&" || $0 == "<" || $0 == ">" || $0 == "\"" || $0 == "\u{A0}" }) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "\u{A0}": result += "&nbsp;"
            case "\"" where inAttribute: result += "&quot;"
            case "<" where !inAttribute: result += "&lt;"
            case ">" where !inAttribute: result += "&gt;"
            default: result.append(character)
            }
        }
        return result
    }
}
