import CanopyHistory
import CanopyRules
import CanopyStore
import Foundation

/// `index.html`: the trend report a team opens, in one self-contained file.
///
/// - No script and nothing fetched: CSS and SVG charts are inline, and a Content-Security-Policy
///   allows nothing else, so even a mistake in escaping could not run a crawled script.
/// - Every string that comes from a crawl or a configuration goes through `esc`
///   (`HTMLEscaping.escape`); crawled URLs become links only when they are http(s).
/// - It must pass Canopy's own rules: landmarks, one h1 and ordered headings, tables with
///   header cells and scopes, charts with a name and their numbers in a table, no keyboard trap.
///
/// Large sites: the open-issues table and the page drill-down are capped (`Limits`) and say so;
/// trend.json and open-issues.csv hold everything.
public struct TrendHTMLReport: Sendable {
    public struct Limits: Sendable {
        /// Rows of the open-issues table, most severe and widespread first.
        public var openIssues: Int
        /// Pages in the drill-down; above it, the pages with the most findings.
        public var drillDownPages: Int
        /// Findings listed under one page.
        public var findingsPerPage: Int

        public init(openIssues: Int = 500, drillDownPages: Int = 300, findingsPerPage: Int = 100) {
            self.openIssues = openIssues
            self.drillDownPages = drillDownPages
            self.findingsPerPage = findingsPerPage
        }
    }

    public static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'"

    public let report: TrendReport
    /// What the report is about, e.g. the start URL's host; crawled, so escaped.
    public let siteName: String
    public let limits: Limits
    /// The latest run's page count and the pages to choose the drill-down from; nil takes
    /// `report.latest.pages` (`RunStore.drillDownPages` gives them without reading every page).
    public let drillDown: (total: Int, pages: [PageDrillDown])?
    /// How many open issues the latest run has and the first of them (at least `limits.openIssues`);
    /// nil takes `report.latest.openIssues` (`RunStore.forEachOpenIssue` gives them without holding them all).
    public let openIssues: (total: Int, first: [OpenIssue])?

    public init(
        report: TrendReport, siteName: String, limits: Limits = Limits(), drillDown: (total: Int, pages: [PageDrillDown])? = nil,
        openIssues: (total: Int, first: [OpenIssue])? = nil
    ) {
        self.report = report
        self.siteName = siteName
        self.limits = limits
        self.drillDown = drillDown
        self.openIssues = openIssues
    }

    static let impactColors: [(impact: String, color: String)] = [
        ("critical", "#7f1d1d"), ("serious", "#c2410c"), ("moderate", "#8a5a00"), ("minor", "#475569"),
    ]
    static let newColor = "#b91c1c"
    static let fixedColor = "#15803d"

    public func render() -> String {
        var html = ""
        write { html += $0 }
        return html
    }

    /// The document in pieces of about 256 KB, handed to `output` as they are made: the drill-down
    /// of a large site is megabytes, never held whole.
    func write(_ output: (String) throws -> Void) rethrows {
        var page = HTMLPage(dates: DateText())
        func flushIfLarge() throws {
            guard page.html.utf8.count >= 1 << 18 else { return }
            try output(page.html)
            page.html.removeAll(keepingCapacity: true)
        }
        page.head(title: "Accessibility trend – \(siteName)")
        page.body(siteName: siteName, hasRuns: !report.runs.isEmpty)
        if let latestTrend = report.runs.last {
            page.summary(latestTrend, latest: report.latest, runs: report.runs.count)
            page.trend(report.runs)
            page.whereIssuesAre(latestTrend, latest: report.latest)
            page.coverage(latestTrend, latest: report.latest, runs: report.runs)
            try flushIfLarge()
            if let latest = report.latest {
                page.openIssues(
                    openIssues?.first ?? latest.openIssues, total: openIssues?.total ?? latest.openIssues.count, limit: limits.openIssues
                )
                try flushIfLarge()
                let shown = page.drillDownStart(drillDown?.pages ?? latest.pages, total: drillDown?.total ?? latest.pages.count, limits: limits)
                for drilled in shown {
                    page.drillDown(drilled, limits: limits)
                    try flushIfLarge()
                }
                page.raw("</section>\n")
            }
        } else {
            page.raw("<p>No complete run yet. Run <code>canopy crawl</code>; an interrupted or running crawl is never counted.</p>")
        }
        page.end(generatedAt: report.generatedAt)
        try output(page.html)
    }
}

/// The document as it is written, section by section.
private struct HTMLPage {
    let dates: DateText
    var html = ""

    init(dates: DateText) {
        self.dates = dates
        html.reserveCapacity(1 << 20)
    }

    /// Markup written by this file; never crawled content.
    mutating func raw(_ markup: String) { html += markup }

