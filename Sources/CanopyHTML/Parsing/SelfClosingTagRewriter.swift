#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// HTML5 ignores the `/` in `<span/>` and `<div/>` (only void and foreign elements self-close),
/// while libxml2 closes the element there. Before parsing, the `/` of such tags is overwritten
/// with a space, which keeps every byte offset and line number unchanged.
///
/// It runs on every page before libxml2 does, so it works on raw bytes: `memchr` to the next `<`,
/// and tag names compared in place without building strings.
enum SelfClosingTagRewriter {
    static let voidElements: Set<String> = [
        "area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input", "keygen",
        "link", "meta", "param", "source", "track", "wbr",
    ]
    /// Elements whose content is text up to their end tag, so `/>` inside is not markup.
    /// Packed names in arrays, not sets: a scan of a few words costs less than hashing one, and
    /// every start tag of every page asks both (0.25% of a styled crawl's instructions).
    private static let rawTextElements: [UInt64] = [
        "script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes",
    ].map { packed(Array($0.utf8)) }
    private static let voidElementKeys: [UInt64] = voidElements.map { packed(Array($0.utf8)) }
    private static let plaintext = Array("plaintext".utf8)

    static func rewrite(_ bytes: inout [UInt8]) {
        // Found on the bytes as they are, written only if there is something to write: taking
        // them to write makes the parser's own copy of a page whose bytes the caller still holds
        // (6 MB of a crawl's peak for javadoc's largest page, which has no `/>` at all).
        let slashes = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { slashesToBlank(in: $0, count: buffer.count) } ?? []
        }
        guard !slashes.isEmpty else { return }
        bytes.withUnsafeMutableBufferPointer { buffer in
            for index in slashes { buffer[index] = UInt8(ascii: " ") }
        }
    }

    /// Where the `/` of a non-void element's tag outside SVG and MathML is. The scan only reads
    /// `bytes` (a blanked `/` changes nothing it reads after it).
    private static func slashesToBlank(in bytes: UnsafePointer<UInt8>, count: Int) -> [Int] {
        var slashes: [Int] = []
        var index = 0
        var foreignDepth = 0  // inside <svg> or <math>, `/>` really closes
        while index < count {
            guard let found = memchr(bytes + index, Int32(UInt8(ascii: "<")), count - index) else { return slashes }
            index = bytes.distance(to: found.assumingMemoryBound(to: UInt8.self))
            guard index + 1 < count else { return slashes }
            let next = bytes[index + 1]
            if next == UInt8(ascii: "!") {
                index = skipMarkupDeclaration(bytes, count: count, from: index)
            } else if next == UInt8(ascii: "?") {
                index = skip(to: UInt8(ascii: ">"), bytes, count: count, from: index) + 1
            } else if next == UInt8(ascii: "/") {
                let name = readName(bytes, count: count, from: index + 2)
                if foreignDepth > 0, isForeignRoot(bytes, name) { foreignDepth -= 1 }
                index = name.upperBound
            } else if isASCIILetter(next) {
                let name = readName(bytes, count: count, from: index + 1)
                let (tagEnd, slashIndex) = scanToTagEnd(bytes, count: count, from: name.upperBound)
                // Every name these sets hold fits in eight bytes: one word answers for each tag.
                let key = packedLowercased(bytes, name)
                let isVoid = voidElementKeys.contains(key)
                if let slashIndex, foreignDepth == 0, !isVoid { slashes.append(slashIndex) }
                let selfClosed = slashIndex != nil && (foreignDepth > 0 || isVoid)
                if !selfClosed, isForeignRoot(bytes, name) { foreignDepth += 1 }
                index = tagEnd
                if foreignDepth == 0 {
                    if rawTextElements.contains(key) {
                        index = endOfRawText(bytes, count: count, name: name, from: index)
                    } else if name.count == plaintext.count, equalsLowercased(bytes, name, plaintext) {
                        return slashes
                    }
                }
            } else {
                index += 1
            }
        }
        return slashes
    }

    private static func skipMarkupDeclaration(_ bytes: UnsafePointer<UInt8>, count: Int, from start: Int) -> Int {
        guard start + 3 < count, bytes[start + 2] == UInt8(ascii: "-"), bytes[start + 3] == UInt8(ascii: "-") else {
            return skip(to: UInt8(ascii: ">"), bytes, count: count, from: start) + 1
        }
        var index = start + 4
        while index + 2 < count {
            if bytes[index] == UInt8(ascii: "-"), bytes[index + 1] == UInt8(ascii: "-"), bytes[index + 2] == UInt8(ascii: ">") {
                return index + 3
            }
            index += 1
        }
        return count
    }

    /// The index of the next `byte` at or after `start`, or the last index when there is none.
    private static func skip(to byte: UInt8, _ bytes: UnsafePointer<UInt8>, count: Int, from start: Int) -> Int {
        guard start < count, let found = memchr(bytes + start, Int32(byte), count - start) else { return count - 1 }
        return bytes.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The range of the tag name starting at `start`.
    private static func readName(_ bytes: UnsafePointer<UInt8>, count: Int, from start: Int) -> Range<Int> {
        var index = start
        while index < count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: "/"), bytes[index] != UInt8(ascii: ">") {
            index += 1
        }
        return start..<index
    }

    /// Walks the attributes as the HTML tokenizer does. Returns the index after `>` and, if the
    /// tag is self-closing, the index of its `/` (a `/` inside an unquoted value is part of the value).
    private static func scanToTagEnd(_ bytes: UnsafePointer<UInt8>, count: Int, from start: Int) -> (Int, Int?) {
        var index = start
        var slash: Int?
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") { return (index + 1, slash) }
            if byte == UInt8(ascii: "=") {
                index += 1
                while index < count, isSpace(bytes[index]) { index += 1 }
                guard index < count else { break }
                if bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
                    index = skip(to: bytes[index], bytes, count: count, from: index + 1) + 1
                } else {
                    while index < count, !isSpace(bytes[index]), bytes[index] != UInt8(ascii: ">") { index += 1 }
                }
                slash = nil
                continue
            }
            // Only a `/` right before `>` makes the tag self-closing.
            slash = byte == UInt8(ascii: "/") ? index : nil
            index += 1
        }
        return (count, nil)
    }

    private static func endOfRawText(_ bytes: UnsafePointer<UInt8>, count: Int, name: Range<Int>, from start: Int) -> Int {
        let nameBytes = Array(UnsafeBufferPointer(start: bytes + name.lowerBound, count: name.count))
        var index = start
        while index + 1 + name.count < count {
            index = skip(to: UInt8(ascii: "<"), bytes, count: count, from: index)
            guard index + 1 + name.count < count else { break }
            if bytes[index + 1] == UInt8(ascii: "/"), equalsLowercased(bytes, (index + 2)..<(index + 2 + name.count), nameBytes.map(lowercased)) {
                return index
            }
            index += 1
        }
        return count
    }

    private static func isForeignRoot(_ bytes: UnsafePointer<UInt8>, _ name: Range<Int>) -> Bool {
        equalsLowercased(bytes, name, svgBytes) || equalsLowercased(bytes, name, mathBytes)
    }

    private static let svgBytes = Array("svg".utf8)
    private static let mathBytes = Array("math".utf8)

    /// A name of up to eight bytes as one word, lowercased; longer names, which no set here
    /// holds, get a word no short name has.
    private static func packedLowercased(_ bytes: UnsafePointer<UInt8>, _ name: Range<Int>) -> UInt64 {
        guard name.count <= 8 else { return .max }
        var key: UInt64 = 0
        for (offset, index) in name.enumerated() {
            // A zero byte would make two names of different lengths pack alike.
            guard bytes[index] != 0 else { return .max }
            key |= UInt64(lowercased(bytes[index])) << (8 * offset)
        }
        return key
    }

    private static func packed(_ lowercaseName: [UInt8]) -> UInt64 {
        lowercaseName.withUnsafeBufferPointer { buffer in
            packedLowercased(UnsafeMutablePointer(mutating: buffer.baseAddress!), 0..<buffer.count)
        }
    }

    /// Whether the bytes in `range`, ASCII-lowercased, equal `lowercaseName`.
    private static func equalsLowercased(_ bytes: UnsafePointer<UInt8>, _ range: Range<Int>, _ lowercaseName: [UInt8]) -> Bool {
        guard range.count == lowercaseName.count else { return false }
        var offset = 0
        for index in range {
            if lowercased(bytes[index]) != lowercaseName[offset] { return false }
            offset += 1
        }
        return true
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }
}
