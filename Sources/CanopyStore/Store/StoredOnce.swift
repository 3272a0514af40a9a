import CanopyRules
import Foundation

// From one weekly run to the next nearly every finding repeats the same text, so the store keeps
// each distinct value once and rows refer to it by id (schema version 8):
//
// - `finding_details`: all of a finding but its run, page and issue key (rule, impact, outcome,
//   target, snippet, message, owner, signatures, component, evidence);
// - `issue_keys`: the issue keys of `findings` and `run_issues`;
// - `components`: a component candidate's key and structure hash, for `page_components`;
// - `rules` and `pass_counts`: a page's pass counts as one text of rule numbers and counts.
//
// None of these has a foreign key pointing at it: deleting an unused value would then look for
// rows using it in tables without an index for that. `RunStore.deleteUnusedValues()` removes
// what no row uses any more.

/// Text compared and hashed by its UTF-8 bytes, as SQLite compares it. Swift's `String` equality
/// takes canonically equivalent text ("é" as one code point or two) as equal; a value stored once
/// must read back byte for byte as it was written.
struct ExactText: Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (lhs: ExactText, rhs: ExactText) -> Bool {
        // Over the contiguous bytes: the views' generic `elementsEqual` took a dozen instructions
        // a byte, 1% of a crawl comparing details and evidence texts (callgrind).
        var left = lhs.text, right = rhs.text
        return left.withUTF8 { leftBytes in
            right.withUTF8 { rightBytes in
                leftBytes.count == rightBytes.count
                    && (leftBytes.isEmpty || memcmp(leftBytes.baseAddress!, rightBytes.baseAddress!, leftBytes.count) == 0)
            }
        }
    }

    func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(text.utf8.count)
    }
}

/// A row of `finding_details`: its columns' values in order (nil for NULL).
struct FindingDetail: Hashable {
    let fields: [ExactText?]

    static let columns: SQL = """
        rule_id, impact, outcome, target, snippet, message, owner, element_signature, component_key, component_hash, component_signature, evidence
        """
    static let columnCount: Int32 = 12

    /// `evidence` is `RunStore.evidenceJSON(finding.evidence)`, as `StoredOnce.evidenceJSON` keeps it.
    init(_ finding: FindingRecord, evidence: String?) {
        let component = finding.identity.component
        let texts: [String?] = [
            finding.ruleID, finding.impact.rawValue, finding.outcome.rawValue, finding.target, finding.snippet, finding.message,
            finding.owner, finding.identity.elementSignature, component?.candidate.key, component?.candidate.structureHash,
            component?.elementSignature, evidence,
        ]
        fields = texts.map { $0.map(ExactText.init) }
    }

    /// The columns of `Self.columns` from `column` on.
    init(_ row: SQLiteRow, from column: Int32) {
        fields = (column..<column + Self.columnCount).map { row.optionalString($0).map(ExactText.init) }
    }

    var values: [SQLiteValue] { fields.map { SQLiteValue($0?.text) } }

    /// 128 bits standing for the detail's columns in `StoredOnce`'s cache: two unrelated hashes
    /// (Swift's seeded SipHash and FNV-1a) of every column's bytes, so two different details
    /// share a digest with a chance of about 2⁻¹²⁸ per pair. Keeping the details themselves (a
    /// snippet, a message and evidence each) held about 1 kB per distinct finding: 70 MB over a
    /// styled crawl of java.base.
    var digest: Digest {
        var builder = Digest.Builder()
        for field in fields { builder.add(field?.text) }
        return builder.digest
    }

    struct Digest: Hashable {
        let sip: Int
        let fnv: UInt64

        /// Digests texts, or NULLs, one after another.
        struct Builder {
            private var sip = Hasher()
            private var fnv = StableHasher()

            mutating func add(_ text: String?) {
                guard var text else {
                    sip.combine(UInt8(0))
                    // Eight 0xFF bytes, which no UTF-8 text holds, stand for NULL.
                    fnv.combine(UInt64.max)
                    return
                }
                text.withUTF8 { bytes in
                    sip.combine(UInt8(1))
                    sip.combine(bytes.count)
                    sip.combine(bytes: UnsafeRawBufferPointer(bytes))
                }
                fnv.combine(text)
            }

            var digest: Digest { Digest(sip: sip.finalize(), fnv: fnv.value) }
        }