    /// A contrast measurement as a developer fixes it: "2.9:1, needs 4.5:1" with a swatch of
    /// each colour beside its hex value (the swatch adds to the text, never replaces it).
    mutating func measurement(_ evidence: [String: EvidenceValue]) {
        guard case .number(let ratio)? = evidence["contrastRatio"] else { return }
        var parts = ["\(Self.ratioText(ratio)):1"]
        if case .text(let needed)? = evidence["expectedContrastRatio"] { parts[0] += ", needs \(esc(needed))" }
        var line = "<p class=\"measure\"><strong>\(parts[0])</strong>"
        // Contrast of text and background, or (link-in-text-block) of a link and the text around it.
        let colours = [
            ("fgColor", "text"), ("bgColor", "background"), ("nodeColor", "link"), ("parentColor", "surrounding text"),
            ("nodeBackgroundColor", "link background"), ("parentBackgroundColor", "text background"),
        ]
        for (key, label) in colours {
            guard case .text(let color)? = evidence[key], Self.isHexColor(color) else { continue }
            line += " <span class=\"measured-colour\"><svg width=\"14\" height=\"14\" aria-hidden=\"true\" focusable=\"false\">"
                + "<rect x=\"0.5\" y=\"0.5\" width=\"13\" height=\"13\" fill=\"\(color)\" stroke=\"#374151\"/></svg> \(label) <code>\(color)</code></span>"
        }
        if case .text(let size)? = evidence["fontSize"] {
            let weight: String
            if case .text(let value)? = evidence["fontWeight"] { weight = " \(esc(value))" } else { weight = "" }
            line += " <span class=\"detail\">\(esc(size))\(weight)</span>"
        }
        raw(line + "</p>")
    }

    private static func ratioText(_ ratio: Double) -> String {
        ratio == ratio.rounded() ? String(Int(ratio)) : String((ratio * 100).rounded() / 100)
    }

    /// `#rgb`, `#rrggbb` or `#rrggbbaa` only: anything else never reaches an attribute.
    static func isHexColor(_ text: String) -> Bool {
        let digits = text.dropFirst()
        return text.hasPrefix("#") && [3, 6, 8].contains(digits.count) && digits.allSatisfy(\.isHexDigit)
    }

    func esc(_ text: some StringProtocol) -> String { HTMLEscaping.escape(text) }

    /// A crawled URL as text, and as a link when it is http(s).
    func url(_ value: String) -> String {
        guard let href = HTMLEscaping.linkableURL(value) else { return "<span class=\"url\">\(esc(value))</span>" }
        return "<a class=\"url\" href=\"\(esc(href))\" rel=\"noreferrer\">\(esc(value))</a>"
    }

    mutating func head(title: String) {
        raw("""
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(TrendHTMLReport.contentSecurityPolicy)">
            <meta name="referrer" content="no-referrer">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(esc(title))</title>
            <style>\(Self.styleSheet)</style>
            </head>

            """)
    }

    mutating func body(siteName: String, hasRuns: Bool) {
        raw("""
            <body>
            <header>
            <a class="skip" href="#main">Skip to the report</a>
            <p class="brand">Canopy accessibility report</p>

            """)
        if hasRuns {
            raw("""
                <nav aria-label="Report sections">
                <ul>
                <li><a href="#summary">Summary</a></li>
                <li><a href="#trend">Trend</a></li>
                <li><a href="#where">Where the issues are</a></li>
                <li><a href="#coverage">Coverage</a></li>
                <li><a href="#issues">Open issues</a></li>
                <li><a href="#pages">Pages</a></li>
                </ul>
                </nav>

                """)
        }
        raw("</header>\n<main id=\"main\">\n<h1>Accessibility of \(esc(siteName))</h1>\n")
    }

    mutating func end(generatedAt: Date) {
        raw("""
            </main>
            <footer>
            <p>Generated by Canopy \(esc(CanopyVersion.current)) on \(esc(dates.time(generatedAt))). \
            The same data for tools: <a href="trend.json">trend.json</a>, <a href="open-issues.csv">open-issues.csv</a>, \
            <a href="latest-results.jsonl">latest-results.jsonl</a> (axe-core's result shape).</p>
            </footer>
            </body>
            </html>

            """)
    }

    // MARK: Summary

