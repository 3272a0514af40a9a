import CanopyHTML

/// CSS Syntax Level 3 tokenization over UTF-8 bytes.
///
/// Tokens keep byte offsets into the source instead of decoded text: the parser needs the source
/// text of preludes (for the selector parser, which reads escapes itself) and of values, and most
/// tokens are never looked at by name.
struct CSSToken: Equatable {
    enum Kind: UInt8 {
        case ident, function, atKeyword, hash, string, badString, url, badURL, delim, number, percentage, dimension
        case whitespace, comment, cdo, cdc, colon, semicolon, comma
        case openSquare, closeSquare, openParen, closeParen, openCurly, closeCurly
    }

    var kind: Kind
    /// Byte range in the source, `end` exclusive.
    var start: Int
    var end: Int
    /// For ident, function, at-keyword, hash and dimension: where the name starts (after `@`, `#`
    /// or the number) and ends (before the `(` of a function).
    var nameStart: Int
    var nameEnd: Int
    /// The name contains a backslash escape, so its bytes are not its value.
    var nameHasEscape = false
}

struct CSSTokenizer {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    static func tokenize(_ bytes: [UInt8]) -> [CSSToken] {
        var tokenizer = CSSTokenizer(bytes)
        var tokens: [CSSToken] = []
        tokens.reserveCapacity(bytes.count / 4)
        while let token = tokenizer.next() { tokens.append(token) }
        return tokens
    }

    private func byte(_ offset: Int = 0) -> UInt8? {
        let position = index + offset
        return position < bytes.count ? bytes[position] : nil
    }

    mutating func next() -> CSSToken? {
        guard let first = byte() else { return nil }
        let start = index
        func simple(_ kind: CSSToken.Kind, length: Int = 1) -> CSSToken {
            index += length
            return CSSToken(kind: kind, start: start, end: index, nameStart: start, nameEnd: index)
        }
        switch first {
        case UInt8(ascii: "/") where byte(1) == UInt8(ascii: "*"):
            index += 2
            while index < bytes.count, !(bytes[index] == UInt8(ascii: "*") && byte(1) == UInt8(ascii: "/")) { index += 1 }
            index = min(index + 2, bytes.count)
            return CSSToken(kind: .comment, start: start, end: index, nameStart: start, nameEnd: index)
        case _ where Self.isWhitespace(first):
            while let next = byte(), Self.isWhitespace(next) { index += 1 }
            return CSSToken(kind: .whitespace, start: start, end: index, nameStart: start, nameEnd: index)
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            return consumeString(quote: first)
        case UInt8(ascii: "#"):
            if let next = byte(1), Self.isNameByte(next) || startsEscape(at: index + 1) {
                index += 1
                let (nameEnd, escaped) = consumeName()
                return CSSToken(kind: .hash, start: start, end: index, nameStart: start + 1, nameEnd: nameEnd, nameHasEscape: escaped)
            }
            return simple(.delim)
        case UInt8(ascii: "("): return simple(.openParen)
        case UInt8(ascii: ")"): return simple(.closeParen)
        case UInt8(ascii: "["): return simple(.openSquare)
        case UInt8(ascii: "]"): return simple(.closeSquare)
        case UInt8(ascii: "{"): return simple(.openCurly)
        case UInt8(ascii: "}"): return simple(.closeCurly)
        case UInt8(ascii: ","): return simple(.comma)
        case UInt8(ascii: ":"): return simple(.colon)
        case UInt8(ascii: ";"): return simple(.semicolon)
        case UInt8(ascii: "+"), UInt8(ascii: "."):
            return startsNumber(at: index) ? consumeNumeric() : simple(.delim)
        case UInt8(ascii: "-"):
            if startsNumber(at: index) { return consumeNumeric() }
            if byte(1) == UInt8(ascii: "-"), byte(2) == UInt8(ascii: ">") { return simple(.cdc, length: 3) }
            if startsIdentifier(at: index) { return consumeIdentLike() }
            return simple(.delim)
        case UInt8(ascii: "<"):
            if byte(1) == UInt8(ascii: "!"), byte(2) == UInt8(ascii: "-"), byte(3) == UInt8(ascii: "-") { return simple(.cdo, length: 4) }
            return simple(.delim)
        case UInt8(ascii: "@"):
            if startsIdentifier(at: index + 1) {
                index += 1
                let (nameEnd, escaped) = consumeName()
                return CSSToken(kind: .atKeyword, start: start, end: index, nameStart: start + 1, nameEnd: nameEnd, nameHasEscape: escaped)
            }
            return simple(.delim)
        case UInt8(ascii: "\\"):
            return startsEscape(at: index) ? consumeIdentLike() : simple(.delim)
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            return consumeNumeric()
        default:
            if Self.isNameStartByte(first) { return consumeIdentLike() }
            return simple(.delim)
        }
    }