        /// The digest of one text, as a detail's digest takes in each column.
        init(of text: String) {
            var builder = Builder()
            builder.add(text)
            self = builder.digest
        }

        init(sip: Int, fnv: UInt64) {
            self.sip = sip
            self.fnv = fnv
        }

        /// What `finding_details.digest` holds and is indexed by (schema version 10): the FNV
        /// half, the same in every process, as SQLite's signed 64-bit integer.
        var stored: SQLiteValue { .integer(Int64(bitPattern: fnv)) }
    }
}

/// The ids of values stored once that this connection has looked up or written, so that
/// recording a page asks the database only for text it has not seen yet. Used by one `RunStore`
/// under its lock.
///
/// An id is only good while its row exists: ids are given out again once the highest rows are
/// deleted. So the ids are forgotten when a transaction that wrote them rolls back, when this
/// store deletes unused values, and when another connection has committed anything since the
/// last batch (it may have deleted them).
final class StoredOnce {
    private var details: [FindingDetail.Digest: Int64] = [:]
    private var components: [ComponentKey: Int64] = [:]
    private var rules: [ExactText: Int64] = [:]
    /// By digest, not text: nearly every page has counts of its own, and a cache of texts held 1.8 MB at 10,000 pages.
    private var passCounts: [FindingDetail.Digest: Int64] = [:]
    private var evidenceTexts: [EvidenceKey: String] = [:]
    /// The two evidences last encoded, the latest first, with their texts: a page's findings of
    /// one rule mostly share theirs (javadoc's links in text: two colour pairs), and two rules'
    /// findings come interleaved. The cache's sorted key cost 9,000 instructions a finding,
    /// comparing with a recent one less than half of that (callgrind).
    private var recentEvidence: [(evidence: [String: EvidenceValue], text: String)] = []
    private var dataVersion: Int64?

    /// Past this many ids of one kind the cache starts again: a crawl of a site whose every
    /// finding or pass count differs must not hold them all. At 100,000 a 40,000-page crawl of
    /// the soak site held 6 MB of pass-count texts, nearly one per page; text that repeats
    /// (a site-wide header's findings) is back in the cache at its next page. At 16,384 the
    /// finding details' ids alone held 0.8 MB through a styled crawl of java.base (massif), whose
    /// 53,650 findings are nearly all distinct; a detail missed is one indexed lookup.
    static let limit = 4_096

    private struct ComponentKey: Hashable {
        let key: ExactText
        let structureHash: ExactText
    }

    /// Forgets every id if another connection committed since the last call. Call inside the
    /// write transaction, so nobody else commits until it ends.
    func checkForOtherWriters(in database: SQLiteDatabase) throws {
        let version = try database.queryFirst("PRAGMA data_version") { $0.int64(0) }
        if version != dataVersion { forgetAll() }
        dataVersion = version
    }

    func forgetAll() {
        details.removeAll()
        components.removeAll()
        rules.removeAll()
        passCounts.removeAll()
    }

    // Made once: interpolated for each finding, the text cost more than the statement cache's lookup of it.
    private static let selectDetailsByDigest: SQL = "SELECT id, \(FindingDetail.columns) FROM finding_details WHERE digest = ?"
    private static let insertDetail: SQL =
        "INSERT INTO finding_details (\(FindingDetail.columns), digest) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"

    /// The id of the finding's text in `finding_details`, written if missing.
    func detailID(of finding: FindingRecord, in database: SQLiteDatabase) throws -> Int64 {
        let detail = FindingDetail(finding, evidence: evidenceJSON(finding.evidence))
        let digest = detail.digest
        return try Self.id(of: digest, in: &details) {
            // Looked up by digest, not by element signature: on java.base up to 262 details share
            // one signature, and reading them all for each new detail was most of a crawl's reads
            // from the store file (perf on pread64: 55%). Rows sharing a digest are almost always
            // the one; the columns decide.
            var found: Int64?
            try database.forEachRow(Self.selectDetailsByDigest, [digest.stored]) { row in
                if found == nil, FindingDetail(row, from: 1) == detail { found = row.int64(0) }
            }
            if let found { return found }
            try database.run(Self.insertDetail, detail.values + [digest.stored])
            return database.lastInsertRowID
        }
    }

