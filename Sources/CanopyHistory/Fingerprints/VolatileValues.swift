import CanopyHTML
import CanopyStore
/// Rules that tell values a site generates per page or per build (numbers, hashes, framework ids)
/// from values an author wrote. Fingerprints and page types drop or collapse the former, so an
/// identity does not change when only those change.
public enum VolatileValues {
    /// Whether an `id` (or a `for` naming one) looks machine-generated: React's `:r1:`, Ember's
    /// `ember123`, JSF's `j_idt12`, counters like `react-select-17-input`, hashes like `a8f3k29c`,
    /// or any run of three or more digits. Single-digit ordinals that authors write (`step-2`,
    /// `h2-title`) count as stable. Erring towards "generated" costs little: the element is then
    /// told apart by its other attributes and its occurrence, while a changing id would change it.
    public static func isGeneratedIdentifier(_ value: String) -> Bool {
        if value.isEmpty { return true }
        // One pass over the bytes, with no token arrays: every id of every ancestor of a finding
        // is asked, and the definition's split was 14,000 instructions an id (callgrind).
        var digitRun = 0, tokenDigits = 0, tokenLetters = 0, tokenLength = 0
        var sawColon = false, isASCII = true
        func tokenLooksGenerated() -> Bool { tokenDigits >= 2 && (tokenLetters == 0 || tokenLength >= 5) }
        for byte in value.utf8 {
            if byte == UInt8(ascii: ":") { sawColon = true }
            if byte >= 0x80 { isASCII = false }
            let digit = isDigit(byte)
            digitRun = digit ? digitRun + 1 : 0
            if digitRun >= 3 { return true }
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") {
                if tokenLooksGenerated() { return true }
                tokenDigits = 0
                tokenLetters = 0
                tokenLength = 0
            } else {
                tokenLength += 1
                if digit { tokenDigits += 1 } else if isLetter(byte) { tokenLetters += 1 }
            }
        }
        if tokenLooksGenerated() { return true }
        // A colon byte is a colon character in ASCII; elsewhere a combining mark may follow it and
        // make another character, which the definition's character search does not count.
        return sawColon && (isASCII || value.contains(":"))
    }

    /// `isGeneratedIdentifier` as first written: the definition the one-pass version is held to.
    static func isGeneratedIdentifierByDefinition(_ value: String) -> Bool {
        if value.isEmpty || value.contains(":") { return true }
        var digitRun = 0
        for byte in value.utf8 {
            digitRun = isDigit(byte) ? digitRun + 1 : 0
            if digitRun >= 3 { return true }
        }
        for token in value.utf8.split(whereSeparator: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") }) {
            let digits = token.filter(isDigit).count
            let letters = token.filter(isLetter).count
            if digits >= 2 && (letters == 0 || token.count >= 5) { return true }
        }
        return false
    }

    /// Whether a URL path segment varies from page to page of one template: a number, a UUID or
    /// long hex id, or a slug carrying a number (`123-blue-shirt`, `blue-shirt-123`, `p12345`).
    public static func isVariableSegment(_ segment: Substring) -> Bool {
        isVariableSegment(bytes: Array(segment.utf8))
    }

    static func isVariableSegment(bytes: some BidirectionalCollection<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        // One pass, counting what the definition below asks, with no array made: every segment
        // of every link of a failing tag goes through here.
        var count = 0, digits = 0, hexDigitsAndDashes = 0
        var tokens = 0, tokenLength = 0, tokenIsDigits = true, someTokenIsDigits = false
        var trailingDigits = 0, lettersBeforeTrailingDigits = true
        for byte in bytes {
            count += 1
            let digit = isDigit(byte)
            if digit { digits += 1 }
            if digit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20) || byte == UInt8(ascii: "-") { hexDigitsAndDashes += 1 }
            if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") {
                if tokenLength > 0 {
                    tokens += 1
                    if tokenIsDigits { someTokenIsDigits = true }
                }
                tokenLength = 0
                tokenIsDigits = true
            } else {
                tokenLength += 1
                if !digit { tokenIsDigits = false }
            }
            if digit {
                trailingDigits += 1
            } else {
                // Digits followed by something else are not trailing: the prefix is not all letters.
                if trailingDigits > 0 || !isLetter(byte) { lettersBeforeTrailingDigits = false }
                trailingDigits = 0
            }
        }
        if tokenLength > 0 {
            tokens += 1
            if tokenIsDigits { someTokenIsDigits = true }
        }
        if digits == count { return true }
        if count >= 8, hexDigitsAndDashes == count, digits > 0 { return true }
        if tokens > 1, someTokenIsDigits { return true }
        // A letter prefix followed by a long number, as in `p12345` or `sku00042`.
        return trailingDigits >= 3 && lettersBeforeTrailingDigits
    }

    /// The definition `isVariableSegment(bytes:)` computes in one pass, kept to hold it to.
    static func isVariableSegmentByDefinition(bytes: some BidirectionalCollection<UInt8>) -> Bool {
        guard !bytes.isEmpty else { return false }
        if bytes.allSatisfy(isDigit) { return true }
        let hexDigits = bytes.filter { isDigit($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0 | 0x20) }.count
        let dashes = bytes.filter { $0 == UInt8(ascii: "-") }.count
        if bytes.count >= 8, hexDigits + dashes == bytes.count, bytes.contains(where: isDigit) { return true }
        let tokens = bytes.split(whereSeparator: { $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") })
        if tokens.count > 1, tokens.contains(where: { $0.allSatisfy(isDigit) }) { return true }
        let trailingDigits = bytes.reversed().prefix(while: isDigit).count
        return trailingDigits >= 3 && bytes.dropLast(trailingDigits).allSatisfy(isLetter)
    }

    /// A path with its variable segments replaced by `*`, keeping a file extension
    /// (`/img/products/123.jpg` → `/img/products/*.jpg`).
    public static func collapsedPath(_ path: Substring) -> String {
        var output = ""
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            output += "/"
            output += collapsedSegment(segment)
        }
        return output.isEmpty ? "/" : output
    }

    static func collapsedSegment(_ segment: Substring) -> String {
        if let dot = segment.lastIndex(of: "."), dot != segment.startIndex {
            let stem = segment[..<dot]
            let fileExtension = segment[dot...]
            if fileExtension.count <= 6, isVariableSegment(stem) { return "*" + fileExtension }
        }
        return isVariableSegment(segment) ? "*" : String(segment)
    }

    /// A URL attribute value reduced to what identifies its target across pages: the path with
    /// variable segments collapsed, no query or fragment, the host kept only when it is not the page's.
    public static func normalizedURLReference(_ value: String, pageHost: Substring?) -> String {
        var value = value
        if let reduced = value.withUTF8({ normalizedASCIIURLReference($0, pageHost: pageHost) }) { return reduced }
        return normalizedURLReferenceByCharacters(value, pageHost: pageHost)
    }

    /// `normalizedURLReference` by characters: the definition, and the path for values that are
    /// not plain ASCII.
    static func normalizedURLReferenceByCharacters(_ value: String, pageHost: Substring?) -> String {
        let trimmed = value.trimmingASCIIWhitespace()
        if trimmed.isEmpty { return "" }
        if trimmed.hasPrefix("#") { return "#" }
        let lower = trimmed.lowercased()
        for scheme in schemesKeptAlone where lower.hasPrefix(scheme) { return scheme }
        let parts = URLParts(String(trimmed))
        let host = parts.host.map { $0.lowercased() }
        let keepsHost = host != nil && host != pageHost?.lowercased()
        return (keepsHost ? "//" + (host ?? "") : "") + collapsedPath(parts.path)
    }

    /// Schemes whose targets are not pages: the scheme alone identifies them well enough.
    private static let schemesKeptAlone = ["javascript:", "mailto:", "tel:", "data:"]

    /// `normalizedURLReference` on bytes, for ASCII values without a carriage return (where each
    /// character is one byte): the same output without Unicode-aware string operations, which were
    /// two thirds of a fingerprint's cost on pages full of links. Nil for any other value.
    static func normalizedASCIIURLReference(_ bytes: UnsafeBufferPointer<UInt8>, pageHost: Substring?) -> String? {
        var output: [UInt8] = []
        guard appendNormalizedASCIIURLReference(bytes, pageHost: pageHost, to: &output) else { return nil }
        return String(decoding: output, as: UTF8.self)
    }

    /// `normalizedASCIIURLReference` appended to `output` as bytes, for a caller that hashes it:
    /// false, with nothing appended, for a value that is not plain ASCII.
    static func appendNormalizedASCIIURLReference(_ bytes: UnsafeBufferPointer<UInt8>, pageHost: Substring?, to output: inout [UInt8]) -> Bool {
        for byte in bytes where byte >= 0x80 || byte == 0x0D { return false }
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C }
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) }) else { return true }
        var rest = bytes[first...last]
        if rest.first == UInt8(ascii: "#") {
            output.append(UInt8(ascii: "#"))
            return true
        }
        for scheme in schemesKeptAlone where rest.count >= scheme.utf8.count && zip(rest, scheme.utf8).allSatisfy({ $0.asciiLowercased == $1 }) {
            output.append(contentsOf: scheme.utf8)
            return true
        }
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<hash] }
        if let question = rest.firstIndex(of: UInt8(ascii: "?")) { rest = rest[..<question] }
        var hostStart: Int?
        if let separator = firstSchemeSeparator(in: rest) {
            hostStart = separator + 3
        } else if rest.starts(with: "//".utf8) {
            hostStart = rest.startIndex + 2
        }
        output.reserveCapacity(output.count + rest.count + 2)
        if let hostStart {
            rest = rest[hostStart...]
            let slash = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            let host = rest[..<slash].map(\.asciiLowercased)
            rest = rest[slash...]
            if pageHost.map({ !$0.lowercased().utf8.elementsEqual(host) }) ?? true {
                output.append(contentsOf: "//".utf8)
                output.append(contentsOf: host)
            }
        }
        let pathStart = output.count
        // The non-empty segments between slashes, walked in place: an array of them per link was
        // a third of this function (callgrind).
        var segmentStart = rest.startIndex
        while segmentStart < rest.endIndex {
            let segmentEnd = rest[segmentStart...].firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
            defer { segmentStart = segmentEnd + 1 }
            guard segmentEnd > segmentStart else { continue }
            let segment = rest[segmentStart..<segmentEnd]
            output.append(UInt8(ascii: "/"))
            if let dot = segment.lastIndex(of: UInt8(ascii: ".")), dot != segment.startIndex,
                segment.endIndex - dot <= 6, isVariableSegment(bytes: segment[..<dot])
            {
                output.append(UInt8(ascii: "*"))
                output.append(contentsOf: segment[dot...])
            } else if isVariableSegment(bytes: segment) {
                output.append(UInt8(ascii: "*"))
            } else {
                output.append(contentsOf: segment)
            }
        }
        if output.count == pathStart { output.append(UInt8(ascii: "/")) }
        return true
    }

    /// Where the first `://` starts. A plain scan: the standard library's generic `firstRange(of:)`
    /// was nine tenths of this reduction's time, 6% of a styled crawl.
    private static func firstSchemeSeparator(in bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        var index = bytes.startIndex
        while index + 2 < bytes.endIndex {
            if bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") { return index }
            index += 1
        }
        return nil
    }

    /// Text as a fingerprint reads it: whitespace collapsed, lowercase, digit runs as `#` (prices,
    /// counts and dates change without the element changing), at most 100 characters.
    public static func normalizedText(_ text: String) -> String {
        normalizedASCIIText(text) ?? normalizedTextByCharacters(text)
    }

    /// `normalizedText` by characters: the definition, and the path for text that is not ASCII.
    static func normalizedTextByCharacters(_ text: String) -> String {
        var output = ""
        var pendingSpace = false
        var inDigits = false
        var count = 0
        for character in text {
            if character.isWhitespace {
                pendingSpace = !output.isEmpty
                inDigits = false
                continue
            }
            if pendingSpace {
                output.append(" ")
                pendingSpace = false
                count += 1
            }
            if character.isNumber {
                if !inDigits { output.append("#"); count += 1 }
                inDigits = true
            } else {
                inDigits = false
                output += character.lowercased()
                count += 1
            }
            if count >= 100 { break }
        }
        return output
    }

    /// `normalizedText` on bytes, for text that is all ASCII (nearly all): the same output without
    /// asking Unicode about each character, which was most of a fingerprint's cost. Nil when a
    /// byte up to the hundredth character written is not ASCII (what follows is never read).
    private static func normalizedASCIIText(_ text: String) -> String? {
        var text = text
        var output: [UInt8] = []
        guard text.withUTF8({ appendNormalizedASCIIText($0, to: &output) }) else { return nil }
        return String(decoding: output, as: UTF8.self)
    }

    /// `normalizedASCIIText` appended to `output` as bytes, for a caller that hashes it: false,
    /// with `output` to be discarded, when the text is not ASCII as far as it is read. A no-break
    /// space (`&nbsp;`, UTF-8 C2 A0) counts as the whitespace it is: javadoc writes one in most
    /// headings and signatures, and each sent the text the way of the definition, 19,000
    /// instructions a text (callgrind). Whatever follows it that is not ASCII still does.
    static func appendNormalizedASCIIText(_ bytes: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) -> Bool {
        let start = output.count
        output.reserveCapacity(start + min(bytes.count, 100))
        var pendingSpace = false
        var inDigits = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            let isNoBreakSpace = byte == 0xC2 && index < bytes.count && bytes[index] == 0xA0
            if byte >= 0x80, !isNoBreakSpace { return false }
            if isNoBreakSpace || byte == 0x20 || (0x09...0x0D).contains(byte) {
                if isNoBreakSpace { index += 1 }
                pendingSpace = output.count > start
                inDigits = false
                continue
            }
            if pendingSpace {
                output.append(0x20)
                pendingSpace = false
            }
            if isDigit(byte) {
                if !inDigits { output.append(UInt8(ascii: "#")) }
                inDigits = true
            } else {
                inDigits = false
                output.append(byte.asciiLowercased)
            }
            if output.count - start >= 100 { break }
        }
        return true
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
}

