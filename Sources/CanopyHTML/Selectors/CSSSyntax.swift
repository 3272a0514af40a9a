/// Code-point level rules of CSS Syntax Level 3 that selectors need: identifiers, escapes,
/// strings, and the reverse (serialising identifiers and strings so that they parse back).
enum CSSSyntax {
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20, 0x09, 0x0A, 0x0C, 0x0D: return true
        default: return false
        }
    }

    /// CR and FF count as newlines because CSS preprocessing turns them into LF.
    static func isNewline(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value == 0x0A || scalar.value == 0x0C || scalar.value == 0x0D
    }

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { scalar.value >= 0x30 && scalar.value <= 0x39 }

    static func hexValue(_ scalar: Unicode.Scalar) -> UInt32? {
        switch scalar.value {
        case 0x30...0x39: return scalar.value - 0x30
        case 0x41...0x46: return scalar.value - 0x41 + 10
        case 0x61...0x66: return scalar.value - 0x61 + 10
        default: return nil
        }
    }

    static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value >= 0x41 && scalar.value <= 0x5A) || (scalar.value >= 0x61 && scalar.value <= 0x7A)
    }

    /// "ident-start code point": a letter, `_`, or anything non-ASCII.
    static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        isLetter(scalar) || scalar == "_" || scalar.value >= 0x80
    }

    /// "ident code point".
    static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        isNameStart(scalar) || isDigit(scalar) || scalar == "-"
    }

    static func asciiLowercased(_ text: String) -> String {
        // Only ASCII letters fold: CSS and HTML case-insensitivity is ASCII-only by definition.
        guard text.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return text }
        return String(decoding: text.utf8.map(\.asciiLowercased), as: UTF8.self)
    }

    // MARK: Serialising (CSSOM "serialize an identifier" / "serialize a string")

    /// Escapes `text` so that it reads back as exactly one CSS identifier with that value.
    static func escapeIdentifier(_ text: String) -> String {
        if isPlainIdentifier(text) { return text }
        return escapedASCIIIdentifier(text) ?? escapedIdentifierByScalars(text)
    }

    /// `escapeIdentifier` of text that is ASCII without NUL, written byte by byte: ids such as
    /// javadoc's `java.lang` need escapes, and appending their scalars one at a time to a
    /// string cost 20,000 instructions an id. Nil for other text.
    static func escapedASCIIIdentifier(_ text: String) -> String? {
        let bytes = text.utf8
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 > 0 && $0 < 0x80 }) else { return nil }
        let startsWithHyphen = bytes.first == 0x2D
        var escaped: [UInt8] = []
        escaped.reserveCapacity(bytes.count * 2)
        for (index, byte) in bytes.enumerated() {
            let isDigit = byte >= 0x30 && byte <= 0x39
            let isLetter = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            if byte < 0x20 || byte == 0x7F || (isDigit && (index == 0 || (index == 1 && startsWithHyphen))) {
                escaped.append(0x5C)
                escaped.append(contentsOf: String(byte, radix: 16).utf8)
                escaped.append(0x20)
            } else if byte == 0x2D, index == 0, bytes.count == 1 {
                escaped.append(contentsOf: [0x5C, 0x2D])
            } else if byte == 0x2D || byte == 0x5F || isDigit || isLetter {
                escaped.append(byte)
            } else {
                escaped.append(0x5C)
                escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// `escapeIdentifier` scalar by scalar, for any text.
    static func escapedIdentifierByScalars(_ text: String) -> String {
        let scalars = Array(text.unicodeScalars)
        var result = ""
        for (index, scalar) in scalars.enumerated() {
            switch scalar.value {
            case 0:
                result.unicodeScalars.append("\u{FFFD}")
            case 0x01...0x1F, 0x7F:
                result += hexEscape(scalar)
            case 0x30...0x39 where index == 0 || (index == 1 && scalars[0] == "-"):
                result += hexEscape(scalar)
            case 0x2D where index == 0 && scalars.count == 1:
                result += "\\-"
            default:
                if scalar.value >= 0x80 || scalar == "-" || scalar == "_" || isDigit(scalar) || isLetter(scalar) {
                    result.unicodeScalars.append(scalar)
                } else {
                    result += "\\"
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result
    }

    /// The common case (tags, most class names), which `escapeIdentifier` leaves as it is: ASCII
    /// letters, digits, `-` and `_`, not starting with a digit or `-`.
    static func isPlainIdentifier(_ text: String) -> Bool {
        let isPlain = { (byte: UInt8) in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
                || byte == 0x2D || byte == 0x5F
        }
        guard let first = text.utf8.first, first > 0x39 else { return false }
        return text.utf8.allSatisfy(isPlain)
    }

    /// ASCII that `quoteString` puts between its quotes as it is (no control character, quote
    /// or backslash).
    static func isPlainStringContent(_ text: String) -> Bool {
        !text.utf8.contains { $0 < 0x20 || $0 >= 0x7F || $0 == 0x22 || $0 == 0x5C }
    }

    /// Quotes `text` as a CSS string (double quotes) that reads back as exactly `text`.
    static func quoteString(_ text: String) -> String {
        // Most values (an href, a name) need no escape: quoted whole instead of scalar by scalar.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0x22 || $0 == 0x5C }) { return "\"" + text + "\"" }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0: result.unicodeScalars.append("\u{FFFD}")
            case 0x01...0x1F, 0x7F: result += hexEscape(scalar)
            case 0x22, 0x5C:
                result += "\\"
                result.unicodeScalars.append(scalar)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    private static func hexEscape(_ scalar: Unicode.Scalar) -> String {
        // The trailing space ends the escape, so a following hex digit is not swallowed by it.
        "\\" + String(scalar.value, radix: 16) + " "
    }
}

/// Reads CSS tokens' building blocks from a selector's code points.
struct CSSScanner {
    let scalars: [Unicode.Scalar]
    var index = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    var isAtEnd: Bool { index >= scalars.count }
    var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        let position = index + offset
        return position < scalars.count && position >= 0 ? scalars[position] : nil
    }

    /// Skips whitespace; returns whether there was any.
    @discardableResult
    mutating func skipWhitespace() -> Bool {
        let start = index
        while let scalar = current, CSSSyntax.isWhitespace(scalar) { index += 1 }
        return index > start
    }

    /// "Two code points are a valid escape": a backslash not followed by a newline.
    func isValidEscape(at position: Int) -> Bool {
        guard position < scalars.count, scalars[position] == "\\" else { return false }
        guard position + 1 < scalars.count else { return true }  // `\` at the end escapes to U+FFFD
        return !CSSSyntax.isNewline(scalars[position + 1])
    }

    /// "Would start an identifier" at `position`.
    func startsIdentifier(at position: Int) -> Bool {
        guard position < scalars.count else { return false }
        let first = scalars[position]
        if first == "-" {
            guard position + 1 < scalars.count else { return false }
            let second = scalars[position + 1]
            return CSSSyntax.isNameStart(second) || second == "-" || isValidEscape(at: position + 1)
        }
        if CSSSyntax.isNameStart(first) { return true }
        return isValidEscape(at: position)
    }

    var startsIdentifier: Bool { startsIdentifier(at: index) }

    /// Consumes a name (identifier code points and escapes). The caller checks that one starts here.
    mutating func consumeName() -> String {
        // Names are nearly always ASCII without escapes: their run becomes the string in one step.
        // Appending scalar by scalar was 3,500 instructions a name, a fifth of parsing a stylesheet.
        let start = index
        while index < scalars.count, scalars[index].value < 0x80, CSSSyntax.isNameCharacter(scalars[index]) { index += 1 }
        var name = String(unsafeUninitializedCapacity: index - start) { bytes in
            for offset in 0..<(index - start) { bytes[offset] = UInt8(truncatingIfNeeded: scalars[start + offset].value) }
            return index - start
        }.unicodeScalars
        while let scalar = current {
            if CSSSyntax.isNameCharacter(scalar) {
                name.append(scalar)
                index += 1
            } else if isValidEscape(at: index) {
                index += 1
                name.append(consumeEscapedCodePoint())
            } else {
                break
            }
        }
        return String(name)
    }

    /// Consumes what follows a backslash.
    mutating func consumeEscapedCodePoint() -> Unicode.Scalar {
        guard let first = current else { return "\u{FFFD}" }
        guard CSSSyntax.hexValue(first) != nil else {
            index += 1
            return first
        }
        var value: UInt32 = 0
        var digits = 0
        while digits < 6, let scalar = current, let digit = CSSSyntax.hexValue(scalar) {
            value = value * 16 + digit
            digits += 1
            index += 1
        }
        // One whitespace after a hex escape belongs to the escape (CR LF counts as one).
        if let scalar = current, CSSSyntax.isWhitespace(scalar) {
            index += 1
            if scalar == "\r", current == "\n" { index += 1 }
        }
        guard value != 0, let scalar = Unicode.Scalar(value) else { return "\u{FFFD}" }
        return scalar
    }

    enum StringResult {
        case value(String)
        case unterminated
        case newline(at: Int)
    }

    /// Consumes a quoted string starting at the opening quote.
    mutating func consumeString() -> StringResult {
        let quote = scalars[index]
        index += 1
        var value = String.UnicodeScalarView()
        while let scalar = current {
            if scalar == quote {
                index += 1
                return .value(String(value))
            }
            if CSSSyntax.isNewline(scalar) { return .newline(at: index) }
            if scalar == "\\" {
                index += 1
                guard let next = current else { continue }
                if CSSSyntax.isNewline(next) {
                    // An escaped newline is a line continuation: it adds nothing.
                    index += 1
                    if next == "\r", current == "\n" { index += 1 }
                } else {
                    value.append(consumeEscapedCodePoint())
                }
                continue
            }
            value.append(scalar)
            index += 1
        }
        return .unterminated
    }

    /// The 0-based character (grapheme) offset of a code-point index, as error positions report it.
    func characterOffset(of position: Int) -> Int {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[0..<min(position, scalars.count)])
        return String(view).count
    }

    func text(from start: Int, to end: Int) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[min(start, scalars.count)..<min(end, scalars.count)])
        return String(view)
    }
}

/// Whether `needle`, which must be lowercase ASCII, occurs in `bytes` with ASCII letters compared
/// without case: what HTML and CSS mean by a case-insensitive keyword, found on bytes
/// (Foundation's `.caseInsensitive` search folds all of Unicode, and took a tenth of
/// `canopy check` parsing one stylesheet).
private func containsASCIICaseInsensitive(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: StaticString) -> Bool {
    needle.withUTF8Buffer { wanted in
        guard wanted.count > 0, bytes.count >= wanted.count else { return wanted.count == 0 }
        for start in 0...(bytes.count - wanted.count) where bytes[start].asciiLowercased == wanted[0] {
            var offset = 1
            while offset < wanted.count, bytes[start + offset].asciiLowercased == wanted[offset] { offset += 1 }
            if offset == wanted.count { return true }
        }
        return false
    }
}

extension String {
    /// Whether `needle`, lowercase ASCII, occurs in the text with ASCII letters compared without case.
    public func containsASCIICaseInsensitive(_ needle: StaticString) -> Bool {
        var text = self
        return text.withUTF8 { CanopyHTML.containsASCIICaseInsensitive($0, needle) }
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle`, lowercase ASCII, occurs in the bytes with ASCII letters compared without case.
    public func containsASCIICaseInsensitive(_ needle: StaticString) -> Bool {
        withUnsafeBufferPointer { CanopyHTML.containsASCIICaseInsensitive($0, needle) }
    }
}

extension UInt8 {
    /// The byte with ASCII `A`–`Z` lowercased and every other byte as it is: the case folding of
    /// HTML, CSS and HTTP names, which never folds beyond ASCII.
    public var asciiLowercased: UInt8 { self >= 0x41 && self <= 0x5A ? self | 0x20 : self }
}