    /// A finding's evidence as stored (`RunStore.evidenceJSON`), encoded once per distinct
    /// evidence: a styled crawl of java.base has 10 distinct ones among 56,000 findings, and
    /// JSONEncoder for each finding was 2% of the crawl's CPU time (perf). Unlike the ids, these
    /// texts never go stale.
    func evidenceJSON(_ evidence: [String: EvidenceValue]) -> String? {
        guard !evidence.isEmpty else { return nil }
        if let recent = recentEvidence.firstIndex(where: { Self.writeAlike(evidence, $0.evidence) }) {
            let text = recentEvidence[recent].text
            if recent > 0 { recentEvidence.swapAt(0, recent) }
            return text
        }
        let key = EvidenceKey(evidence)
        let text: String
        if let known = evidenceTexts[key] {
            text = known
        } else {
            guard let encoded = RunStore.evidenceJSON(evidence) else { return nil }
            if evidenceTexts.count >= Self.limit { evidenceTexts.removeAll(keepingCapacity: true) }
            evidenceTexts[key] = encoded
            text = encoded
        }
        recentEvidence.insert((evidence, text), at: 0)
        if recentEvidence.count > 2 { recentEvidence.removeLast() }
        return text
    }

    /// Whether two evidences are written as the same JSON, as `EvidenceKey` compares them:
    /// names and texts by their bytes (a lookup finds a name canonically equal, not byte for
    /// byte), numbers by their bits.
    static func writeAlike(_ evidence: [String: EvidenceValue], _ other: [String: EvidenceValue]) -> Bool {
        guard evidence.count == other.count else { return false }
        for (name, value) in evidence {
            guard let index = other.index(forKey: name) else { return false }
            let (otherName, otherValue) = other[index]
            guard ExactText(name) == ExactText(otherName) else { return false }
            switch (value, otherValue) {
            case (.text(let text), .text(let otherText)):
                guard ExactText(text) == ExactText(otherText) else { return false }
            case (.number(let number), .number(let otherNumber)):
                guard number.bitPattern == otherNumber.bitPattern else { return false }
            default:
                return false
            }
        }
        return true
    }

    /// Evidence compared as its JSON would be: names and texts by their bytes (`ExactText`),
    /// numbers by their bits (0 and -0 are written differently).
    private struct EvidenceKey: Hashable {
        struct Entry: Hashable {
            let name: ExactText
            let text: ExactText?
            let numberBits: UInt64
        }

        let entries: [Entry]

        init(_ evidence: [String: EvidenceValue]) {
            entries = evidence.map { name, value in
                switch value {
                case .text(let text): Entry(name: ExactText(name), text: ExactText(text), numberBits: 0)
                case .number(let number): Entry(name: ExactText(name), text: nil, numberBits: number.bitPattern)
                }
            }.sorted { $0.name.text.utf8.lexicographicallyPrecedes($1.name.text.utf8) }
        }
    }

    func componentID(_ candidate: ComponentCandidate, in database: SQLiteDatabase) throws -> Int64 {
        let key = ComponentKey(key: ExactText(candidate.key), structureHash: ExactText(candidate.structureHash))
        return try Self.id(of: key, in: &components) {
            try Self.storedID(
                of: [.text(candidate.key), .text(candidate.structureHash)],
                select: "SELECT id FROM components WHERE component_key = ? AND structure_hash = ?",
                insert: "INSERT INTO components (component_key, structure_hash) VALUES (?, ?)", in: database
            )
        }
    }

    /// The id of a page's pass counts as stored (`PassCounts`), nil when there are none.
    func passCountsID(_ passCounts: [String: Int], in database: SQLiteDatabase) throws -> Int64? {
        let numbered = try passCounts.map { (number: try ruleNumber($0.key, in: database), passes: $0.value) }
        guard !numbered.isEmpty else { return nil }
        let text = PassCounts.text(numbered)
        return try Self.id(of: FindingDetail.Digest(of: text), in: &self.passCounts) {
            try Self.storedID(
                of: [.text(text)], select: "SELECT id FROM pass_counts WHERE counts = ?", insert: "INSERT INTO pass_counts (counts) VALUES (?)",
                in: database
            )
        }
    }

    func ruleNumber(_ ruleID: String, in database: SQLiteDatabase) throws -> Int64 {
        try Self.id(of: ExactText(ruleID), in: &rules) {
            try Self.storedID(
                of: [.text(ruleID)], select: "SELECT id FROM rules WHERE rule_id = ?", insert: "INSERT INTO rules (rule_id) VALUES (?)",
                in: database
            )
        }
    }

