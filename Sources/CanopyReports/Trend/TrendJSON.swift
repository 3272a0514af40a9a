import CanopyHistory
import Foundation

/// trend.json: the trend report for dashboards (docs/trend-json.md).
extension TrendReport {
    /// The report as JSON: sorted keys, ISO 8601 dates.
    public func jsonData(prettyPrinted: Bool = true) throws -> Data {
        try Self.encoder(prettyPrinted: prettyPrinted).encode(self)
    }

    /// The one encoder configuration of the report: `writeJSON` splices pages into `jsonData()`'s
    /// text, so both must encode alike.
    private static func encoder(prettyPrinted: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = prettyPrinted ? [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The same bytes as `jsonData()` with `latest.pages` replaced by the pages `forEachPage`
    /// gives, written in pieces as they come: for a run of 100,000 pages the drill-down is tens of
    /// megabytes of JSON, and encoding it whole took several times that in memory.
    public func writeJSON(
        pages forEachPage: ((PageDrillDown) throws -> Void) throws -> Void, to write: (Data) throws -> Void
    ) throws {
        guard latest != nil else { return try write(try jsonData()) }
        let encoder = Self.encoder(prettyPrinted: true)
        // The report with one placeholder page; its text, found in the whole, marks where the
        // pages go and how deep they are indented.
        let marker = PageDrillDown(url: "canopy-placeholder-\(UUID().uuidString)", findings: [])
        var withMarker = self
        withMarker.latest?.pages = [marker]
        let whole = try withMarker.jsonData()
        let markerText = try encoder.encode(marker)
        var found: (range: Range<Data.Index>, indent: Data)?
        for depth in 0...8 {
            let indent = Data(String(repeating: " ", count: depth * 2).utf8)
            if let range = whole.range(of: Self.indented(markerText, by: indent)) {
                found = (range, indent)
                break
            }
        }
        guard let (range, indent) = found else { throw CocoaError(.coderInvalidValue) }
        try write(whole[..<range.lowerBound])
        var buffer = Data()
        var first = true
        // Neither closure outlives this call; the compiler cannot tell that one calls the other.
        try withoutActuallyEscaping(write) { write in
            try forEachPage { page in
                if !first { buffer.append(contentsOf: ",\n".utf8) }
                first = false
                buffer.append(Self.indented(try encoder.encode(page), by: indent))
                if buffer.count >= 1 << 20 {
                    try write(buffer)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
        }
        try write(buffer)
        try write(whole[range.upperBound...])
    }

    /// Pretty-printed JSON of a value nested `indent` deep, as the encoder writes it inside a report.
    /// Empty lines (inside an empty array) stay empty, as the encoder leaves them.
    private static func indented(_ json: Data, by indent: Data) -> Data {
        // Line by line, not byte by byte: byte-wise appends to Data were a visible part of the
        // end of a crawl (perf, java.base).
        let bytes = [UInt8](json), indentBytes = [UInt8](indent)
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count + bytes.count / 4)
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            if end > start {
                result.append(contentsOf: indentBytes)
                result.append(contentsOf: bytes[start..<end])
            }
            if end < bytes.count { result.append(UInt8(ascii: "\n")) }
            start = end + 1
        }
        return Data(result)
    }

    public static func decode(_ data: Data) throws -> TrendReport {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try decoder.decode(TrendReport.self, from: data)
    }
}