/// The parts of a URL that fingerprints and page types read, without Foundation's URL parsing
/// (which rejects much of what crawled pages contain and costs more than needed here).
struct URLParts {
    var host: Substring?
    var path: Substring
    var query: Substring?

    init(_ url: String) {
        // Crawled URLs are ASCII (percent-encoded): read by bytes, each a character. By
        // characters, with Foundation's `range(of:)`, this took 70,000 instructions a URL, three
        // times a page.
        if url.isOneCharacterPerByte {
            self.init(asciiURL: url)
        } else {
            self.init(byCharacters: url)
        }
    }

    /// `init(_:)` by characters: the definition, and the path for other text.
    init(byCharacters url: String) {
        var rest = Substring(url)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        if let question = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        if let schemeEnd = rest.range(of: "://") {
            rest = rest[schemeEnd.upperBound...]
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            host = rest[..<slash]
            rest = rest[slash...]
        } else if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let slash = rest.firstIndex(of: "/") ?? rest.endIndex
            host = rest[..<slash]
            rest = rest[slash...]
        }
        path = rest
    }

    private init(asciiURL url: String) {
        let bytes = url.utf8
        var end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        if let question = bytes[..<end].firstIndex(of: UInt8(ascii: "?")) {
            query = url[bytes.index(after: question)..<end]
            end = question
        }
        var start = bytes.startIndex
        var hostStart: String.Index?
        if let separator = Self.firstSchemeSeparator(in: bytes[..<end]) {
            hostStart = bytes.index(separator, offsetBy: 3)
        } else if bytes[..<end].starts(with: "//".utf8) {
            hostStart = bytes.index(start, offsetBy: 2)
        }
        if let hostStart {
            let slash = bytes[hostStart..<end].firstIndex(of: UInt8(ascii: "/")) ?? end
            host = url[hostStart..<slash]
            start = slash
        }
        path = url[start..<end]
    }

    /// Where the first "://" starts.
    private static func firstSchemeSeparator(in bytes: Substring.UTF8View) -> String.Index? {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: ":"), bytes[index...].starts(with: "://".utf8) { return index }
            index = bytes.index(after: index)
        }
        return nil
    }
}

extension String {
    func trimmingASCIIWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\u{0C}" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}
