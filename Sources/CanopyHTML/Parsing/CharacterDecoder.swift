#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Decodes page bytes to UTF-8 the way a browser picks the encoding: a byte order mark first, then
/// the HTTP `charset`, then a `<meta>` declaration near the top, then UTF-8 if the bytes are valid
/// UTF-8 and windows-1252 otherwise. Bytes that are invalid in the chosen encoding become U+FFFD,
/// so a broken page still parses and nothing crashes.
public enum CharacterDecoder {
    public struct Decoded: Sendable {
        public let utf8: [UInt8]
        /// The encoding's canonical name, e.g. "UTF-8", "windows-1252", "Shift_JIS".
        public let encoding: String
    }

    public static func decode(_ bytes: [UInt8], contentType: String?) -> Decoded {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return decodeUTF8(bytes.dropFirst(3)) }
        if bytes.starts(with: [0xFF, 0xFE]) { return decodeUTF16(bytes.dropFirst(2), bigEndian: false) }
        if bytes.starts(with: [0xFE, 0xFF]) { return decodeUTF16(bytes.dropFirst(2), bigEndian: true) }

        let declared = contentType.flatMap(charsetParameter(ofContentType:)) ?? MetaCharsetScanner.scan(bytes)
        switch declared.map(canonicalEncoding(forLabel:)) {
        case "UTF-8": return decodeUTF8(bytes)
        case "windows-1252": return decodeWindows1252(bytes[...])
        case "UTF-16LE": return decodeUTF16(bytes[...], bigEndian: false)
        case "UTF-16BE": return decodeUTF16(bytes[...], bigEndian: true)
        case let other?:
            if let decoded = decodeWithIconv(bytes, from: other) { return decoded }
            return decodeWindows1252(bytes[...])
        case nil:
            if UTF8Validation.check(bytes) != .invalid { return decodeUTF8(bytes) }
            return decodeWindows1252(bytes[...])
        }
    }

    /// The `charset` parameter of a `Content-Type` value, unquoted.
    public static func charsetParameter(ofContentType contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2,
                parts[0].trimmingHTMLWhitespace().lowercased() == "charset"
            else { continue }
            let value = parts[1].trimmingHTMLWhitespace().trimmingCharacters(in: "\"'")
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// Maps an encoding label to the name used here, folding the labels the Encoding Standard
    /// treats as one encoding (a page labelled ISO-8859-1 is decoded as windows-1252 by browsers).
    static func canonicalEncoding(forLabel label: String) -> String {
        let normalized = label.trimmingHTMLWhitespace().lowercased()
        switch normalized {
        case "utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "x-unicode20utf8":
            return "UTF-8"
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1", "ascii", "us-ascii", "windows-1252",
            "cp1252", "x-cp1252", "cp819", "ibm819", "iso-ir-100", "csisolatin1", "ansi_x3.4-1968":
            return "windows-1252"
        case "utf-16", "utf-16le", "unicode", "ucs-2", "csunicode", "iso-10646-ucs-2", "unicodefeff":
            return "UTF-16LE"
        case "utf-16be", "unicodefffe":
            return "UTF-16BE"
        default:
            return normalized
        }
    }

    private static func decodeUTF8(_ bytes: ArraySlice<UInt8>) -> Decoded { decodeUTF8(Array(bytes)) }

    private static func decodeUTF8(_ bytes: [UInt8]) -> Decoded {
        switch UTF8Validation.check(bytes) {
        case .valid: return Decoded(utf8: bytes, encoding: "UTF-8")
        case .validWithNUL: return Decoded(utf8: withoutNULs(bytes), encoding: "UTF-8")
        case .invalid: return Decoded(utf8: withoutNULs(Array(String(decoding: bytes, as: UTF8.self).utf8)), encoding: "UTF-8")
        }
    }

    private static func decodeUTF16(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) -> Decoded {
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var index = bytes.startIndex
        while index + 1 < bytes.endIndex {
            let first = UInt16(bytes[index]), second = UInt16(bytes[index + 1])
            units.append(bigEndian ? first << 8 | second : second << 8 | first)
            index += 2
        }
        let utf8 = Array(String(decoding: units, as: UTF16.self).utf8)
        return Decoded(utf8: withoutNULs(utf8), encoding: bigEndian ? "UTF-16BE" : "UTF-16LE")
    }

    private static func decodeWindows1252(_ bytes: ArraySlice<UInt8>) -> Decoded {
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(bytes.count)
        for byte in bytes {
            let value = (0x80...0x9F).contains(byte) ? windows1252HighControls[Int(byte - 0x80)] : UInt32(byte)
            scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
        }
        return Decoded(utf8: withoutNULs(Array(String(scalars).utf8)), encoding: "windows-1252")
    }

    /// Any other encoding goes through the C library's iconv; nil when it does not know the label.
    private static func decodeWithIconv(_ bytes: [UInt8], from label: String) -> Decoded? {
        let converter = iconv_open("UTF-8", label)
        guard converter != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(converter) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2)
        var chunk = [CChar](repeating: 0, count: 16 * 1024)
        var input = bytes.map { CChar(bitPattern: $0) }
        input.withUnsafeMutableBufferPointer { inputBuffer in
            var inputPointer: UnsafeMutablePointer<CChar>? = inputBuffer.baseAddress
            var inputLeft = inputBuffer.count
            while inputLeft > 0 {
                let result: Int = chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                    var outputPointer: UnsafeMutablePointer<CChar>? = chunkBuffer.baseAddress
                    var outputLeft = chunkBuffer.count
                    let converted = iconv(converter, &inputPointer, &inputLeft, &outputPointer, &outputLeft)
                    output.append(contentsOf: chunkBuffer[0..<(chunkBuffer.count - outputLeft)].map { UInt8(bitPattern: $0) })
                    return converted == -1 ? Int(errno) : 0
                }
                if result == EILSEQ || result == EINVAL {
                    // An invalid or truncated sequence: replace one byte and go on, as browsers do.
                    output.append(contentsOf: [0xEF, 0xBF, 0xBD])
                    inputPointer = inputPointer.map { $0 + 1 }
                    inputLeft -= 1
                } else if result != 0 && result != E2BIG {
                    break
                }
            }
        }
        return Decoded(utf8: withoutNULs(output), encoding: label)
    }

    /// NUL is not allowed in HTML text; libxml2 would stop at it, so it becomes U+FFFD as in HTML5.
    private static func withoutNULs(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(0) else { return bytes }
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + 16)
        for byte in bytes {
            if byte == 0 { result.append(contentsOf: [0xEF, 0xBF, 0xBD]) } else { result.append(byte) }
        }
        return result
    }

    private static let windows1252HighControls: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D,
        0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161,
        0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]
}

extension StringProtocol {
    func trimmingHTMLWhitespace() -> String {
        let scalars = unicodeScalars
        var start = scalars.startIndex, end = scalars.endIndex
        while start < end, scalars[start].isHTMLWhitespace { start = scalars.index(after: start) }
        while end > start, scalars[scalars.index(before: end)].isHTMLWhitespace { end = scalars.index(before: end) }
        return String(String.UnicodeScalarView(scalars[start..<end]))
    }

    func trimmingCharacters(in set: String) -> String {
        var result = Substring(self)
        while let first = result.first, set.contains(first) { result = result.dropFirst() }
        while let last = result.last, set.contains(last) { result = result.dropLast() }
        return String(result)
    }
}

extension Unicode.Scalar {
    var isHTMLWhitespace: Bool { value == 0x20 || value == 0x09 || value == 0x0A || value == 0x0C || value == 0x0D }
}