    mutating func summary(_ run: RunTrend, latest: LatestRun?, runs: Int) {
        let comparison = run.comparison
        raw("<section id=\"summary\">\n<h2>Summary</h2>\n")
        raw("<p>Latest complete run: run \(run.runId) of \(esc(dates.time(run.startedAt))), rule set <code>\(esc(run.ruleSetName))</code>, \(runs) complete \(runs == 1 ? "run" : "runs") in the trend.</p>\n")
        raw("<ul class=\"figures\">\n")
        figure(run.violations.issues, "violation issues", detail: "\(run.violations.instances) instances, \(run.violations.findings) failing elements")
        if let comparison {
            figure(comparison.newIssues, "new since run \(comparison.previousRunId)", detail: "\(comparison.newInstances) new instances")
            figure(comparison.fixedIssues, "fixed since run \(comparison.previousRunId)", detail: "\(comparison.fixedInstances) fixed instances")
        }
        figure(run.needsReview.issues, "issues to review", detail: "elements a person must check")
        let clientRendered = run.coverage.notAudited[NotAudited.clientRendered] ?? 0
        figure(
            run.coverage.crawled, "pages audited",
            detail: "\(run.coverage.failed) failed" + (clientRendered > 0 ? ", \(clientRendered) not audited: client-rendered" : "")
        )
        raw("</ul>\n")
        if let comparison, !comparison.changes.isEmpty {
            raw("<p class=\"note\"><strong>Not only the site changed since run \(comparison.previousRunId):</strong> \(esc(comparison.changes.joined(separator: "; "))). Part of the difference may come from that.</p>\n")
        }
        raw("</section>\n")
    }

    private mutating func figure(_ value: Int, _ label: String, detail: String?) {
        raw("<li><span class=\"value\">\(value)</span> \(esc(label))")
        if let detail { raw("<br><span class=\"detail\">\(esc(detail))</span>") }
        raw("</li>\n")
    }

    // MARK: Trend

    mutating func trend(_ runs: [RunTrend]) {
        raw("<section id=\"trend\">\n<h2>Trend</h2>\n")
        let impacts = TrendHTMLReport.impactColors
        let columns = runs.map { run in
            SVGCharts.Column(
                label: dates.short(run.startedAt),
                values: impacts.map { impact in run.byImpact.first { $0.name == impact.impact }?.issues ?? 0 },
                marker: marker(run)
            )
        }
        let first = runs[0], last = runs[runs.count - 1]
        let changed = runs.filter { marker($0) != nil }
        raw("<h3>Violation issues per run, by impact</h3>\n<figure>\n")
        raw(SVGCharts.columns(
            columns, series: impacts.map { SVGCharts.Series(name: $0.impact, color: $0.color) }, stacked: true,
            label: "Stacked bar chart of violation issues per run by impact, \(runs.count) runs from \(dates.date(first.startedAt)) to \(dates.date(last.startedAt)); "
                + "latest run \(last.violations.issues) issues. \(markedRuns(changed))The table below lists every number."
        ))
        raw("<figcaption>")
        legend(impacts.map { ($0.impact, $0.color) }, marker: !changed.isEmpty)
        raw("</figcaption>\n</figure>\n")

        raw("<h3>New and fixed issues per run</h3>\n<figure>\n")
        let compared = runs.filter { $0.comparison != nil }
        if compared.isEmpty {
            raw("<p>One run so far: new and fixed issues show from the second run on.</p>\n")
        } else {
            raw(SVGCharts.columns(
                compared.map { run in
                    SVGCharts.Column(
                        label: dates.short(run.startedAt), values: [run.comparison?.newIssues ?? 0, run.comparison?.fixedIssues ?? 0],
                        marker: marker(run)
                    )
                },
                series: [SVGCharts.Series(name: "new", color: TrendHTMLReport.newColor), SVGCharts.Series(name: "fixed", color: TrendHTMLReport.fixedColor)],
                stacked: false,
                label: "Bar chart of new and fixed violation issues per run against the run before, \(compared.count) runs; latest run "
                    + "\(last.comparison?.newIssues ?? 0) new and \(last.comparison?.fixedIssues ?? 0) fixed. \(markedRuns(changed))The table below lists every number."
            ))
            raw("<figcaption>")
            legend([("new", TrendHTMLReport.newColor), ("fixed", TrendHTMLReport.fixedColor)], marker: !changed.isEmpty)
            raw("</figcaption>\n")
        }
        raw("</figure>\n")

        raw("<details>\n<summary>The trend's numbers, run by run</summary>\n<table>\n<caption>Violation issues per run</caption>\n<thead><tr>")
        raw("<th scope=\"col\">Run</th><th scope=\"col\">Started</th>")
        for impact in impacts { raw("<th scope=\"col\" class=\"number\">\(esc(impact.impact.capitalized))</th>") }
        raw("<th scope=\"col\" class=\"number\">Issues</th><th scope=\"col\" class=\"number\">Instances</th><th scope=\"col\" class=\"number\">New</th><th scope=\"col\" class=\"number\">Fixed</th><th scope=\"col\" class=\"number\">Pages</th><th scope=\"col\" class=\"number\">Not audited</th><th scope=\"col\">Changes besides the site</th></tr></thead>\n<tbody>\n")
        for run in runs.reversed() {
            raw("<tr><th scope=\"row\">\(run.runId)</th><td>\(esc(dates.time(run.startedAt)))</td>")
            for impact in impacts { raw("<td class=\"number\">\(run.byImpact.first { $0.name == impact.impact }?.issues ?? 0)</td>") }
            raw("<td class=\"number\">\(run.violations.issues)</td><td class=\"number\">\(run.violations.instances)</td>")
            raw("<td class=\"number\">\(run.comparison.map { String($0.newIssues) } ?? "–")</td><td class=\"number\">\(run.comparison.map { String($0.fixedIssues) } ?? "–")</td>")
            raw("<td class=\"number\">\(run.coverage.crawled)</td><td class=\"number\">\(run.coverage.pagesNotAudited)</td>")
            raw("<td>\(esc(run.comparison?.changes.joined(separator: "; ") ?? ""))</td></tr>\n")
        }
        raw("</tbody>\n</table>\n</details>\n")

        raw("<h3>Rule-set and configuration changes</h3>\n")
        if changed.isEmpty {
            raw("<p>None: every run in the trend used the same rules, configuration and Canopy version as the run before it.</p>\n")
        } else {
            raw("<p>A jump at these runs may come from the change rather than from the site:</p>\n<ul>\n")
            for run in changed {
                raw("<li>Run \(run.runId) (\(esc(dates.date(run.startedAt)))): \(esc(run.comparison?.changes.joined(separator: "; ") ?? ""))</li>\n")
            }
            raw("</ul>\n")
        }
        raw("</section>\n")
    }

