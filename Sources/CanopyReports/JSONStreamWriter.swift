import Foundation

/// JSON written as it is produced, into a reusable buffer handed to a sink in pieces: the bytes
/// JSONEncoder writes with `.sortedKeys` and `.withoutEscapingSlashes` (and `.prettyPrinted` when
/// `pretty`), with dates as `.iso8601` writes them, without building the document first.
///
/// Why not JSONEncoder: it builds a tree of the whole value, then the whole text, before a byte
/// reaches the file. For trend.json of java.base (38,000 open issues) that was a third of
/// `canopy report`'s time and most of its peak memory (perf and heaptrack, docs/benchmarks.md).
/// Small, fixed-size outputs (digest.json) still use JSONEncoder.
///
/// Keys are written in the order given: callers give them sorted by their UTF-8 bytes, as
/// `.sortedKeys` orders them (debug builds check it); `value(_:)` sorts the keys of a `JSONValue`.
/// Tests hold every writer built on this to JSONEncoder's bytes.
struct JSONStreamWriter {
    var output: ChunkedOutput
    let pretty: Bool
    /// Per open container: whether it is an array, and whether it has an element yet.
    private var containers: [(isArray: Bool, isEmpty: Bool)] = []
    private var dates: [Date: [UInt8]] = [:]
    #if DEBUG
    private var lastKeys: [[UInt8]?] = []
    #endif

    init(pretty: Bool, sink: ByteSink?) {
        self.pretty = pretty
        output = ChunkedOutput(sink: sink)
    }

    /// A writer of the elements of an array another writer has opened, `depth` containers deep
    /// (the array the innermost): its bytes are the ones that writer would write there, so the
    /// other one can take them in where it stands (`append(elementsFrom:writtenAtDepth:)`).
    /// Lets a long list be written on another thread while the document before it is written.
    init(pretty: Bool, sink: ByteSink?, elementsOfArrayAtDepth depth: Int) {
        precondition(depth > 0, "an array is at least one container deep")
        self.init(pretty: pretty, sink: sink)
        // The outer containers' flags are never read: the elements close none of them.
        containers = Array(repeating: (isArray: false, isEmpty: false), count: depth - 1) + [(isArray: true, isEmpty: true)]
        #if DEBUG
        lastKeys = Array(repeating: nil, count: depth)
        #endif
    }

    /// Hands on the rest of a writer made with `init(pretty:sink:elementsOfArrayAtDepth:)`,
    /// whose array stays open for the writer that takes its bytes in.
    mutating func finishElements() throws {
        assert(containers.count > 0 && containers.last?.isArray == true, "elements finished outside their array")
        try output.flush()
    }

    /// Takes in the bytes of a writer of elements (`init(pretty:sink:elementsOfArrayAtDepth:)`),
    /// written for the array this writer has just opened, at the same depth. The array's
    /// closing bracket is laid out the same whether it holds elements or not.
    mutating func append(elementsFrom scratch: ScratchFile, writtenAtDepth depth: Int) throws {
        precondition(
            containers.count == depth && containers.last?.isArray == true && containers.last?.isEmpty == true,
            "elements taken in outside a fresh array of their depth"
        )
        try output.append(contentsOf: scratch)
    }

    /// Everything written, when there is no sink.
    var bytes: [UInt8] { output.bytes }

    mutating func flushIfFull() throws { try output.flushIfFull() }

    /// Hands on the rest; the document must be complete.
    mutating func finish() throws {
        assert(containers.isEmpty, "JSON finished with a container open")
        try output.flush()
    }

    // MARK: Containers

    mutating func beginObject() {
        beforeValue()
        output.bytes.append(UInt8(ascii: "{"))
        open(isArray: false)
    }

    mutating func endObject() { close(UInt8(ascii: "}")) }

    mutating func beginArray() {
        beforeValue()
        output.bytes.append(UInt8(ascii: "["))
        open(isArray: true)
    }

    mutating func endArray() { close(UInt8(ascii: "]")) }

    /// The next member's key; its value follows. Names written in this module's code never need escaping.
    mutating func key(_ name: StaticString) {
        name.withUTF8Buffer { name in
            checkKey(name)
            appendMemberStart(name)
        }
    }