    private static func id<Key: Hashable>(of key: Key, in cache: inout [Key: Int64], lookUp: () throws -> Int64) rethrows -> Int64 {
        if let id = cache[key] { return id }
        let id = try lookUp()
        if cache.count >= limit { cache.removeAll(keepingCapacity: true) }
        cache[key] = id
        return id
    }

    /// The id of the row holding `values` (a table with a UNIQUE constraint on them), written if missing.
    static func storedID(of values: [SQLiteValue], select: SQL, insert: SQL, in database: SQLiteDatabase) throws -> Int64 {
        if let id = try database.queryFirst(select, values, row: { $0.int64(0) }) { return id }
        try database.run(insert, values)
        return database.lastInsertRowID
    }
}

/// A page's pass counts as `pass_counts` stores them: "number:count" pairs by rule number (the
/// id in `rules`), in number order and joined by commas, e.g. "1:5,3:2". Rules that no node
/// passed are left out. In number order the same counts are the same text, stored once.
enum PassCounts {
    static func text(_ counts: [(number: Int64, passes: Int)]) -> String {
        counts.sorted { $0.number < $1.number }.map { "\($0.number):\($0.passes)" }.joined(separator: ",")
    }

    /// The counts of a stored text `number:passes,…`, by rule id. Read as the text's pieces
    /// split at commas and each at colons, empty pieces left out, and each number as `Int64(_:)`
    /// reads it (a sign, then digits): in one pass over the bytes, with no array made a piece.
    /// Split into arrays, reading a page's counts was 140,000 instructions, for every page of
    /// latest-results.jsonl (callgrind, the whole javadoc site).
    static func counts(_ text: String, ruleIDs: [Int64: String]) throws -> [String: Int] {
        var text = text
        var counts: [String: Int] = [:]
        let isValid = text.withUTF8 { bytes -> Bool in
            var commas = 0
            for byte in bytes where byte == UInt8(ascii: ",") { commas += 1 }
            counts.reserveCapacity(commas + 1)
            var pieceStart = 0
            while pieceStart <= bytes.count {
                var pieceEnd = pieceStart
                while pieceEnd < bytes.count, bytes[pieceEnd] != UInt8(ascii: ",") { pieceEnd += 1 }
                defer { pieceStart = pieceEnd + 1 }
                guard pieceEnd > pieceStart else { continue }
                // The piece's non-empty parts between colons: exactly two.
                var first: Range<Int>?, second: Range<Int>?
                var partStart = pieceStart
                while partStart <= pieceEnd {
                    var partEnd = partStart
                    while partEnd < pieceEnd, bytes[partEnd] != UInt8(ascii: ":") { partEnd += 1 }
                    if partEnd > partStart {
                        guard second == nil else { return false }
                        if first == nil { first = partStart..<partEnd } else { second = partStart..<partEnd }
                    }
                    partStart = partEnd + 1
                }
                guard let first, let second, let number = decimal(bytes[first]), let passes = decimal(bytes[second]),
                    let rule = ruleIDs[number]
                else { return false }
                counts[rule] = Int(passes)
            }
            return true
        }
        guard isValid else { throw StoreError.corruptValue(column: "pass_counts.counts", value: String(text.prefix(80))) }
        return counts
    }

    /// A decimal integer as `Int64(_:)` reads one: an optional sign, at least one ASCII digit,
    /// nothing else; nil when it does not fit.
    static func decimal(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Int64? {
        var index = bytes.startIndex
        var isNegative = false
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            isNegative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        guard index < bytes.endIndex else { return nil }
        var value: Int64 = 0
        while index < bytes.endIndex {
            let digit = bytes[index] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowedAgain) = isNegative ? shifted.subtractingReportingOverflow(Int64(digit)) : shifted.addingReportingOverflow(Int64(digit))
            guard !overflowed, !overflowedAgain else { return nil }
            value = next
            index += 1
        }
        return value
    }

    /// Rule ids by number; the table holds one row a rule ever passed, a few hundred at most.
    static func ruleIDs(in database: SQLiteDatabase) throws -> [Int64: String] {
        Dictionary(uniqueKeysWithValues: try database.query("SELECT id, rule_id FROM rules") { ($0.int64(0), $0.string(1)) })
    }
}