    /// `marker` adds the change marker's entry, drawn as the dashed line it explains and named by
    /// its shape, not by its colour alone.
    private mutating func legend(_ entries: [(String, String)], marker: Bool = false) {
        raw("<ul class=\"legend\">")
        for (name, color) in entries {
            raw("<li><span class=\"swatch\" style=\"background:\(color)\" aria-hidden=\"true\"></span>\(esc(name))</li>")
        }
        if marker {
            raw("<li><span class=\"swatch swatch-marker\" style=\"border-color:\(SVGCharts.markerColor)\" aria-hidden=\"true\"></span>")
            raw("dashed line, labelled: the rule set, configuration or Canopy version changed before this run</li>")
        }
        raw("</ul>")
    }

    /// The chart marker for a run compared under other rules, configuration or Canopy version.
    private func marker(_ run: RunTrend) -> SVGCharts.Marker? {
        guard let changes = run.comparison?.changes, !changes.isEmpty else { return nil }
        let text = changes.joined(separator: "; ")
        return SVGCharts.Marker(label: text, detail: "Run \(run.runId) (\(dates.date(run.startedAt))): \(text)")
    }

    /// The marked runs in words, for a chart's text alternative: a marker's label and tooltip are
    /// inside the image, where a screen reader does not go.
    private func markedRuns(_ runs: [RunTrend]) -> String {
        guard !runs.isEmpty else { return "" }
        let shown = runs.suffix(5).map { "run \($0.runId) (\(dates.date($0.startedAt))), \($0.comparison?.changes.joined(separator: "; ") ?? "")" }
        let earlier = runs.count > shown.count ? "; \(runs.count - shown.count) earlier ones are listed below" : ""
        return "Marked with a dashed line where not only the site changed: \(shown.joined(separator: "; "))\(earlier). "
    }

    // MARK: Where the issues are

