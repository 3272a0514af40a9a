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
        let startTag = self.startTag
        let startLength = startTag.count
        if startLength > maxLength { return String(startTag.prefix(maxLength - 1)) + "…" }
        var output = ""
        if serialize(into: &output, limit: maxLength) { return output }
        return startTag + (hasNoContent && !isVoid ? "</\(localName)>" : "")
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
