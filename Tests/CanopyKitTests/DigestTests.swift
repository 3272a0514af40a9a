import CanopyHistory
import CanopyKit
import CanopyLoopbackServer
import CanopyReports
import CanopyStore
import CanopyTestSupport
import Foundation
import Testing

/// The weekly digest every crawl writes, and its delivery to a chat webhook.
struct DigestTests {
    static func readDigest(_ folder: String) throws -> WeeklyDigest {
        try WeeklyDigest.decode(Data(contentsOf: URL(fileURLWithPath: (folder as NSString).appendingPathComponent(ReportWriter.digestJSONFile))))
    }

    @Test("the demo's eighth week: totals, the one new issue, the fixes and the oldest issues, linked into the report")
    func digestOfTheDemoStory() throws {
        let folder = try ReportTestFolder("digest-demo")
        let weekOne = Date(timeIntervalSince1970: 1_760_000_000)
        let outcome = SiteDemo().run(SiteDemo.Options(folder: folder.path, weekOne: weekOne))
        #expect(outcome.exitStatus == .passed, "\(outcome.messages)")
        let digest = try Self.readDigest(folder.path)
        #expect(digest.runId.rawValue == 8)
        #expect(digest.violations.issues == 6)
        let change = try #require(digest.change)
        #expect((change.previousViolationIssues, change.newIssues, change.fixedIssues) == (8, 1, 3))
        #expect(change.caveats.isEmpty)
        // The newsletter form without a label, in the footer of every page.
        #expect(digest.newIssues.map(\.ruleId) == ["label"])
        #expect(digest.newIssues.first?.component == "footer")
        #expect(digest.newIssues.first?.pages == 20)
        #expect(digest.biggestFixes.count == 3)
        #expect(digest.biggestFixes.map(\.pages) == digest.biggestFixes.map(\.pages).sorted(by: >))
        // Oldest first: the three issues open since week 1, then the vendor's from week 4.
        #expect(digest.oldestOpen.prefix(3).allSatisfy { $0.firstSeenAt == weekOne })
        #expect(digest.oldestOpen.dropFirst(3).first?.owner != nil)
        #expect(digest.coverage.vanishedPages == 0 && digest.coverage.failedPages == 0)

        let markdown = try String(contentsOfFile: folder.file(ReportWriter.digestFile), encoding: .utf8)
        #expect(markdown.contains("8 → 6 since run 7: 1 new, 3 fixed"))
        #expect(markdown.contains("## New issues (1)"))
        let html = try String(contentsOfFile: folder.file(ReportWriter.htmlFile), encoding: .utf8)
        let newKey = try #require(digest.newIssues.first?.issues.first?.issueKey)
        #expect(markdown.contains("(index.html#issue-\(newKey))"))
        #expect(html.contains("id=\"issue-\(newKey)\""))
        // Short enough for a chat message.
        #expect(markdown.split(separator: "\n").count < 40)
    }

    /// A site of four pages; in week 2 /b is gone from the links and /c answers 500.
    static func twoWeeks(notify: (LoopbackServer) -> String? = { _ in nil }, timeout: Double? = nil, retries: Int? = nil,
                         webhook: @escaping @Sendable (LoopbackRequest, Int) -> LoopbackResponse = { _, _ in LoopbackResponse(status: 200) })
        throws -> (folder: ReportTestFolder, outcomes: [SiteCrawl.Outcome], hooks: [LoopbackRequest]) {
        let folder = try ReportTestFolder("digest-site")
        let week = LockedState(1)
        let hookCalls = LockedState(0)
        let server = try TestHTTPServer { request in
            if request.path.hasPrefix("/hooks/") {
                let call = hookCalls.withLock { $0 += 1; return $0 }
                return webhook(request, call)
            }
            let current = week.withLock { $0 }
            let links = current == 1 ? "<a href=\"/a\">A</a> <a href=\"/b\">B</a> <a href=\"/c\">C</a>" : "<a href=\"/a\">A</a> <a href=\"/c\">C</a>"
            if request.pathWithoutQuery == "/c" && current == 2 { return LoopbackResponse(status: 500) }
            let image = request.pathWithoutQuery == "/a" && current == 2 ? "<img src=\"x.png\">" : ""
            return .html("<!doctype html><html lang=\"en\"><title>Page</title><main><h1>Page</h1>\(image)<p>\(links)</p></main></html>")
        }
        defer { server.stop() }
        var outcomes: [SiteCrawl.Outcome] = []
        for number in 1...2 {
            week.withLock { $0 = number }
            var overrides = CrawlOverrides()
            overrides.startURLs = [server.url("/")]
            overrides.reports = folder.path
            if number == 2 { overrides.notifyURL = notify(server) }
            overrides.notifyTimeout = timeout
            overrides.notifyRetries = retries
            let options = SiteCrawl.Options(overrides: overrides, verbosity: .quiet)
            let start = Date(timeIntervalSince1970: 1_760_000_000 + Double(number) * 7 * 86_400)
            outcomes.append(SiteCrawl(now: { start }, notifier: DigestNotifier(pause: { _ in })).run(options))
        }
        return (folder, outcomes, server.requests.filter { $0.path.hasPrefix("/hooks/") })
    }