    // MARK: Strings, names, numbers

    private mutating func consumeString(quote: UInt8) -> CSSToken {
        let start = index
        index += 1
        while let current = byte() {
            if current == quote {
                index += 1
                return CSSToken(kind: .string, start: start, end: index, nameStart: start + 1, nameEnd: index - 1)
            }
            if current == UInt8(ascii: "\n") {  // unescaped newline: a bad string, newline not consumed
                return CSSToken(kind: .badString, start: start, end: index, nameStart: start + 1, nameEnd: index)
            }
            index += current == UInt8(ascii: "\\") ? 2 : 1
        }
        index = bytes.count
        return CSSToken(kind: .string, start: start, end: index, nameStart: start + 1, nameEnd: index)
    }

    /// Consumes a name; returns where it ends and whether it held an escape.
    private mutating func consumeName() -> (Int, Bool) {
        var escaped = false
        while let current = byte() {
            if Self.isNameByte(current) {
                index += 1
            } else if startsEscape(at: index) {
                escaped = true
                consumeEscape()
            } else {
                break
            }
        }
        return (index, escaped)
    }

    /// After the backslash: up to six hex digits and one whitespace, or one code point.
    private mutating func consumeEscape() {
        index += 1
        var hexDigits = 0
        while hexDigits < 6, let current = byte(), Self.isHexDigit(current) {
            index += 1
            hexDigits += 1
        }
        if hexDigits > 0 {
            if let current = byte(), Self.isWhitespace(current) { index += 1 }
        } else if index < bytes.count {
            index += Self.utf8Length(leading: bytes[index])
        }
    }

    private mutating func consumeIdentLike() -> CSSToken {
        let start = index
        let (nameEnd, escaped) = consumeName()
        guard byte() == UInt8(ascii: "(") else {
            return CSSToken(kind: .ident, start: start, end: index, nameStart: start, nameEnd: nameEnd, nameHasEscape: escaped)
        }
        index += 1
        let isURL = !escaped && nameEnd - start == 3 && bytes[start].asciiLowercased == UInt8(ascii: "u")
            && bytes[start + 1].asciiLowercased == UInt8(ascii: "r") && bytes[start + 2].asciiLowercased == UInt8(ascii: "l")
        if isURL {
            var lookahead = index
            while lookahead < bytes.count, Self.isWhitespace(bytes[lookahead]) { lookahead += 1 }
            // `url("...")` is a function whose argument is a string; `url(...)` unquoted is one token.
            if lookahead >= bytes.count || (bytes[lookahead] != UInt8(ascii: "\"") && bytes[lookahead] != UInt8(ascii: "'")) {
                return consumeURL(start: start)
            }
        }
        return CSSToken(kind: .function, start: start, end: index, nameStart: start, nameEnd: nameEnd, nameHasEscape: escaped)
    }