    mutating func whereIssuesAre(_ run: RunTrend, latest: LatestRun?) {
        raw("<section id=\"where\">\n<h2>Where the issues are</h2>\n<p>In the latest run. An <em>instance</em> is an issue on one page: one template issue on 500 pages is 500 instances.</p>\n")
        let rules = run.byRule.filter { $0.issues > 0 }.prefix(10)
        raw("<h3>Top rules</h3>\n")
        if rules.isEmpty {
            raw("<p>No rule has a violation.</p>\n")
        } else {
            raw("<figure>\n")
            raw(SVGCharts.bars(
                rules.map { ($0.ruleId, $0.instances) }, color: "#c2410c",
                label: "Bar chart of the \(rules.count) rules with the most violation instances in the latest run; the table below lists the numbers."
            ))
            raw("</figure>\n<table>\n<caption>Rules by violation instances</caption>\n<thead><tr><th scope=\"col\">Rule</th><th scope=\"col\" class=\"number\">Issues</th><th scope=\"col\" class=\"number\">Instances</th><th scope=\"col\" class=\"number\">Failing elements</th><th scope=\"col\" class=\"number\">Passing elements</th></tr></thead>\n<tbody>\n")
            for rule in rules {
                raw("<tr><th scope=\"row\"><code>\(esc(rule.ruleId))</code></th><td class=\"number\">\(rule.issues)</td><td class=\"number\">\(rule.instances)</td><td class=\"number\">\(rule.findings)</td><td class=\"number\">\(rule.passes)</td></tr>\n")
            }
            raw("</tbody>\n</table>\n")
        }

        let pageCounts = Dictionary((latest?.pageTypes ?? []).map { ($0.name, $0.pages) }, uniquingKeysWith: { first, _ in first })
        let types = run.byPageType.prefix(10)
        raw("<h3>Top page types</h3>\n")
        if types.isEmpty {
            raw("<p>No page type has a violation outside the site-wide components.</p>\n")
        } else {
            raw("<figure>\n")
            raw(SVGCharts.bars(
                types.map { ($0.name, $0.instances) }, color: "#475569",
                label: "Bar chart of the \(types.count) page types with the most violation instances outside site-wide components; the table below lists the numbers."
            ))
            raw("</figure>\n<table>\n<caption>Page types by violation instances (outside site-wide components)</caption>\n<thead><tr><th scope=\"col\">Page type</th><th scope=\"col\" class=\"number\">Pages</th><th scope=\"col\" class=\"number\">Issues</th><th scope=\"col\" class=\"number\">Instances</th></tr></thead>\n<tbody>\n")
            for type in types {
                raw("<tr><th scope=\"row\"><code>\(esc(type.name))</code></th><td class=\"number\">\(pageCounts[type.name].map(String.init) ?? "–")</td><td class=\"number\">\(type.issues)</td><td class=\"number\">\(type.instances)</td></tr>\n")
            }
            raw("</tbody>\n</table>\n")
        }

        let componentPages = Dictionary((latest?.components ?? []).map { ($0.name, $0.pages) }, uniquingKeysWith: max)
        raw("<h3>Site-wide components</h3>\n")
        if run.byComponent.isEmpty {
            raw("<p>No violation inside a site-wide component (a header, footer, navigation or widget found on most pages).</p>\n")
        } else {
            raw("<p>Markup found on most pages. Each of its issues is counted once, however many pages carry it.</p>\n")
            raw("<table>\n<caption>Site-wide components with violations</caption>\n<thead><tr><th scope=\"col\">Component</th><th scope=\"col\" class=\"number\">On pages</th><th scope=\"col\" class=\"number\">Issues</th><th scope=\"col\" class=\"number\">Instances</th></tr></thead>\n<tbody>\n")
            for component in run.byComponent {
                raw("<tr><th scope=\"row\"><code>\(esc(component.name))</code></th><td class=\"number\">\(componentPages[component.name].map(String.init) ?? "–")</td><td class=\"number\">\(component.issues)</td><td class=\"number\">\(component.instances)</td></tr>\n")
            }
            raw("</tbody>\n</table>\n")
        }

        raw("<h3>Owners</h3>\n")
        if run.byOwner.isEmpty {
            raw("<p>No violations.</p>\n")
        } else {
            raw("<table>\n<caption>Violations by owner: the site's own markup, or a vendor's (configured under <code>owners</code>)</caption>\n<thead><tr><th scope=\"col\">Owner</th><th scope=\"col\" class=\"number\">Issues</th><th scope=\"col\" class=\"number\">Instances</th></tr></thead>\n<tbody>\n")
            for owner in run.byOwner {
                raw("<tr><th scope=\"row\">\(owner.owner.map { esc($0) } ?? "First party (the site's own markup)")</th><td class=\"number\">\(owner.issues)</td><td class=\"number\">\(owner.instances)</td></tr>\n")
            }
            raw("</tbody>\n</table>\n")
        }
        raw("</section>\n")
    }

    // MARK: Coverage

    mutating func coverage(_ run: RunTrend, latest: LatestRun?, runs: [RunTrend]) {
        let coverage = run.coverage
        raw("""
            <section id="coverage">
            <h2>Coverage</h2>
            <table>
            <caption>What the latest run reached</caption>
            <thead><tr><th scope="col">Pages</th><th scope="col" class="number">Count</th></tr></thead>
            <tbody>
            <tr><th scope="row">Planned</th><td class="number">\(coverage.planned)</td></tr>
            <tr><th scope="row">Audited</th><td class="number">\(coverage.crawled)</td></tr>

            """)
        for (reason, count) in CoverageText.sorted(coverage.notAudited) {
            raw("<tr><th scope=\"row\">Not audited: \(esc(reason))</th><td class=\"number\">\(count)</td></tr>\n")
        }
        raw("<tr><th scope=\"row\">Failed (no answer, an error status, too large)</th><td class=\"number\">\(coverage.failed)</td></tr>\n")
        for (kind, count) in CoverageText.sorted(coverage.errors) {
            raw("<tr><th scope=\"row\">Failed: \(esc(kind))</th><td class=\"number\">\(count)</td></tr>\n")
        }
        raw("""
            <tr><th scope="row">Skipped: out of scope</th><td class="number">\(coverage.skippedByScope)</td></tr>
            <tr><th scope="row">Skipped: disallowed by robots.txt</th><td class="number">\(coverage.skippedByRobots)</td></tr>
            <tr><th scope="row">Frames audited</th><td class="number">\(coverage.framesAudited)</td></tr>
            <tr><th scope="row">Frames skipped (cross-origin, failed)</th><td class="number">\(coverage.framesSkipped)</td></tr>

            """)
        if let sheets = coverage.stylesheets {
            raw("""
                <tr><th scope="row">Stylesheets loaded</th><td class="number">\(sheets.loaded)</td></tr>
                <tr><th scope="row">Stylesheets that failed (their pages left for review by style rules)</th><td class="number">\(sheets.failed)</td></tr>
                <tr><th scope="row">Stylesheets missing (404)</th><td class="number">\(sheets.missing)</td></tr>

                """)
        }
        raw("</tbody>\n</table>\n")
        if coverage.failed > 0 {
            raw("<p class=\"note\">Pages that failed have no findings in this run, so their issues count as fixed: read the fixed count with the failures.</p>\n")
        }
        let clientRendered = coverage.notAudited[NotAudited.clientRendered] ?? 0
        if clientRendered > 0 {
            raw("<h3>Client-rendered pages, not audited</h3>\n")
            raw("<p>\(clientRendered) \(clientRendered == 1 ? "page's" : "pages'") content depends on scripts: the HTML the server sends is an application shell, and auditing the shell would report on the shell, not on the page people use. They keep the findings of their last audit, so their issues count neither as fixed nor as new. Audit the HTML a browser renders to see them (README: What Canopy cannot see).</p>\n")
            let listed = latest?.clientRenderedPages ?? []
            raw("<table>\n<caption>Client-rendered pages\(listed.count < clientRendered ? " (the first \(listed.count) of \(clientRendered))" : "")</caption>\n")
            raw("<thead><tr><th scope=\"col\">Page</th><th scope=\"col\">Signals</th></tr></thead>\n<tbody>\n")
            for page in listed {
                raw("<tr><th scope=\"row\">\(url(page.url))</th><td>\(esc(page.signals.joined(separator: "; ")))</td></tr>\n")
            }
            raw("</tbody>\n</table>\n")
        }
        if runs.count > 1 {
            raw("<details>\n<summary>Coverage run by run</summary>\n<table>\n<caption>Pages audited and not audited per run</caption>\n<thead><tr>")
            raw("<th scope=\"col\">Run</th><th scope=\"col\" class=\"number\">Audited</th><th scope=\"col\" class=\"number\">Client-rendered</th><th scope=\"col\" class=\"number\">Other not audited</th><th scope=\"col\" class=\"number\">Failed</th><th scope=\"col\" class=\"number\">Frames audited</th><th scope=\"col\" class=\"number\">Stylesheets failed</th></tr></thead>\n<tbody>\n")
            for run in runs.reversed() {
                let coverage = run.coverage
                let clientRendered = coverage.notAudited[NotAudited.clientRendered] ?? 0
                let other = coverage.notAudited.values.reduce(0, +) - clientRendered
                raw("<tr><th scope=\"row\">\(run.runId)</th><td class=\"number\">\(coverage.crawled)</td><td class=\"number\">\(clientRendered)</td><td class=\"number\">\(other)</td>")
                raw("<td class=\"number\">\(coverage.failed)</td><td class=\"number\">\(coverage.framesAudited)</td><td class=\"number\">\(coverage.stylesheets.map { String($0.failed) } ?? "–")</td></tr>\n")
            }
            raw("</tbody>\n</table>\n</details>\n")
        }
        if let types = latest?.pageTypes, !types.isEmpty {
            raw("<h3>Page types covered</h3>\n<table>\n<caption>Templates the latest run reached, by URL pattern</caption>\n<thead><tr><th scope=\"col\">Page type</th><th scope=\"col\" class=\"number\">Pages</th></tr></thead>\n<tbody>\n")
            for type in types {
                raw("<tr><th scope=\"row\"><code>\(esc(type.name))</code></th><td class=\"number\">\(type.pages)</td></tr>\n")
            }
            raw("</tbody>\n</table>\n")
        }
        raw("</section>\n")
    }

    // MARK: Open issues

    mutating func openIssues(_ issues: [OpenIssue], total: Int, limit: Int) {
        raw("<section id=\"issues\">\n<h2>Open issues</h2>\n")
        guard total > 0 else {
            raw("<p>None in the latest run.</p>\n</section>\n")
            return
        }
        let shown = issues.prefix(limit)
        raw("<p>\(total) open \(total == 1 ? "issue" : "issues"): violations first, then by impact and number of pages. Each issue is one problem however many pages have it; its example is the one on the first of those pages by address.")
        if shown.count < total {
            raw(" This table shows the first \(shown.count); <a href=\"open-issues.csv\">open-issues.csv</a> and trend.json list all \(total).")
        }
        raw("</p>\n<table class=\"issues\">\n<caption>Open issues of the latest run</caption>\n<thead><tr>")
        raw("<th scope=\"col\">Rule</th><th scope=\"col\">Impact</th><th scope=\"col\" class=\"number\">Pages</th><th scope=\"col\">First seen</th><th scope=\"col\">Owner</th><th scope=\"col\">Component or page type</th><th scope=\"col\">Example: target, markup and page</th>")
        raw("</tr></thead>\n<tbody>\n")
        for issue in shown {
            // The id is what the digest's links point at.
            raw("<tr id=\"issue-\(esc(issue.issueKey))\"><th scope=\"row\"><code>\(esc(issue.ruleId))</code>")
            if issue.isNew { raw(" <span class=\"badge\">new</span>") }
            if issue.outcome != "violation" { raw("<br><span class=\"detail\">to review</span>") }
            raw("</th><td><span class=\"impact impact-\(esc(issue.impact))\">\(esc(issue.impact))</span></td>")
            raw("<td class=\"number\">\(issue.pageCount)</td><td>\(esc(dates.date(issue.firstSeenAt)))<br><span class=\"detail\">run \(issue.firstSeenRunId)</span>")
            if issue.firstSeenEverRunId != issue.firstSeenRunId {
                // A regression: its age counts from its return, and the earlier life is not hidden.
                raw("<br><span class=\"detail\">back again; first seen \(esc(dates.date(issue.firstSeenEverAt))), run \(issue.firstSeenEverRunId)</span>")
            }
            raw("</td>")
            raw("<td>\(issue.owner.map { esc($0) } ?? "first party")</td>")
            if let component = issue.component {
                raw("<td>component <code>\(esc(component))</code></td>")
            } else {
                raw("<td>page type <code>\(esc(issue.pageType ?? "–"))</code></td>")
            }
            raw("<td><code class=\"target\">\(esc(issue.example.target))</code><pre class=\"snippet\"><code>\(esc(issue.example.snippet))</code></pre>")
            raw("<p class=\"message\">\(esc(issue.example.message))</p>")
            if let evidence = issue.example.evidence { measurement(evidence) }
            raw("<p class=\"detail\">on \(url(issue.example.url))</p></td></tr>\n")
        }
        raw("</tbody>\n</table>\n</section>\n")
    }

    // MARK: Pages

    /// `pages` may be all `total` pages, or only those worth showing when there are too many.
    /// Writes the drill-down's heading; returns the pages it shows, each written by `drillDown(_:limits:)`.
    mutating func drillDownStart(_ pages: [PageDrillDown], total: Int, limits: TrendHTMLReport.Limits) -> [PageDrillDown] {
        raw("<section id=\"pages\">\n<h2>Pages</h2>\n")
        var shown = pages
        if total > limits.drillDownPages {
            // The pages most worth opening: failures and the most findings first.
            shown = pages.filter { $0.error != nil || $0.notAudited == NotAudited.clientRendered || $0.findingCount > 0 }
                .sorted { ($0.unaudited ? 1 : 0, $0.findingCount, $1.url) > ($1.unaudited ? 1 : 0, $1.findingCount, $0.url) }
            shown = Array(shown.prefix(limits.drillDownPages))
            raw("<p>The latest run has \(total) pages; here are the \(shown.count) with failures or the most findings. trend.json lists every page with its findings.</p>\n")
        } else {
            raw("<p>Every page of the latest run, with its findings. Open a page to see them.</p>\n")
        }
        return shown
    }

    mutating func drillDown(_ page: PageDrillDown, limits: TrendHTMLReport.Limits) {
        let violations = page.violationCount
        let review = page.findingCount - violations
        var outline = page.error != nil ? "could not be audited" : "\(violations) \(violations == 1 ? "violation" : "violations")"
        if review > 0 { outline += ", \(review) to review" }
        if page.notAudited == NotAudited.clientRendered { outline = "not audited: client-rendered (\(outline) at its last audit)" }
        raw("<details class=\"page\">\n<summary><span class=\"url\">\(esc(page.url))</span> — \(esc(outline))</summary>\n<dl>\n")
        raw("<dt>Address</dt><dd>\(url(page.url))</dd>\n")
        if let finalURL = page.finalUrl, finalURL != page.url { raw("<dt>Redirected to</dt><dd>\(url(finalURL))</dd>\n") }
        raw("<dt>Title</dt><dd>\(page.title.map { esc($0) } ?? "(none)")</dd>\n")
        raw("<dt>Page type</dt><dd><code>\(esc(page.pageType ?? "–"))</code></dd>\n")
        raw("<dt>HTTP status</dt><dd>\(page.statusCode.map(String.init) ?? "no response")</dd>\n")
        if let error = page.error { raw("<dt>Error</dt><dd>\(esc(error))</dd>\n") }
        if let reason = page.notAudited { raw("<dt>Not audited</dt><dd>\(esc(reason))</dd>\n") }
        raw("</dl>\n")
        if !page.findings.isEmpty {
            let listed = page.findings.prefix(limits.findingsPerPage)
            raw("<table>\n<caption>Findings on this page\(listed.count < page.findingCount ? " (the first \(listed.count) of \(page.findingCount))" : "")</caption>\n")
            raw("<thead><tr><th scope=\"col\">Rule</th><th scope=\"col\">Impact</th><th scope=\"col\">Outcome</th><th scope=\"col\">Target</th><th scope=\"col\">Owner or component</th></tr></thead>\n<tbody>\n")
            for finding in listed {
                let place = [finding.owner, finding.component.map { "component " + $0 }].compactMap { $0 }.joined(separator: ", ")
                raw("<tr><th scope=\"row\"><code>\(esc(finding.ruleId))</code></th><td>\(esc(finding.impact))</td><td>\(finding.outcome == "violation" ? "violation" : "to review")</td>")
                raw("<td><code class=\"target\">\(esc(finding.target))</code></td><td>\(place.isEmpty ? "–" : esc(place))</td></tr>\n")
            }
            raw("</tbody>\n</table>\n")
        }
        raw("</details>\n")
    }

    // MARK: Style

    /// Text keeps at least 7:1 against its background (WCAG AAA, so the report passes
    /// color-contrast-enhanced too) and chart shapes 3:1;
    /// focus is always visible; nothing depends on hover.
    static let styleSheet = """
        :root{color-scheme:light}
        body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2937;background:#fff}
        header,main,footer{padding:0 1.25rem;max-width:72rem;margin:0 auto}
        header{border-bottom:1px solid #d1d5db}
        .brand{font-weight:600;margin:.75rem 0 .25rem}
        nav ul{list-style:none;margin:0 0 .5rem;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
        a{color:#1e40af}
        a:focus-visible,summary:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
        .skip{position:absolute;left:-10000px;top:.5rem;background:#fff;padding:.25rem .5rem}
        .skip:focus{left:1rem}
        h1{font-size:1.75rem;margin:1rem 0 .5rem}
        h2{font-size:1.4rem;margin:2rem 0 .5rem;border-top:1px solid #e5e7eb;padding-top:1rem}
        h3{font-size:1.1rem;margin:1.5rem 0 .5rem}
        .figures{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:1rem}
        .figures li{border:1px solid #d1d5db;border-radius:.4rem;padding:.5rem .75rem;min-width:10rem}
        .value{font-size:1.6rem;font-weight:700}
        .detail{color:#4b5563;font-size:.875rem}
        .note{border-left:4px solid #1d4ed8;padding:.25rem .75rem;background:#eff6ff}
        figure{margin:0 0 1rem}
        .legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem;font-size:.875rem}
        .swatch{display:inline-block;width:.9rem;height:.9rem;margin-right:.35rem;vertical-align:-.1rem;border-radius:2px}
        .swatch-marker{width:0;margin-left:.4rem;margin-right:.75rem;border-left:2px dashed;border-radius:0}
        table{border-collapse:collapse;margin:.5rem 0 1rem;font-size:.9rem}
        caption{text-align:left;font-weight:600;padding:.25rem 0}
        th,td{border:1px solid #d1d5db;padding:.3rem .5rem;text-align:left;vertical-align:top}
        thead th{background:#f3f4f6}
        .number{text-align:right;font-variant-numeric:tabular-nums}
        code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.85rem}
        code,.url{overflow-wrap:anywhere}
        pre.snippet{white-space:pre-wrap;overflow-wrap:anywhere;margin:.25rem 0;background:#f3f4f6;padding:.25rem .4rem}
        .message{margin:.25rem 0}
        .measure{margin:.25rem 0}.measured-colour{white-space:nowrap;margin-right:.75rem}.measured-colour svg{vertical-align:-2px}
        .issues td,.issues th{max-width:28rem}
        .badge{background:#991b1b;color:#fff;border-radius:.3rem;padding:0 .35rem;font-size:.8rem;font-weight:600}
        .impact{font-weight:600}
        .impact-critical{color:#7f1d1d}.impact-serious{color:#9a3412}.impact-moderate{color:#7a4f00}.impact-minor{color:#374151}
        details{margin:.25rem 0}
        details.page{border:1px solid #e5e7eb;border-radius:.3rem;padding:.25rem .5rem}
        summary{cursor:pointer}
        dl{display:grid;grid-template-columns:max-content 1fr;gap:.1rem 1rem;margin:.5rem 0}
        dt{font-weight:600}
        dd{margin:0}
        footer{border-top:1px solid #d1d5db;margin-top:2rem;color:#374151;font-size:.875rem}
        @media (prefers-reduced-motion:reduce){*{scroll-behavior:auto}}
        """
}

extension PageDrillDown {
    /// Failed, or not audited for its scripts: what the drill-down shows first.
    fileprivate var unaudited: Bool { error != nil || notAudited == NotAudited.clientRendered }
}