    /// A key that is data (an evidence name, a coverage reason), escaped as any string.
    mutating func key(_ name: String) {
        var text = name
        let written = text.withUTF8 { bytes in
            checkKey(bytes)
            guard !JSONText.needsEscaping(bytes) else { return false }
            appendMemberStart(bytes)
            return true
        }
        guard !written else { return }
        separate()
        JSONText.append(name, to: &output.bytes)
        endKey()
    }

    /// What comes before a member's value, in one append: the comma, the line break and the
    /// indent, the quoted name (which needs no escaping) and the colon. Appended piece by piece,
    /// these were seven appends and most of writing a key, of which trend.json and the SARIF
    /// file write hundreds of thousands (callgrind).
    private mutating func appendMemberStart(_ name: UnsafeBufferPointer<UInt8>) {
        let depth = containers.count
        let isFirst = containers[depth - 1].isEmpty
        if isFirst { containers[depth - 1].isEmpty = false }
        // As `separate()` and `endKey()` lay it out.
        let indent = pretty ? 2 * depth : 0
        let lineBreak = pretty && !isFirst
        let count = (isFirst ? 0 : 1) + (lineBreak ? 1 : 0) + indent + 1 + name.count + 1 + (pretty ? 3 : 1)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: count) { run in
            var end = 0
            func put(_ byte: UInt8) {
                run[end] = byte
                end += 1
            }
            if !isFirst { put(UInt8(ascii: ",")) }
            if lineBreak { put(UInt8(ascii: "\n")) }
            for _ in 0..<indent { put(UInt8(ascii: " ")) }
            put(UInt8(ascii: "\""))
            for byte in name { put(byte) }
            put(UInt8(ascii: "\""))
            if pretty {
                put(UInt8(ascii: " "))
                put(UInt8(ascii: ":"))
                put(UInt8(ascii: " "))
            } else {
                put(UInt8(ascii: ":"))
            }
            output.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: run[..<end]))
        }
    }

    // MARK: Values

    mutating func string(_ value: String) {
        beforeValue()
        JSONText.append(value, to: &output.bytes)
    }

    mutating func int(_ value: Int) {
        beforeValue()
        output.append(decimal: value)
    }

    mutating func bool(_ value: Bool) {
        beforeValue()
        output.append(value ? "true" : "false")
    }

    /// As JSONEncoder writes a Double: its description without a trailing `.0`.
    mutating func double(_ value: Double) throws {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, EncodingError.Context(codingPath: [], debugDescription: "\(value) is not a JSON number"))
        }
        beforeValue()
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        output.bytes.append(contentsOf: text.utf8)
    }

    /// As `.iso8601` writes a date. A report has few distinct dates (the runs'), each formatted once.
    mutating func date(_ value: Date) {
        beforeValue()
        if let text = dates[value] { return output.bytes.append(contentsOf: text) }
        var text: [UInt8] = []
        JSONText.append(value.formatted(.iso8601), to: &text)
        dates[value] = text
        output.bytes.append(contentsOf: text)
    }

    mutating func value(_ value: JSONValue) {
        switch value {
        case .string(let text): string(text)
        case .integer(let number): int(number)
        // `JSONValue(_:)` lets only finite numbers in.
        case .number(let number): try? double(number)
        case .boolean(let flag): bool(flag)
        case .array(let values):
            beginArray()
            for element in values { self.value(element) }
            endArray()
        case .object(let members):
            beginObject()
            for (name, member) in members.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
                key(name)
                self.value(member)
            }
            endObject()
        }
    }

    // MARK: Members, as JSONEncoder's synthesized `encode(to:)` writes them (nil left out)

    mutating func member<Value: JSONScalar>(_ name: StaticString, _ value: Value) {
        key(name)
        value.write(to: &self)
    }

    mutating func member<Value: JSONScalar>(_ name: StaticString, _ value: Value?) {
        guard let value else { return }
        member(name, value)
    }

    mutating func member(_ name: StaticString, _ values: [String]) {
        key(name)
        beginArray()
        for value in values { string(value) }
        endArray()
    }

    /// A `[String: Int]` as an object with sorted keys.
    mutating func member(_ name: StaticString, _ counts: [String: Int]) {
        key(name)
        beginObject()
        for (countName, count) in counts.sorted(by: { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }) {
            key(countName)
            int(count)
        }
        endObject()
    }

    // MARK: Layout

    private mutating func open(isArray: Bool) {
        if pretty { output.bytes.append(UInt8(ascii: "\n")) }
        containers.append((isArray, true))
        #if DEBUG
        lastKeys.append(nil)
        #endif
    }

    private mutating func close(_ bracket: UInt8) {
        containers.removeLast()
        #if DEBUG
        lastKeys.removeLast()
        #endif
        if pretty {
            // An empty container keeps its empty line, as JSONEncoder writes it.
            lineBreakAndIndent(containers.count, lineBreak: true)
        }
        output.bytes.append(bracket)
    }

    /// What comes before a member or an element: the comma, the line break and the indent.
    private mutating func separate() {
        let depth = containers.count
        guard depth > 0 else { return }
        let isFirst = containers[depth - 1].isEmpty
        if isFirst {
            containers[depth - 1].isEmpty = false
        } else {
            output.bytes.append(UInt8(ascii: ","))
        }
        // The first element's line break was written when its container opened.
        if pretty { lineBreakAndIndent(depth, lineBreak: !isFirst) }
    }

    /// Values in arrays are separated here; a member's value follows its key directly.
    private mutating func beforeValue() {
        if containers.last?.isArray == true { separate() }
    }

    /// In debug builds: a key inside an object, after the keys before it in sorted order.
    private mutating func checkKey(_ name: UnsafeBufferPointer<UInt8>) {
        assert(containers.last?.isArray == false, "a key outside an object")
        #if DEBUG
        if let previous = lastKeys[lastKeys.count - 1] {
            assert(
                previous.lexicographicallyPrecedes(name),
                "key \(String(decoding: name, as: UTF8.self)) after \(String(decoding: previous, as: UTF8.self)): keys must come sorted"
            )
        }
        lastKeys[lastKeys.count - 1] = Array(name)
        #endif
    }

    private mutating func endKey() {
        if pretty { output.append(" : ") } else { output.bytes.append(UInt8(ascii: ":")) }
    }

    /// A line break, then two spaces a level, written as one run of bytes from a fixed buffer:
    /// a slice of a shared array appended at every key and element was most of what writing a
    /// key cost (trend.json and the SARIF file write hundreds of thousands).
    private static let lineBreakAndSpaces: StaticString = "\n                                                                "

    private mutating func lineBreakAndIndent(_ depth: Int, lineBreak: Bool) {
        Self.lineBreakAndSpaces.withUTF8Buffer { run in
            var left = depth * 2
            let first = min(left, run.count - 1)
            output.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: run[(lineBreak ? 0 : 1)..<(1 + first)]))
            left -= first
            while left > 0 {
                let count = min(left, run.count - 1)
                output.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: run[1..<(1 + count)]))
                left -= count
            }
        }
    }
}