    @Test("pages that vanished or failed since the last run are named")
    func coverageChanges() throws {
        let (folder, outcomes, _) = try Self.twoWeeks()
        #expect(outcomes.map(\.notified) == [nil, nil])
        let digest = try Self.readDigest(folder.path)
        #expect(digest.coverage.vanishedPages == 1)
        #expect(digest.coverage.vanishedExamples.first?.hasSuffix("/b") == true)
        #expect(digest.coverage.failedPages == 1)
        #expect(digest.coverage.newlyFailedPages == 1)
        #expect(digest.coverage.failedExamples.first?.problem == "HTTP 500")
        let json = String(decoding: try digest.jsonData(), as: UTF8.self)
        #expect(digest.newIssues.map(\.ruleId) == ["image-alt"], "\(json)")
        let markdown = try String(contentsOfFile: folder.file(ReportWriter.digestFile), encoding: .utf8)
        #expect(markdown.contains("1 page vanished since run 1"))
        #expect(markdown.contains("1 page could not be audited (1 newly)"))
    }

    @Test("the digest is posted as JSON with a text field, retried after server errors, and the webhook's token never shows")
    func webhookRetriesUntilDelivered() throws {
        let token = "T0KEN-\(UUID().uuidString)"
        let (folder, outcomes, hooks) = try Self.twoWeeks(notify: { $0.url("/hooks/\(token)") }) { _, call in
            LoopbackResponse(status: call < 3 ? 503 : 200)
        }
        #expect(outcomes[1].notified == true)
        #expect(hooks.count == 3)
        #expect(hooks.allSatisfy { $0.method == "POST" && $0.header("Content-Type") == "application/json" })
        let payload = try #require(try JSONSerialization.jsonObject(with: Data(hooks[2].body)) as? [String: Any])
        let markdown = try String(contentsOfFile: folder.file(ReportWriter.digestFile), encoding: .utf8)
        #expect(payload["text"] as? String == markdown)
        #expect((payload["digest"] as? [String: Any])?["runId"] as? Int == 2)
        #expect(outcomes[1].messages.contains { $0.description.contains("digest posted to 127.0.0.1:") })
        // Neither the log nor any file written names the token.
        #expect(!outcomes[1].messages.contains { $0.description.contains(token) })
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.file(file)))
            #expect(bytes.range(of: Data(token.utf8)) == nil, "\(file)")
        }
    }

    @Test("a webhook that keeps failing or never answers costs a warning, never the run")
    func webhookFailureNeverFailsTheCrawl() throws {
        let failing = try Self.twoWeeks(notify: { $0.url("/hooks/x") }, retries: 1) { _, _ in LoopbackResponse(status: 500) }
        let quiet = try Self.twoWeeks()
        #expect(failing.outcomes[1].notified == false)
        #expect(failing.hooks.count == 2)
        #expect(failing.outcomes[1].exitStatus == quiet.outcomes[1].exitStatus)
        #expect(failing.outcomes[1].messages.contains { $0.description.contains("(HTTP 500 after 2 attempts)") })

        // A client error is not retried: asking again would not change it.
        let refused = try Self.twoWeeks(notify: { $0.url("/hooks/x") }) { _, _ in LoopbackResponse(status: 404) }
        #expect(refused.hooks.count == 1)

        let began = Date()
        let slow = try Self.twoWeeks(notify: { $0.url("/hooks/x") }, timeout: 0.3, retries: 0) { _, _ in
            LoopbackResponse(status: 200).delayed(by: .seconds(3))
        }
        #expect(slow.outcomes[1].notified == false)
        #expect(slow.outcomes[1].messages.contains { $0.description.contains("timed out") })
        #expect(Date().timeIntervalSince(began) < 10)
        #expect(FileManager.default.fileExists(atPath: slow.folder.file(ReportWriter.digestFile)))
    }
}

/// open-issues.sarif, for code-scanning dashboards.
struct OpenIssuesSARIFTests {
    @Test("one result per open issue, valid against the SARIF 2.1.0 schema, fingerprinted by issue key")
    func openIssuesValidate() throws {
        let folder = try ReportTestFolder("open-issues-sarif")
        let outcome = SiteDemo().run(SiteDemo.Options(folder: folder.path))
        #expect(outcome.exitStatus == .passed)
        let sarif = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: folder.file(ReportWriter.sarifFile))))
        let schema = try JSONSerialization.jsonObject(with: try GateSchemas.read("sarif-schema-2.1.0.json")) as! [String: Any]
        let validator = JSONSchemaValidator(root: schema)
        #expect(validator.errors(sarif) == [])
        let results = try #require(((sarif as? [String: Any])?["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        // The report returned leaves the open issues to the files; the store has them.
        let report = try RunStore(path: folder.file("canopy.sqlite"), readOnly: true).trendReport(options: TrendOptions(includePages: false))
        let trend = try #require(report.latest)
        #expect(results.count == trend.openIssues.count)
        let keys = results.compactMap { ($0["partialFingerprints"] as? [String: String])?["canopyIssue/v1"] }
        #expect(keys == trend.openIssues.map(\.issueKey))
        #expect(results.filter { $0["baselineState"] as? String == "new" }.count == trend.openIssues.filter(\.isNew).count)

        // Capped, the most serious issues are kept, and the file says how many it left out.
        let capped = try JSONSerialization.jsonObject(with: OpenIssuesSARIF(report: report, maximumResults: 3).render()) as? [String: Any]
        let run = try #require((capped?["runs"] as? [[String: Any]])?.first)
        let cappedKeys = (run["results"] as? [[String: Any]])?.compactMap { ($0["partialFingerprints"] as? [String: String])?["canopyIssue/v1"] }
        #expect(cappedKeys == Array(trend.openIssues.prefix(3).map(\.issueKey)))
        #expect((run["properties"] as? [String: Any])?["resultsLeftOut"] as? Int == trend.openIssues.count - 3)
        #expect(validator.errors(capped as Any) == [])
    }
}
