import CanopyDiagnostics
import CanopyKit
import CanopyRules
import CanopyStore
import CanopyTestSupport
import Foundation
import Testing

/// The issue's acceptance test for run history: a generated shop (`GeneratedShop`) served on
/// 127.0.0.1 and crawled by `SiteCrawl` — what `canopy crawl --config canopy.yml` runs — once a
/// simulated week for six weeks into one SQLite store. Each week the site gains and loses known
/// problems and goes through churn that must not count; the trend must report exactly the known
/// changes.
@Suite("Run history: a generated shop crawled for six simulated weeks")
struct WeeklyCrawlHistoryTests {
    typealias Seed = GeneratedShop.Seed

    /// What one seed looks like in a run: its rule, owner and the paths of its pages.
    struct IssueShape: Hashable, CustomStringConvertible {
        let rule: String
        let owner: String?
        let paths: Set<String>
        var description: String { "\(rule)\(owner.map { " (\($0))" } ?? "") on \(paths.count == 1 ? paths.first! : "\(paths.count) pages")" }
    }

    @Test("new, fixed and persisting issues and instances, owners, templates and ages are exactly the seeded ones; churn counts for nothing")
    func sixWeeksOfCrawls() throws {
        let folder = try ReportTestFolder("weekly-history")
        let weeks = ShopWeek.schedule(weeks: 6)
        let current = LockedState(weeks[0])
        let server = try TestHTTPServer { request in GeneratedShop(week: current.withLock { $0 }).response(for: request) }
        defer { server.stop() }
        let firstFriday = Date(timeIntervalSince1970: 1_704_441_600)

        var runs: [RunID] = []
        for week in weeks {
            current.withLock { $0 = week }
            let config = try Self.writeConfiguration(for: week, origin: server.baseURL, in: folder)
            let start = firstFriday.addingTimeInterval(Double(week.number - 1) * 7 * 86_400)
            let began = Date()
            let outcome = SiteCrawl(now: { start.addingTimeInterval(Date().timeIntervalSince(began)) })
                .run(SiteCrawl.Options(configPath: config, verbosity: .quiet))
            #expect(outcome.exitStatus == .violationsFound, "week \(week.number): \(outcome.messages)")
            runs.append(try #require(outcome.run))
        }

        let store = try RunStore(path: folder.file("canopy.sqlite"), readOnly: true)
        let trend = try store.trendReport()
        #expect(trend.runs.map(\.runId) == runs)
        let shops = weeks.map(GeneratedShop.init)

        // Coverage: every HTML page audited; the PDF planned and fetched but not audited; the cart
        // disallowed by robots.txt; the social site out of scope.
        for (run, shop) in zip(trend.runs, shops) {
            #expect(run.coverage.crawled == shop.htmlPaths.count)
            #expect(run.coverage.planned == shop.htmlPaths.count + 1)
            #expect(run.coverage.failed == 0)
            #expect(run.coverage.skippedByRobots == 1)
            #expect(run.coverage.skippedByScope == 1)
        }

        // Each run's violation issues are exactly the seeds its rules can find: one issue per
        // seed, on exactly the seed's pages; and a seed keeps its issue key while it persists.
        var keys: [[Seed: String]] = []
        for (index, run) in runs.enumerated() {
            let shop = shops[index]
            let found = try Self.violationIssues(of: run, in: store, origin: server.baseURL)
            let expected = Dictionary(uniqueKeysWithValues: weeks[index].effectiveSeeds.map { seed in
                (IssueShape(rule: seed.rule, owner: seed.owner, paths: seed.paths(in: shop)), seed)
            })
            #expect(Set(found.keys) == Set(expected.keys), "week \(index + 1)")
            var weekKeys: [Seed: String] = [:]
            for (shape, seed) in expected { weekKeys[seed] = found[shape] }
            keys.append(weekKeys)
            if index > 0 {
                for seed in weekKeys.keys where keys[index - 1][seed] != nil {
                    #expect(weekKeys[seed] == keys[index - 1][seed], "\(seed) changed its issue key in week \(index + 1)")
                }
            }
        }

        // The trend's counts, week by week, against the seeds.
        for index in trend.runs.indices {
            let run = trend.runs[index], shop = shops[index], seeds = weeks[index].effectiveSeeds
            let instances = Self.instances(of: seeds, in: shop)
            #expect(run.violations.issues == seeds.count, "week \(index + 1)")
            #expect(run.violations.instances == instances.count, "week \(index + 1)")
            #expect(run.violations.findings == instances.count, "one failing element per seed and page")

            // By owner, by page type (outside components) and by component.
            func totals(_ group: (Seed) -> String?) -> [String: [Int]] {
                Dictionary(grouping: seeds.compactMap { seed in group(seed).map { ($0, seed) } }, by: \.0).mapValues { members in
                    [members.count, members.map { $0.1.paths(in: shop).count }.reduce(0, +)]
                }
            }
            let owners = Dictionary(uniqueKeysWithValues: run.byOwner.map { ($0.owner ?? "first party", [$0.issues, $0.instances]) })
            #expect(owners == totals { $0.owner ?? "first party" }, "week \(index + 1)")
            #expect(run.byOwner.allSatisfy { $0.firstParty == ($0.owner == nil) })
            #expect(Dictionary(uniqueKeysWithValues: run.byPageType.map { ($0.name, [$0.issues, $0.instances]) }) == totals(\.pageType), "week \(index + 1)")
            #expect(Dictionary(uniqueKeysWithValues: run.byComponent.map { ($0.name, [$0.issues, $0.instances]) }) == totals(\.component), "week \(index + 1)")

            guard index > 0 else {
                #expect(run.comparison == nil)
                continue
            }
            let comparison = try #require(run.comparison)
            let before = weeks[index - 1].effectiveSeeds
            let earlierInstances = Self.instances(of: before, in: shops[index - 1])
            #expect(comparison.previousRunId == runs[index - 1])
            #expect(comparison.newIssues == seeds.subtracting(before).count, "week \(index + 1)")
            #expect(comparison.fixedIssues == before.subtracting(seeds).count, "week \(index + 1)")
            #expect(comparison.persistingIssues == seeds.intersection(before).count, "week \(index + 1)")
            #expect(comparison.newInstances == instances.subtracting(earlierInstances).count, "week \(index + 1)")
            #expect(comparison.fixedInstances == earlierInstances.subtracting(instances).count, "week \(index + 1)")
            #expect(comparison.persistingInstances == instances.intersection(earlierInstances).count, "week \(index + 1)")
        }
        // The schedule does change something every week (the comparisons above are not all zeros).
        #expect(trend.runs.dropFirst().map { $0.comparison?.newIssues ?? 0 } == [1, 2, 2, 1, 1])
        #expect(trend.runs.dropFirst().map { $0.comparison?.fixedIssues ?? 0 } == [1, 2, 1, 2, 0])

        // Page by page: each page has exactly the issues of the seeds on it, so churn moved
        // nothing anywhere; and a page that no seed change touched has the same issues as the
        // week before (the pages every week's churn went through).
        for index in runs.indices {
            let byPage = try Self.issueKeysByPage(of: runs[index], in: store, origin: server.baseURL)
            #expect(Set(byPage.keys).symmetricDifference(shops[index].htmlPaths).isEmpty, "week \(index + 1): the audited pages are the shop's")
            for (path, found) in byPage {
                let expected = Set(weeks[index].effectiveSeeds.filter { $0.paths(in: shops[index]).contains(path) }.compactMap { keys[index][$0] })
                if found != expected { Issue.record("week \(index + 1): \(path) has \(found.count) issues, expected \(expected.count)") }
            }
            guard index > 0 else { continue }
            let changed = weeks[index].effectiveSeeds.symmetricDifference(weeks[index - 1].effectiveSeeds)
            let touched = changed.reduce(into: Set<String>()) { $0.formUnion($1.paths(in: shops[index])); $0.formUnion($1.paths(in: shops[index - 1])) }
            let before = try Self.issueKeysByPage(of: runs[index - 1], in: store, origin: server.baseURL)
            for path in Set(byPage.keys).intersection(before.keys).subtracting(touched) where byPage[path] != before[path] {
                Issue.record("week \(index + 1): \(path) churned")
            }
        }

        // The rule-set change is flagged on the week it happens and on the week it is undone.
        let flagged = trend.runs.map { $0.comparison?.ruleSetChanged ?? false }
        #expect(flagged == [false, false, false, false, true, true])
        #expect(trend.runs[4].comparison?.rulesRemoved == ["heading-order"])
        #expect(trend.runs[5].comparison?.rulesAdded == ["heading-order"])
        #expect(trend.runs[4].comparison?.changes == ["rules removed: heading-order", "rule set renamed: default → team", "configuration changed"])

        // Ages: an issue's age counts from the start of its current streak; one that was fixed
        // (or whose rule was off) and came back is new again, its first sighting kept apart.
        let latest = try #require(trend.latest)
        let open = Dictionary(uniqueKeysWithValues: latest.openIssues.filter { $0.outcome == "violation" }.map { ($0.issueKey, $0) })
        #expect(open.count == weeks[5].effectiveSeeds.count)
        for seed in weeks[5].effectiveSeeds {
            let key = try #require(keys[5][seed], "\(seed)")
            let issue = try #require(open[key], "\(seed)")
            let presentWeeks = weeks.filter { $0.effectiveSeeds.contains(seed) }.map(\.number)
            var streakStart = 6
            while presentWeeks.contains(streakStart - 1) { streakStart -= 1 }
            #expect(issue.firstSeenRunId == runs[streakStart - 1], "\(seed)")
            #expect(issue.firstSeenAt == trend.runs[streakStart - 1].startedAt, "\(seed)")
            #expect(issue.firstSeenEverRunId == runs[presentWeeks[0] - 1], "\(seed)")
            #expect(issue.isNew == (streakStart == 6), "\(seed)")
            #expect(issue.owner == seed.owner && issue.component == seed.component && issue.pageType == seed.pageType, "\(seed)")
        }
        // A template issue on 40 of the 60 product pages: one issue, 40 instances.
        #expect(open[keys[5][.productCompareLabel] ?? ""]?.pageCount == 40)
        // The two seeds that came back, spelled out.
        let headingOrder = try #require(open[keys[5][.categoryHeadingOrder] ?? ""])
        #expect(headingOrder.isNew && headingOrder.firstSeenRunId == runs[5] && headingOrder.firstSeenEverRunId == runs[0])
        let contactLabel = try #require(open[keys[5][.contactOrderLabel] ?? ""])
        #expect(!contactLabel.isNew && contactLabel.firstSeenRunId == runs[4] && contactLabel.firstSeenEverRunId == runs[0])
    }

    // MARK: Helpers

    /// canopy.yml for a week: the shop, the chat widget as the vendor's, the output in the
    /// folder, and in week 5 a rule set that leaves heading-order out.
    static func writeConfiguration(for week: ShopWeek, origin: String, in folder: ReportTestFolder) throws -> String {
        var yaml = """
            start: \(origin)/
            owners:
              \(GeneratedShop.vendor): ["\(GeneratedShop.vendorSelector)"]
            politeness:
              concurrency: 4
            limits:
              timeout: 10
            output:
              reports: Reports
              store: canopy.sqlite

            """
        if !week.rulesLeftOut.isEmpty {
            let rules = RuleCatalog.defaultRules.map(\.metadata.id).filter { !week.rulesLeftOut.contains($0) }
            let set = "name: team\nrules:\n" + rules.map { "  - \($0)\n" }.joined()
            try set.write(toFile: folder.file("team.yml"), atomically: true, encoding: .utf8)
            yaml += "rules:\n  set: team.yml\n"
        }
        let path = folder.file("canopy.yml")
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The (seed, path) instances the seeds make in a week.
    static func instances(of seeds: Set<Seed>, in shop: GeneratedShop) -> Set<String> {
        Set(seeds.flatMap { seed in seed.paths(in: shop).map { "\(seed)@\($0)" } })
    }

    /// A run's violation issues by shape, with their issue keys.
    static func violationIssues(of run: RunID, in store: RunStore, origin: String) throws -> [IssueShape: String] {
        var byKey: [String: (rule: String, owner: String?, paths: Set<String>)] = [:]
        for finding in try store.findings(run: run) where finding.outcome == .violation {
            let key = try #require(finding.issueKey)
            byKey[key, default: (finding.ruleID, finding.owner, [])].paths.insert(String(finding.pageURL.dropFirst(origin.count)))
        }
        var shapes: [IssueShape: String] = [:]
        for (key, issue) in byKey {
            let shape = IssueShape(rule: issue.rule, owner: issue.owner, paths: issue.paths)
            #expect(shapes[shape] == nil, "two issues of the same shape: \(shape)")
            shapes[shape] = key
        }
        return shapes
    }

    /// The violation issue keys on each audited page of a run, by path.
    static func issueKeysByPage(of run: RunID, in store: RunStore, origin: String) throws -> [String: Set<String>] {
        var keys: [String: Set<String>] = [:]
        for page in try store.pages(run: run) where page.error == nil && page.contentType?.hasPrefix("text/html") == true {
            keys[String(page.url.dropFirst(origin.count))] = []
        }
        for finding in try store.findings(run: run) where finding.outcome == .violation {
            keys[String(finding.pageURL.dropFirst(origin.count)), default: []].insert(finding.issueKey ?? "")
        }
        return keys
    }
}