    private mutating func consumeURL(start: Int) -> CSSToken {
        while let current = byte(), Self.isWhitespace(current) { index += 1 }
        let valueStart = index
        var valueEnd = index
        while let current = byte() {
            switch current {
            case UInt8(ascii: ")"):
                index += 1
                return CSSToken(kind: .url, start: start, end: index, nameStart: valueStart, nameEnd: valueEnd)
            case _ where Self.isWhitespace(current):
                while let next = byte(), Self.isWhitespace(next) { index += 1 }
                if byte() == UInt8(ascii: ")") || byte() == nil { continue }
                return consumeBadURL(start: start)
            case UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "("):
                return consumeBadURL(start: start)
            case UInt8(ascii: "\\"):
                guard startsEscape(at: index) else { return consumeBadURL(start: start) }
                consumeEscape()
                valueEnd = index
            default:
                index += 1
                valueEnd = index
            }
        }
        return CSSToken(kind: .url, start: start, end: index, nameStart: valueStart, nameEnd: valueEnd)
    }

    private mutating func consumeBadURL(start: Int) -> CSSToken {
        while let current = byte() {
            if current == UInt8(ascii: ")") {
                index += 1
                break
            }
            if startsEscape(at: index) { consumeEscape() } else { index += 1 }
        }
        return CSSToken(kind: .badURL, start: start, end: index, nameStart: start, nameEnd: index)
    }

    private mutating func consumeNumeric() -> CSSToken {
        let start = index
        if byte() == UInt8(ascii: "+") || byte() == UInt8(ascii: "-") { index += 1 }
        while let current = byte(), Self.isDigit(current) { index += 1 }
        if byte() == UInt8(ascii: "."), let next = byte(1), Self.isDigit(next) {
            index += 1
            while let current = byte(), Self.isDigit(current) { index += 1 }
        }
        if let e = byte(), e | 0x20 == UInt8(ascii: "e") {
            let signed = byte(1) == UInt8(ascii: "+") || byte(1) == UInt8(ascii: "-")
            if let digit = byte(signed ? 2 : 1), Self.isDigit(digit) {
                index += signed ? 2 : 1
                while let current = byte(), Self.isDigit(current) { index += 1 }
            }
        }
        let numberEnd = index
        if startsIdentifier(at: index) {
            let (nameEnd, escaped) = consumeName()
            return CSSToken(kind: .dimension, start: start, end: index, nameStart: numberEnd, nameEnd: nameEnd, nameHasEscape: escaped)
        }
        if byte() == UInt8(ascii: "%") {
            index += 1
            return CSSToken(kind: .percentage, start: start, end: index, nameStart: start, nameEnd: numberEnd)
        }
        return CSSToken(kind: .number, start: start, end: index, nameStart: start, nameEnd: numberEnd)
    }

    // MARK: Lookahead

    private func startsEscape(at position: Int) -> Bool {
        position + 1 < bytes.count && bytes[position] == UInt8(ascii: "\\") && bytes[position + 1] != UInt8(ascii: "\n")
    }

    private func startsIdentifier(at position: Int) -> Bool {
        guard position < bytes.count else { return false }
        let first = bytes[position]
        if first == UInt8(ascii: "-") {
            guard position + 1 < bytes.count else { return false }
            let second = bytes[position + 1]
            return Self.isNameStartByte(second) || second == UInt8(ascii: "-") || startsEscape(at: position + 1)
        }
        return Self.isNameStartByte(first) || startsEscape(at: position)
    }

    private func startsNumber(at position: Int) -> Bool {
        guard position < bytes.count else { return false }
        var at = position
        if bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-") { at += 1 }
        guard at < bytes.count else { return false }
        if Self.isDigit(bytes[at]) { return true }
        return bytes[at] == UInt8(ascii: ".") && at + 1 < bytes.count && Self.isDigit(bytes[at + 1])
    }

    // MARK: Byte classes

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D || byte == 0x0C
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "f"))
    }

    /// Letters, `_` and every non-ASCII byte (non-ASCII code points are name characters).
    static func isNameStartByte(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStartByte(byte) || isDigit(byte) || byte == UInt8(ascii: "-")
    }


    private static func utf8Length(leading byte: UInt8) -> Int {
        switch byte {
        case 0xF0...: return 4
        case 0xE0...: return 3
        case 0xC0...: return 2
        default: return 1
        }
    }
}
