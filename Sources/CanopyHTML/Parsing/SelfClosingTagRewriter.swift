/// HTML5 ignores the `/` in `<span/>` and `<div/>` (only void and foreign elements self-close),
/// while libxml2 closes the element there. Before parsing, the `/` of such tags is overwritten
/// with a space, which keeps every byte offset and line number unchanged.
enum SelfClosingTagRewriter {
    static let voidElements: Set<String> = [
        "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input", "keygen",
        "link", "meta", "param", "source", "track", "wbr",
    ]
    /// Elements whose content is text up to their end tag, so `/>` inside is not markup.
    private static let rawTextElements: Set<String> = [
        "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes",
    ]

    static func rewrite(_ bytes: inout [UInt8]) {
        var index = 0
        var foreignDepth = 0  // inside <svg> or <math>, `/>` really closes
        let count = bytes.count
        while index < count {
            guard bytes[index] == UInt8(ascii: "<"), index + 1 < count else {
                index += 1
                continue
            }
            let next = bytes[index + 1]
            if next == UInt8(ascii: "!") {
                index = skipMarkupDeclaration(bytes, from: index)
            } else if next == UInt8(ascii: "?") {
                index = (bytes[index...].firstIndex(of: UInt8(ascii: ">")) ?? count - 1) + 1
            } else if next == UInt8(ascii: "/") {
                let (name, end) = readName(bytes, from: index + 2)
                if (name == "svg" || name == "math"), foreignDepth > 0 { foreignDepth -= 1 }
                index = end
            } else if isASCIILetter(next) {
                let (name, nameEnd) = readName(bytes, from: index + 1)
                let (tagEnd, slashIndex) = scanToTagEnd(bytes, from: nameEnd)
                if let slashIndex, foreignDepth == 0, !voidElements.contains(name) {
                    bytes[slashIndex] = UInt8(ascii: " ")
                }
                if slashIndex == nil || foreignDepth == 0 && !voidElements.contains(name) {
                    if name == "svg" || name == "math" { foreignDepth += 1 }
                }
                index = tagEnd
                if foreignDepth == 0, rawTextElements.contains(name) {
                    index = endOfRawText(bytes, name: name, from: index)
                } else if foreignDepth == 0, name == "plaintext" {
                    return
                }
            } else {
                index += 1
            }
        }
    }

    private static func skipMarkupDeclaration(_ bytes: [UInt8], from start: Int) -> Int {
        if start + 3 < bytes.count, bytes[start + 2] == UInt8(ascii: "-"), bytes[start + 3] == UInt8(ascii: "-") {
            var index = start + 4
            while index + 2 < bytes.count {
                if bytes[index] == UInt8(ascii: "-"), bytes[index + 1] == UInt8(ascii: "-"), bytes[index + 2] == UInt8(ascii: ">") {
                    return index + 3
                }
                index += 1
            }
            return bytes.count
        }
        return (bytes[start...].firstIndex(of: UInt8(ascii: ">")) ?? bytes.count - 1) + 1
    }

    /// Reads a lowercased tag name starting at `start`; returns it and the index after it.
    private static func readName(_ bytes: [UInt8], from start: Int) -> (String, Int) {
        var index = start
        while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: ">") {
            index += 1
        }
        let name = String(decoding: bytes[start..<index].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
        return (name, index)
    }

    /// Walks the attributes as the HTML tokenizer does. Returns the index after `>` and, if the
    /// tag is self-closing, the index of its `/` (a `/` inside an unquoted value is part of the value).
    private static func scanToTagEnd(_ bytes: [UInt8], from start: Int) -> (Int, Int?) {
        var index = start
        var slash: Int?
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") { return (index + 1, slash) }
            if byte == UInt8(ascii: "=") {
                index += 1
                while index < bytes.count, isSpace(bytes[index]) { index += 1 }
                guard index < bytes.count else { break }
                if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                    index = (bytes[(index + 1)...].firstIndex(of: bytes[index]) ?? bytes.count - 1) + 1
                } else {
                    while index < bytes.count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
                }
                slash = nil
                continue
            }
            // Only a `/` right before `>` makes the tag self-closing.
            slash = byte == UInt8(ascii: "/") ? index : nil
            index += 1
        }
        return (bytes.count, nil)
    }

    private static func endOfRawText(_ bytes: [UInt8], name: String, from start: Int) -> Int {
        let nameBytes = Array(name.utf8)
        var index = start
        while index + 1 + nameBytes.count < bytes.count {
            if bytes[index] == UInt8(ascii: "<"), bytes[index + 1] == UInt8(ascii: "/") {
                let candidate = bytes[(index + 2)..<(index + 2 + nameBytes.count)].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }
                if candidate == nameBytes { return index }
            }
            index += 1
        }
        return bytes.count
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }
}
