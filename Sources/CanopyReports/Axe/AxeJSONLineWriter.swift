import CanopyRules
import CanopyStore
import Foundation

/// Writes a page's results in axe-core's result shape as one line of UTF-8 JSON, byte for byte
/// what `AxeJSONReport.jsonLine()` (JSONEncoder with sorted keys) gives for the same page — a
/// test holds the two equal. By hand, because every crawled page and every page of
/// `canopy report` gets a line: JSONEncoder took longer than auditing the page.
///
/// Violations and incomplete list every node; passing rules are listed without nodes (a page
/// has thousands of passing elements, and the line is about what needs fixing); rules that
/// neither failed nor passed are inapplicable. Each rule's fixed parts are encoded once, when
/// the writer is made, so one writer serves every page and every thread.
public struct AxeJSONLineWriter: Sendable {
    private struct FixedParts: Sendable {
        /// `{"description":…,"help":…,"helpUrl":…,"id":…`
        let head: [UInt8]
        /// The whole entry of the rule with no nodes (passes, inapplicable).
        let emptyEntry: [UInt8]
        /// `],"tags":[…]}`: what closes an entry after its nodes.
        let tail: [UInt8]
        /// The rule's advice, escaped once: it follows every node's message in its failure summary.
        let escapedHowToFix: [UInt8]?

