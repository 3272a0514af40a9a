extension Element {
    /// The element's markup as the HTML serializer writes it (attribute values and text escaped).
    public var outerHTML: String {
        var output = ""
        serialize(node: node, into: &output, limit: Int.max)
        return output
    }

    /// A snippet for reports: the whole `outerHTML` when it is at most `maxLength` characters,
    /// otherwise the start tag alone, itself cut to `maxLength` with "…" when still too long.
    public func snippet(maxLength: Int = 300) -> String {
        var output = ""
        serialize(node: node, into: &output, limit: maxLength + 1)
        if output.count <= maxLength { return output }
        let startTag = self.startTag
        if startTag.count <= maxLength { return startTag + (hasNoContent && !isVoid ? "</\(localName)>" : "") }
        return String(startTag.prefix(maxLength - 1)) + "…"
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

    private func serialize(node start: Int, into output: inout String, limit: Int) {
        // Iterative, with an explicit stack of open elements, so deep trees cannot overflow.
        let storage = self.storage
        var stack: [(node: Int, closed: Bool)] = [(start, false)]
        while let (current, closed) = stack.popLast() {
            if output.count > limit { return }
            switch storage.kinds[current] {
            case .element:
                let element = Element(document: document, node: current)
                if closed {
                    output += "</" + element.localName + ">"
                    continue
                }
                output += element.startTag
                if element.isVoid { continue }
                stack.append((current, true))
                var children: [Int] = []
                var child = storage.firstChild[current]
                while child >= 0 {
                    children.append(Int(child))
                    child = storage.nextSibling[Int(child)]
                }
                stack.append(contentsOf: children.reversed().map { ($0, false) })
            case .text:
                let parentName = storage.names[Int(storage.parent[current])]
                let raw = ["script", "style", "xmp", "iframe", "noembed", "noframes", "plaintext"].contains(parentName)
                let text = storage.text(of: current)
                output += raw ? text : Self.escape(text, inAttribute: false)
            case .comment:
                output += "<!--" + storage.text(of: current) + "-->"
            case .document:
                break
            }
        }
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
