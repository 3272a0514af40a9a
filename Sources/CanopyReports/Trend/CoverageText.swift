import CanopyStore

/// A run's coverage in words, one way for every place that prints it: the crawl's summary, the
/// digest and the HTML report.
public enum CoverageText {
    /// "120 pages audited; not audited: 3 client-rendered, 2 not HTML; failed: 1 HTTP 404;
    /// frames: 4 audited, 1 skipped; stylesheets: 9 loaded, 1 failed, 1 missing".
    public static func line(_ coverage: RunCoverage) -> String {
        var parts = ["\(pages(coverage.crawled)) audited"]
        if !coverage.notAudited.isEmpty { parts.append("not audited: " + counts(coverage.notAudited)) }
        if !coverage.errors.isEmpty { parts.append("failed: " + counts(coverage.errors)) }
        if coverage.framesAudited + coverage.framesSkipped > 0 {
            parts.append("frames: \(coverage.framesAudited) audited, \(coverage.framesSkipped) skipped")
        }
        if let sheets = coverage.stylesheets, sheets.loaded + sheets.failed + sheets.missing > 0 {
            parts.append("stylesheets: \(sheets.loaded) loaded, \(sheets.failed) failed, \(sheets.missing) missing")
        }
        return parts.joined(separator: "; ")
    }

    /// "3 client-rendered, 2 not HTML": largest first, then by name.
    public static func counts(_ counts: [String: Int]) -> String {
        sorted(counts).map { "\($0.count) \($0.name)" }.joined(separator: ", ")
    }

    public static func sorted(_ counts: [String: Int]) -> [(name: String, count: Int)] {
        counts.map { (name: $0.key, count: $0.value) }.sorted { ($0.count, $1.name) > ($1.count, $0.name) }
    }

    static func pages(_ count: Int) -> String { count == 1 ? "1 page" : "\(count) pages" }
}