        init(id: String, metadata: RuleMetadata?) {
            var head: [UInt8] = []
            head.append(contentsOf: #"{"description":"#.utf8)
            JSONText.append(metadata?.description ?? "", to: &head)
            head.append(contentsOf: #","help":"#.utf8)
            JSONText.append(metadata?.help ?? "", to: &head)
            head.append(contentsOf: #","helpUrl":"#.utf8)
            JSONText.append(metadata?.helpURL ?? "", to: &head)
            head.append(contentsOf: #","id":"#.utf8)
            JSONText.append(id, to: &head)
            var tail: [UInt8] = Array(#"],"tags":["#.utf8)
            for (index, tag) in (metadata?.tags ?? []).enumerated() {
                if index > 0 { tail.append(0x2C) }
                JSONText.append(tag, to: &tail)
            }
            tail.append(contentsOf: "]}".utf8)
            self.head = head
            self.emptyEntry = head + Array(#","impact":null,"nodes":["#.utf8) + tail
            self.tail = tail
            self.escapedHowToFix = metadata.map { metadata in
                var bytes: [UInt8] = []
                JSONText.appendEscaped(metadata.howToFix, to: &bytes)
                return bytes
            }
        }
    }

    /// The rules of the run, in their order: the order of each group on a line.
    public let ruleIDs: [String]
    private let ruleOrder: AxeRuleOrder
    private let fixedParts: [String: FixedParts]
    /// The bytes every rule's entry takes without nodes, all rules together.
    private let fixedSize: Int

    /// A writer for results of `rules`, with their metadata as audited (impact overrides included).
    public init(rules: [RuleMetadata]) {
        ruleIDs = rules.map(\.id)
        ruleOrder = .init(ruleIDs)
        fixedParts = Dictionary(rules.map { ($0.id, FixedParts(id: $0.id, metadata: $0)) }, uniquingKeysWith: { first, _ in first })
        fixedSize = fixedParts.values.reduce(0) { $0 + $1.emptyEntry.count }
    }

    /// A writer for a stored run's rules, by id, with the catalog's metadata.
    public init(ruleIDs: [String]) {
        self.ruleIDs = ruleIDs
        ruleOrder = .init(ruleIDs)
        fixedParts = Dictionary(
            ruleIDs.map { ($0, FixedParts(id: $0, metadata: RuleCatalog.rule(withID: $0)?.metadata)) }, uniquingKeysWith: { first, _ in first }
        )
        fixedSize = fixedParts.values.reduce(0) { $0 + $1.emptyEntry.count }
    }

    /// One page's line as a String (for tests).
    public func line(url: String, timestamp: String, findings: [Finding], passingRules: some Sequence<String>) -> String {
        var bytes: [UInt8] = []
        appendLine(url: url, timestamp: timestamp, findings: findings, passingRules: passingRules, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends one page's line, without a line feed.
    public func appendLine(
        url: String, timestamp: String, findings: [Finding], passingRules: some Sequence<String>, to json: inout [UInt8]
    ) {
        let groups = AxePageGroups(order: ruleOrder, findings: findings, passingRules: passingRules)
        // Sized before it is written: a page with thousands of findings makes a line of megabytes,
        // which growing by doubling would copy again and again, holding both copies each time.
        json.reserveCapacity(json.count + estimatedSize(of: findings))
        // Keys in JSONEncoder's sorted order.
        json.append(contentsOf: #"{"inapplicable":["#.utf8)
        for (index, rule) in groups.inapplicable.enumerated() {
            if index > 0 { json.append(0x2C) }
            json.append(contentsOf: fixed(rule).emptyEntry)
        }
        json.append(contentsOf: #"],"incomplete":["#.utf8)
        for (index, rule) in groups.incomplete.enumerated() {
            if index > 0 { json.append(0x2C) }
            appendEntry(rule, nodes: groups.byRule[rule, default: []].filter { $0.outcome == .incomplete }, to: &json)
        }
        json.append(contentsOf: #"],"passes":["#.utf8)
        for (index, rule) in groups.passes.enumerated() {
            if index > 0 { json.append(0x2C) }
            json.append(contentsOf: fixed(rule).emptyEntry)
        }
        json.append(contentsOf: #"],"testEngine":{"name":"canopy","version":"#.utf8)
        JSONText.append(CanopyVersion.current, to: &json)
        json.append(contentsOf: #"},"timestamp":"#.utf8)
        JSONText.append(timestamp, to: &json)
        json.append(contentsOf: #","url":"#.utf8)
        JSONText.append(url, to: &json)
        json.append(contentsOf: #","violations":["#.utf8)
        for (index, rule) in groups.violations.enumerated() {
            if index > 0 { json.append(0x2C) }
            appendEntry(rule, nodes: groups.byRule[rule, default: []].filter { $0.outcome == .violation }, to: &json)
        }
        json.append(contentsOf: "]}".utf8)
    }

    /// About the size of a line with `findings` (a little over when nothing needs escaping): every
    /// rule's fixed parts, and each finding's message twice, snippet, target, advice and evidence.
    private func estimatedSize(of findings: [Finding]) -> Int {
        var size = fixedSize + 512
        for finding in findings {
            size += 2 * finding.message.utf8.count + finding.snippet.utf8.count + finding.target.utf8.count + 160
            size += (fixedParts[finding.ruleID]?.escapedHowToFix?.count ?? 0) + 48 * finding.evidence.count
        }
        return size
    }

    private func appendEntry(_ ruleID: String, nodes: [Finding], to json: inout [UInt8]) {
        let parts = fixed(ruleID)
        json.append(contentsOf: parts.head)
        json.append(contentsOf: #","impact":"#.utf8)
        if let impact = nodes.map(\.impact).max() { JSONText.append(impact.rawValue, to: &json) } else { json.append(contentsOf: "null".utf8) }
        json.append(contentsOf: #","nodes":["#.utf8)
        for (index, node) in nodes.enumerated() {
            if index > 0 { json.append(0x2C) }
            let verb = node.outcome == .violation ? "Fix this: " : "Review this: "
            json.append(0x7B)
            if !node.evidence.isEmpty {
                // Where axe-core puts what a check measured: the check's `data`.
                json.append(contentsOf: #""any":[{"data":{"#.utf8)
                // Sorted as pairs: looking each key up again hashed it a second time.
                for (position, entry) in node.evidence.sorted(by: { $0.key < $1.key }).enumerated() {
                    if position > 0 { json.append(0x2C) }
                    JSONText.append(entry.key, to: &json)
                    json.append(0x3A)
                    switch entry.value {
                    case .text(let text): JSONText.append(text, to: &json)
                    case .number(let number): json.append(contentsOf: AxeCheckEntry.jsonNumber(number).utf8)
                    }
                }
                json.append(contentsOf: #"},"id":"#.utf8)
                JSONText.append(ruleID, to: &json)
                json.append(contentsOf: #","impact":"#.utf8)
                JSONText.append(node.impact.rawValue, to: &json)
                json.append(contentsOf: #","message":"#.utf8)
                JSONText.append(node.message, to: &json)
                json.append(contentsOf: "}],".utf8)
            }
            json.append(contentsOf: #""failureSummary":"#.utf8)
            if let howToFix = parts.escapedHowToFix {
                // `verb + message + "\n" + howToFix`, escaped piece by piece.
                json.append(0x22)
                JSONText.appendEscaped(verb, to: &json)
                JSONText.appendEscaped(node.message, to: &json)
                json.append(contentsOf: #"\n"#.utf8)
                json.append(contentsOf: howToFix)
                json.append(0x22)
            } else {
                JSONText.append(node.message, to: &json)
            }
            json.append(contentsOf: #","html":"#.utf8)
            JSONText.append(node.snippet, to: &json)
            json.append(contentsOf: #","impact":"#.utf8)
            JSONText.append(node.impact.rawValue, to: &json)
            json.append(contentsOf: #","target":["#.utf8)
            if node.target.hasPrefix("[\"") {
                for (index, selector) in FrameTarget.components(node.target).enumerated() {
                    if index > 0 { json.append(UInt8(ascii: ",")) }
                    JSONText.append(selector, to: &json)
                }
            } else {
                JSONText.append(node.target, to: &json)
            }
            json.append(contentsOf: "]}".utf8)
        }
        json.append(contentsOf: parts.tail)
    }

    /// A rule the writer was not made for (a stored finding of a rule the run's list lacks) is
    /// encoded on the spot.
    private func fixed(_ ruleID: String) -> FixedParts {
        fixedParts[ruleID] ?? FixedParts(id: ruleID, metadata: RuleCatalog.rule(withID: ruleID)?.metadata)
    }
}

/// A run's rules in order with their positions, made once per writer: a page's groups then
/// cost a lookup per finding and passing rule, not a set of every rule per page.
struct AxeRuleOrder: Sendable {
    let ruleIDs: [String]
    let indexByID: [String: Int]

    init(_ ruleIDs: [String]) {
        self.ruleIDs = ruleIDs
        indexByID = Dictionary(ruleIDs.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// Which rules of a page go in which group, in the run's rule order.
struct AxePageGroups {
    let byRule: [String: [Finding]]
    let violations: [String]
    let incomplete: [String]
    let passes: [String]
    let inapplicable: [String]

    init(ruleIDs: [String], findings: [Finding], passingRules: some Sequence<String>) {
        self.init(order: AxeRuleOrder(ruleIDs), findings: findings, passingRules: passingRules)
    }

    /// `passingRules` names each rule once (a set, or a dictionary's keys).
    init(order: AxeRuleOrder, findings: [Finding], passingRules: some Sequence<String>) {
        byRule = Dictionary(grouping: findings, by: \.ruleID)
        let failing: UInt8 = 1, undecided: UInt8 = 2, passing: UInt8 = 4
        // Rules of the run first, then any rule the findings or passes name that the run's list lacks.
        var flags = [UInt8](repeating: 0, count: order.ruleIDs.count)
        var extra: [String: UInt8] = [:]
        func mark(_ ruleID: String, _ flag: UInt8) {
            if let index = order.indexByID[ruleID] { flags[index] |= flag } else { extra[ruleID, default: 0] |= flag }
        }
        for finding in findings { mark(finding.ruleID, finding.outcome == .violation ? failing : undecided) }
        for ruleID in passingRules { mark(ruleID, passing) }
        var ordered = Array(zip(order.ruleIDs, flags))
        if !extra.isEmpty { ordered += extra.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
        violations = ordered.filter { $0.1 & failing != 0 }.map(\.0)
        incomplete = ordered.filter { $0.1 & undecided != 0 }.map(\.0)
        passes = ordered.filter { $0.1 & passing != 0 }.map(\.0)
        inapplicable = ordered.filter { $0.1 == 0 }.map(\.0)
    }
}

/// JSON strings as JSONEncoder writes them with `.withoutEscapingSlashes`: quote, backslash and
/// control characters escaped (`\n`, `\r`, `\t`, `\b`, `\f`, else `\u00XX`), everything else as is.
public enum JSONText {
    public static func append(_ text: String, to json: inout [UInt8]) {
        // The string's own bytes where it has them contiguous (native strings do): a copy to call
        // `withUTF8` on was a retain and a release for every string written.
        if text.utf8.withContiguousStorageIfAvailable({ appendEscaped($0, quoted: true, to: &json) }) != nil { return }
        var text = text
        text.withUTF8 { appendEscaped($0, quoted: true, to: &json) }
    }

    /// The string's content escaped, without quotes: pieces of one JSON string written one after
    /// another escape as their concatenation does, without making it.
    static func appendEscaped(_ text: String, to json: inout [UInt8]) {
        if text.utf8.withContiguousStorageIfAvailable({ appendEscaped($0, quoted: false, to: &json) }) != nil { return }
        var text = text
        text.withUTF8 { appendEscaped($0, quoted: false, to: &json) }
    }

    /// Escaped into a buffer on the stack, a run of input at a time, and appended a buffer at a
    /// time: a string of up to `inputRun` bytes, quotes included, is one append. An append for
    /// each quote and each run between escapes (a snippet's attributes are full of quotes) was
    /// most of what writing a string cost (callgrind).
    private static func appendEscaped(_ bytes: UnsafeBufferPointer<UInt8>, quoted: Bool, to json: inout [UInt8]) {
        // An escape is at most six bytes (`\u00XX`) for one; two more for the quotes.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 6 * inputRun + 2) { buffer in
            var end = 0
            if quoted {
                buffer[0] = 0x22
                end = 1
            }
            var index = 0
            while index < bytes.count {
                let runEnd = min(bytes.count, index + inputRun)
                end = escape(UnsafeBufferPointer(rebasing: bytes[index..<runEnd]), into: buffer, at: end)
                index = runEnd
                if index < bytes.count {
                    json.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<end]))
                    end = 0
                }
            }
            if quoted {
                buffer[end] = 0x22
                end += 1
            }
            json.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<end]))
        }
    }

    /// The input escaped into the stack buffer at a time: 170 bytes make at most 1,022.
    static let inputRun = 170

    /// Writes `bytes` escaped into `buffer` from `start` (room for six bytes each) and returns
    /// where it stopped.
    @inline(__always)
    private static func escape(_ bytes: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        var end = start
        var index = 0
        let output = UnsafeMutableRawPointer(buffer.baseAddress!)
        // Eight bytes at a time, copied whole, then the copy cut at the first byte that needs
        // escaping, if any, and that byte escaped: snippets and messages are long, and snippets
        // full of quotes, which byte by byte cost more than the rest of writing them. (The eight
        // bytes always fit: the buffer has room for six a byte of the run, eight of it to come.)
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
            output.storeBytes(of: word, toByteOffset: end, as: UInt64.self)
            let mask = escapeMask(UInt64(littleEndian: word))
            guard mask != 0 else {
                index += 8
                end += 8
                continue
            }
            // The lowest flagged byte is exact (a borrow can only flag bytes above it).
            let clean = mask.trailingZeroBitCount / 8
            end = write(bytes[index + clean], into: buffer, at: end + clean)
            index += clean + 1
        }
        while index < bytes.count {
            end = write(bytes[index], into: buffer, at: end)
            index += 1
        }
        return end
    }

    @inline(__always)
    private static func write(_ byte: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        guard needsEscaping(byte) else {
            buffer[start] = byte
            return start + 1
        }
        var end = start
        for escaped in escapeSequence(byte) {
            buffer[end] = escaped
            end += 1
        }
        return end
    }

    /// What JSONEncoder writes for a byte that `needsEscaping`: `\n`, `\r`, `\t`, `\b`, `\f`,
    /// `\"`, `\\`, else `\u00XX` in lowercase hexadecimal.
    @inline(__always)
    private static func escapeSequence(_ byte: UInt8) -> EscapeSequence {
        switch byte {
        case 0x22: return EscapeSequence(0x5C, 0x22)
        case 0x5C: return EscapeSequence(0x5C, 0x5C)
        case 0x0A: return EscapeSequence(0x5C, UInt8(ascii: "n"))
        case 0x0D: return EscapeSequence(0x5C, UInt8(ascii: "r"))
        case 0x09: return EscapeSequence(0x5C, UInt8(ascii: "t"))
        case 0x08: return EscapeSequence(0x5C, UInt8(ascii: "b"))
        case 0x0C: return EscapeSequence(0x5C, UInt8(ascii: "f"))
        default:
            let hex = { (digit: UInt8) in digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") + digit - 10 }
            return EscapeSequence(0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex(byte >> 4), hex(byte & 0xF))
        }
    }

    /// Two to six bytes, without an array.
    private struct EscapeSequence: Sequence, IteratorProtocol {
        private var bytes: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)
        private let count: Int
        private var position = 0

        init(_ first: UInt8, _ second: UInt8) {
            bytes = (first, second, 0, 0, 0, 0)
            count = 2
        }

        init(_ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8, _ e: UInt8, _ f: UInt8) {
            bytes = (a, b, c, d, e, f)
            count = 6
        }

        mutating func next() -> UInt8? {
            guard position < count else { return nil }
            defer { position += 1 }
            return withUnsafeBytes(of: bytes) { $0[position] }
        }
    }

    /// Whether any byte of `bytes` needs escaping.
    static func needsEscaping(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while index + 8 <= bytes.count {
            if needsEscaping(UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)) { return true }
            index += 8
        }
        return bytes[index...].contains(where: needsEscaping)
    }

    /// A quote, a backslash or a control character.
    @inline(__always)
    static func needsEscaping(_ byte: UInt8) -> Bool { byte == 0x22 || byte == 0x5C || byte < 0x20 }

    /// Whether any of the eight bytes of `word` `needsEscaping`: the exact zero-byte and
    /// less-than tests on all bytes at once (a byte of 0x80 or more never counts).
    @inline(__always)
    static func needsEscaping(_ word: UInt64) -> Bool { escapeMask(word) != 0 }

    /// The high bit of each byte of `word` (the first byte lowest) that may need escaping: exact
    /// for the lowest one flagged, while bytes above it may be flagged by a borrow.
    @inline(__always)
    static func escapeMask(_ word: UInt64) -> UInt64 {
        let control = (word &- ByteMasks.ones &* 0x20) & ~word & ByteMasks.highBits
        return control | ByteMasks.equal(word, 0x22) | ByteMasks.equal(word, 0x5C)
    }

    public static func string(_ text: String) -> String {
        var bytes: [UInt8] = []
        append(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Timestamps as `ISO8601DateFormatter` writes them with internet date-time and fractional
/// seconds, in UTC (`2024-01-05T08:00:00.123Z`), without a formatter object: those are costly
/// to make and not safe to share between the crawl's threads.
public enum AxeTimestamp {
    public static func string(_ date: Date) -> String {
        let interval = date.timeIntervalSince1970
        var seconds = time_t(interval.rounded(.down))
        var milliseconds = Int(((interval - Double(seconds)) * 1000).rounded())
        if milliseconds >= 1000 { seconds += 1; milliseconds -= 1000 }
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let millis = milliseconds < 10 ? "00\(milliseconds)" : milliseconds < 100 ? "0\(milliseconds)" : "\(milliseconds)"
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(millis)Z"
    }
}
