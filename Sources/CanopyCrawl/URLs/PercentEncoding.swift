/// The one percent-encoding normal form shared by URL normalization and robots.txt
/// matching (RFC 3986 §6.2.2.2, RFC 9309 §2.2.2), so both compare the same octets.
enum PercentEncoding {
    /// Which printable ASCII bytes, besides space, controls and non-ASCII, get encoded.
    enum Component {
        /// WHATWG's path percent-encode set: `"` `<` `>` `` ` `` `{` `}`.
        case path
        /// WHATWG's query percent-encode set: `"` `<` `>`.
        case query
        /// robots.txt rule values: like `path`, but `*` and `$` stay the rule's operators.
        case robotsPattern

        func mustEncode(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"): return true
            case UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "}"): return self != .query
            default: return false
            }
        }
    }

    /// Decodes escapes of unreserved characters, uppercases the hex of the others,
    /// encodes a "%" that starts no valid escape (so nothing is encoded twice), and
    /// encodes controls, space, non-ASCII bytes and the component's special bytes.
    static func normalize<Bytes: Collection<UInt8>>(_ bytes: Bytes, as component: Component) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                if let (decoded, next) = escape(in: bytes, at: index) {
                    if isUnreserved(decoded) {
                        output.append(decoded)
                    } else {
                        appendEscape(decoded, to: &output)
                    }
                    index = next
                    continue
                }
                appendEscape(byte, to: &output)
            } else if byte <= 0x20 || byte >= 0x7F || component.mustEncode(byte) {
                appendEscape(byte, to: &output)
            } else {
                output.append(byte)
            }
            index = bytes.index(after: index)
        }
        return output
    }

    /// The byte a valid `%XX` escape at `index` stands for, and the index past it.
    @inline(__always)
    private static func escape<Bytes: Collection<UInt8>>(in bytes: Bytes, at index: Bytes.Index) -> (UInt8, Bytes.Index)? {
        let first = bytes.index(after: index)
        let second = first == bytes.endIndex ? first : bytes.index(after: first)
        guard second != bytes.endIndex, let high = hexValue(bytes[first]), let low = hexValue(bytes[second]) else { return nil }
        return (high << 4 | low, bytes.index(after: second))
    }

    /// Replaces every valid escape by its byte; used where the raw octets matter
    /// (host names, query parameter names).
    static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), let (decoded, next) = escape(in: bytes, at: index) {
                output.append(decoded)
                index = next
                continue
            }
            output.append(byte)
            index = bytes.index(after: index)
        }
        return output
    }

    /// RFC 3986 §2.3: ALPHA / DIGIT / "-" / "." / "_" / "~".
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static let upperHexDigits = Array("0123456789ABCDEF".utf8)

    private static func appendEscape(_ byte: UInt8, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "%"))
        output.append(upperHexDigits[Int(byte >> 4)])
        output.append(upperHexDigits[Int(byte & 0x0F)])
    }
}

/// ASCII-only case folding: URL parts and HTTP tokens are ASCII, and Unicode case
/// mapping must never turn a non-ASCII host or name into a different one.
enum ASCII {
    static func lowercased(_ byte: UInt8) -> UInt8 {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) ? byte + 32 : byte
    }

    static func lowercased<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> [UInt8] {
        bytes.map(lowercased)
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    static func trimmed(_ text: Substring) -> Substring {
        let utf8 = text.utf8
        guard let first = utf8.firstIndex(where: { !isWhitespace($0) }) else { return text[text.endIndex...] }
        let last = utf8.lastIndex(where: { !isWhitespace($0) })!
        return text[first...last]
    }

    static func trimmed(_ text: String) -> String { String(trimmed(text[...])) }

    /// A glob with `*` (any run of characters) matched ASCII-case-insensitively.
    static func globMatches(_ pattern: [UInt8], _ text: [UInt8]) -> Bool {
        var patternIndex = 0, textIndex = 0
        var starIndex = -1, starTextIndex = 0
        while textIndex < text.count {
            if patternIndex < pattern.count, pattern[patternIndex] == UInt8(ascii: "*") {
                starIndex = patternIndex
                starTextIndex = textIndex
                patternIndex += 1
            } else if patternIndex < pattern.count, lowercased(pattern[patternIndex]) == lowercased(text[textIndex]) {
                patternIndex += 1
                textIndex += 1
            } else if starIndex >= 0 {
                // Let the last star swallow one more character and retry from there.
                patternIndex = starIndex + 1
                starTextIndex += 1
                textIndex = starTextIndex
            } else {
                return false
            }
        }
        while patternIndex < pattern.count, pattern[patternIndex] == UInt8(ascii: "*") { patternIndex += 1 }
        return patternIndex == pattern.count
    }
}