/// A value written as one JSON string, number or boolean.
protocol JSONScalar {
    func write(to json: inout JSONStreamWriter)
}

extension String: JSONScalar {
    func write(to json: inout JSONStreamWriter) { json.string(self) }
}

extension Int: JSONScalar {
    func write(to json: inout JSONStreamWriter) { json.int(self) }
}

extension Bool: JSONScalar {
    func write(to json: inout JSONStreamWriter) { json.bool(self) }
}

extension Date: JSONScalar {
    func write(to json: inout JSONStreamWriter) { json.date(self) }
}

/// A JSON value built as plain data (SARIF's rule descriptors), written by `JSONStreamWriter.value`.
enum JSONValue {
    case string(String), integer(Int), number(Double), boolean(Bool), array([JSONValue]), object([String: JSONValue])

    /// From plain `[String: Any]` dictionaries, arrays, strings, numbers and booleans.
    init(_ any: Any) throws {
        switch any {
        case let value as String: self = .string(value)
        case let value as Bool: self = .boolean(value)
        case let value as Int: self = .integer(value)
        case let value as Double where value.isFinite: self = .number(value)
        case let values as [Any]: self = .array(try values.map(JSONValue.init))
        case let values as [String: Any]: self = .object(try values.mapValues(JSONValue.init))
        default: throw EncodingError.invalidValue(any, EncodingError.Context(codingPath: [], debugDescription: "not a JSON value"))
        }
    }
}
