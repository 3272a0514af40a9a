/// Finds a `<meta charset>` or `<meta http-equiv="content-type" content="...charset=...">` in the
/// first 1024 bytes, as HTML's encoding prescan does (comments skipped, attributes tokenised).
enum MetaCharsetScanner {
    static func scan(_ bytes: [UInt8]) -> String? {
        let prefix = bytes.prefix(1024).map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }  // ASCII lowercase
        var index = 0
        while index < prefix.count {
            // Both things looked for start with "<": other bytes are passed over without comparing.
            guard prefix[index] == UInt8(ascii: "<") else {
                index += 1
                continue
            }
            if matches(prefix, at: index, "<!--") {
                index = find(prefix, "-->", from: index + 4).map { $0 + 3 } ?? prefix.count
            } else if matches(prefix, at: index, "<meta"), index + 5 < prefix.count,
                isSpaceOrSlash(prefix[index + 5])
            {
                let (attributes, end) = readAttributes(prefix, from: index + 5)
                index = end
                if let label = charset(from: attributes) {
                    // A page cannot really be UTF-16 if its ASCII-compatible prefix said so.
                    return label.hasPrefix("utf-16") ? "utf-8" : label
                }
            } else {
                index += 1
            }
        }
        return nil
    }

    private static func charset(from attributes: [(String, String)]) -> String? {
        var isContentType = false, content: String?
        for (name, value) in attributes {
            switch name {
            case "charset" where !value.isEmpty: return value
            case "http-equiv": isContentType = value == "content-type"
            case "content": content = value
            default: break
            }
        }
        guard isContentType, let content else { return nil }
        return charsetFromContentAttribute(content)
    }

    /// `text/html; charset=windows-1252` → `windows-1252` (the value is already lowercased).
    private static func charsetFromContentAttribute(_ content: String) -> String? {
        let characters = Array(content)
        let key = Array("charset")
        var index = 0
        while index + key.count <= characters.count {
            guard Array(characters[index..<index + key.count]) == key else {
                index += 1
                continue
            }
            var cursor = index + key.count
            while cursor < characters.count, characters[cursor] == " " || characters[cursor] == "\t" { cursor += 1 }
            guard cursor < characters.count, characters[cursor] == "=" else {
                index += 1
                continue
            }
            cursor += 1
            while cursor < characters.count, characters[cursor] == " " || characters[cursor] == "\t" { cursor += 1 }
            if cursor < characters.count, characters[cursor] == "\"" || characters[cursor] == "'" { cursor += 1 }
            let stoppers: Set<Character> = [";", " ", "\t", "\"", "'"]
            let label = characters[cursor...].prefix { !stoppers.contains($0) }
            return label.isEmpty ? nil : String(label)
        }
        return nil
    }

    /// Reads `name=value` pairs up to the closing `>`; returns them and the index after the tag.
    private static func readAttributes(_ bytes: [UInt8], from start: Int) -> ([(String, String)], Int) {
        var attributes: [(String, String)] = []
        var index = start
        func skipSpace() { while index < bytes.count, isSpaceOrSlash(bytes[index]) { index += 1 } }
        while index < bytes.count {
            skipSpace()
            guard index < bytes.count, bytes[index] != UInt8(ascii: ">") else { return (attributes, index + 1) }
            let nameStart = index
            while index < bytes.count, !isSpaceOrSlash(bytes[index]), bytes[index] != UInt8(ascii: "="),
                bytes[index] != UInt8(ascii: ">")
            {
                index += 1
            }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
            var value = ""
            if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
                index += 1
                while index < bytes.count, bytes[index] == UInt8(ascii: " ") { index += 1 }
                if index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                    let quote = bytes[index]
                    let valueStart = index + 1
                    index = bytes[valueStart...].firstIndex(of: quote) ?? bytes.count
                    value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                    index += 1
                } else {
                    let valueStart = index
                    while index < bytes.count, !isSpaceOrSlash(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
                    value = String(decoding: bytes[valueStart..<index], as: UTF8.self)
                }
            }
            if !name.isEmpty { attributes.append((name, value.trimmingHTMLWhitespace())) }
        }
        return (attributes, index)
    }

    private static func isSpaceOrSlash(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D || byte == UInt8(ascii: "/")
    }

    private static func matches(_ bytes: [UInt8], at index: Int, _ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        return literal.withUTF8Buffer { buffer in buffer.elementsEqual(bytes[index..<index + count]) }
    }

    private static func find(_ bytes: [UInt8], _ literal: StaticString, from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            if matches(bytes, at: index, literal) { return index }
            index += 1
        }
        return nil
    }
}
