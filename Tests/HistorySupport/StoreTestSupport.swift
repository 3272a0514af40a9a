import CanopyHistory
import CanopyHTML
import CanopyRules
import Foundation
import CanopyStore

/// A folder of its own under the system's temporary folder, removed when the value goes away,
/// so tests running in parallel never share a store file.
public final class TemporaryFolder {
    public let url: URL

    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("canopy-store-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

extension RunStart {
    public static func test(at date: Date = Date(timeIntervalSince1970: 1_700_000_000), ruleIDs: [String] = ["image-alt", "link-name"],
                     configHash: String = "config-a", canopyVersion: String = "0.1.0") -> RunStart {
        RunStart(
            startedAt: date, configHash: configHash, ruleSetName: "default", ruleIDs: ruleIDs,
            ruleSetHash: StableHasher.hex(of: ruleIDs.joined(separator: ",")), canopyVersion: canopyVersion,
            startURLs: ["https://shop.example/"], pagesPlanned: 10
        )
    }
}

/// Audits generated HTML as the crawler does: parse, audit with the default rules, fingerprint.
public struct FixturePageAuditor {
    let auditor = Auditor(rules: RuleCatalog.defaultRules)
    let parser = HTMLParser()

    public init() {}

    public func record(url: String, html: String) -> PageRecord {
        let document = parser.parse(html: html, url: url)
        let audit = auditor.audit(document)
        let fingerprinter = PageFingerprinter(document: document)
        return PageRecord(
            url: url, statusCode: 200, contentType: "text/html", bytes: html.utf8.count, depth: 1, title: document.title,
            findings: FindingRecord.findings(of: audit, fingerprinter: fingerprinter),
            passCounts: PageRecord.passCounts(of: audit), components: fingerprinter.components
        )
    }
}

extension RunStore {
    /// Records `pages` as one complete run and returns it.
    @discardableResult
    public func recordCompleteRun(_ pages: [PageRecord], start: RunStart = .test()) throws -> RunID {
        let run = try begin(start)
        try record(pages, run: run)
        try finish(run, coverage: RunCoverage(planned: pages.count, crawled: pages.count, failed: 0))
        return run
    }

    /// The (issue key, page URL) instances of a run's violations.
    public func violationInstances(run: RunID) throws -> Set<Instance> {
        Set(try findings(run: run).filter { $0.outcome == .violation }.map { Instance(issueKey: $0.issueKey ?? "", url: $0.pageURL) })
    }
}

public struct Instance: Hashable, CustomStringConvertible {
    public let issueKey: String
    public let url: String

    public init(issueKey: String, url: String) {
        self.issueKey = issueKey
        self.url = url
    }

    public var description: String { "\(issueKey)@\(url)" }
}

/// A finding made up for store tests that do not need a parsed page.
/// `elementID` names the element in its target and snippet (the signature when not given), for
/// findings of one signature on elements that differ.
public func madeUpFinding(_ rule: String, signature: String, elementID: String? = nil, component: ComponentPlacement? = nil, owner: String? = nil,
                   outcome: FindingOutcome = .violation) -> FindingRecord {
    let id = elementID ?? signature
    return FindingRecord(
        Finding(ruleID: rule, impact: .serious, outcome: outcome, target: "#\(id)", snippet: "<img id=\"\(id)\">", message: "it fails"),
        owner: owner, identity: FindingIdentity(elementSignature: signature, component: component)
    )
}
