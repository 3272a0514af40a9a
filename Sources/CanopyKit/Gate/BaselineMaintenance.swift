import CanopyDiagnostics
import CanopyHistory
import CanopyStore
import Foundation

/// What `canopy baseline create` and `canopy baseline update` do: write a baseline from a stored
/// run or a gate output, and shrink it as issues get fixed (the ratchet).
public struct BaselineMaintenance: Sendable {
    /// Where the findings come from.
    public struct Source: Sendable {
        /// `latest`, a run id, or a gate output JSON file.
        public var fromRun: String
        /// The run store; by default the configuration's (`output.store`), else Reports/canopy.sqlite.
        public var storePath: String?
        public var configPath: String?
        /// `FROM=TO` production-to-deploy prefixes, before the configuration's `gate.rewrite`:
        /// the source's deploy URLs are mapped back to production's through them.
        public var rewrites: [String]
        public var environment: [String: String] = [:]

        public init(
            fromRun: String, storePath: String? = nil, configPath: String? = nil, rewrites: [String] = [], environment: [String: String] = [:]
        ) {
            self.fromRun = fromRun
            self.storePath = storePath
            self.configPath = configPath
            self.rewrites = rewrites
            self.environment = environment
        }
    }

    public struct Outcome: Sendable {
        public var exitStatus: ExitStatus
        public var messages: [OutcomeLine]
        public var baseline: Baseline?
    }

    private let now: @Sendable () -> Date

    public init(now: @escaping @Sendable () -> Date = Date.init) {
        self.now = now
    }

    /// Writes a baseline with one entry per issue of the source.
    public func create(
        from source: Source, to output: String, includeIncomplete: Bool = false, reason: String? = nil, expires: String? = nil
    ) -> Outcome {
        do {
            if let expires {
                do {
                    _ = try WaiverDate.parse(expires)
                } catch {
                    throw Diagnostic(.usage, "--expires: \(error)")
                }
            }
            let loaded = try load(source)
            var entries = Self.entries(for: loaded.candidates.filter { includeIncomplete || $0.outcome == "violation" }, unrewriting: loaded.rewrites)
            for index in entries.indices {
                entries[index].reason = reason
                entries[index].expires = expires
            }
            let baseline = Baseline(created: ISO8601DateFormatter().string(from: now()), source: loaded.description, entries: entries)
            try baseline.write(to: output)
            return Outcome(exitStatus: .passed, messages: ["wrote \(output): \(entries.count) known issues from \(loaded.description)"], baseline: baseline)
        } catch {
            return Outcome(exitStatus: .usageError, messages: [.problem(error as? Diagnostic ?? .usage("\(error)"))])
        }
    }

    /// Removes the entries whose issue is gone from pages the source looked at with the entry's
    /// rule; adds entries for the source's other issues only when `addNew` says so, so the
    /// baseline only ever tightens by default. Entries the source did not look for are kept, and
    /// so are page-type and component entries unless the source audited the whole site (or
    /// `pruneTemplates`): a few clean pages of a template do not show that all its pages are.
    public func update(
        baselinePath: String, from source: Source, output: String? = nil, addNew: Bool = false, includeIncomplete: Bool = false,
        pruneTemplates: Bool = false
    ) -> Outcome {
        do {
            var baseline = try Baseline.load(contentsOf: baselinePath)
            let loaded = try load(source)
            var kept: [Baseline.Entry] = [], removed: [Baseline.Entry] = [], notConfirmed: [Baseline.Entry] = []
            var notLookedAt = 0
            for entry in baseline.entries {
                if loaded.candidates.contains(where: { entry.matches($0, rewrites: loaded.rewrites) }) {
                    kept.append(entry)
                    continue
                }
                switch loaded.coverage.verdict(forUnmatched: entry, rewrites: loaded.rewrites, pruneTemplates: pruneTemplates) {
                case .fixed:
                    removed.append(entry)
                case .notConfirmed:
                    notConfirmed.append(entry)
                    kept.append(entry)
                case .notLookedAt:
                    notLookedAt += 1
                    kept.append(entry)
                }
            }
            var added: [Baseline.Entry] = []
            if addNew {
                let unknown = loaded.candidates.filter { candidate in
                    (includeIncomplete || candidate.outcome == "violation") && !kept.contains { $0.matches(candidate, rewrites: loaded.rewrites) }
                }
                added = Self.entries(for: unknown, unrewriting: loaded.rewrites)
            }
            baseline = Baseline(created: baseline.created, source: loaded.description, entries: kept + added)
            let target = output ?? baselinePath
            try baseline.write(to: target)
            var messages: [OutcomeLine] = [
                .note(
                    "wrote \(target): \(removed.count) fixed removed, \(kept.count) kept (\(notLookedAt) not looked for by the source, "
                        + "\(notConfirmed.count) not confirmed: page-type or component entries absent from a part of the site), \(added.count) added"
                ),
            ]
            messages += removed.map { .note("  fixed: \($0.rule) on \($0.scopeDescription) (\($0.target))") }
            messages += notConfirmed.map {
                .note("  kept, not confirmed: \($0.rule) on \($0.scopeDescription) (\($0.target)); the source did not audit the whole site "
                    + "(--prune-templates removes it)")
            }
            return Outcome(exitStatus: .passed, messages: messages, baseline: baseline)
        } catch {
            return Outcome(exitStatus: .usageError, messages: [.problem(error as? Diagnostic ?? .usage("\(error)"))])
        }
    }

    // MARK: Sources

    private struct Loaded {
        var description: String
        var candidates: [BaselineCandidate]
        var coverage: BaselineCoverage
        var rewrites: [URLRewrite]
    }

    private func load(_ source: Source) throws -> Loaded {
        var configuration: CrawlConfiguration?
        if let path = source.configPath {
            do {
                configuration = try CrawlConfiguration.load(contentsOf: path, environment: source.environment)
            } catch {
                throw Diagnostic(.usage, error.description)
            }
        }
        let rewrites = try source.rewrites.map { text throws(Diagnostic) in try URLRewrite(parsing: text) } + (configuration?.gate.rewrites ?? [])
        let from = source.fromRun
        if from.hasSuffix(".json") || (from != "latest" && Int64(from) == nil) {
            let report = try GateReport.load(contentsOf: from)
            var pages: [String: BaselineCoverage.Page] = [:]
            for page in report.pages where page.audited {
                // Older outputs lack `rulesRun`; the rules that applied to the page are a safe floor.
                pages[page.url] = BaselineCoverage.Page(components: Set(page.components), rules: Set(report.rulesRun ?? page.rules))
            }
            return Loaded(
                description: "gate output \(from) of \(report.created)", candidates: report.findings.map(\.candidate),
                coverage: BaselineCoverage(pages: pages, coversWholeSite: report.coversWholeSite), rewrites: rewrites
            )
        }
        let storePath = source.storePath ?? configuration?.output.storePath ?? CrawlConfiguration(startURLs: []).output.storePath
        guard FileManager.default.fileExists(atPath: storePath) else { throw Diagnostic(.usage, "\(storePath): no run store there") }
        do {
            let store = try RunStore(path: storePath, readOnly: true)
            let runs = try store.runs()
            let stored: StoredRun
            if from == "latest" {
                guard let latest = runs.last(where: { $0.status == .complete }) else {
                    throw Diagnostic(.usage, "\(storePath): no complete run yet")
                }
                stored = latest
            } else {
                guard let listed = runs.first(where: { $0.id == RunID(Int64(from)!) }) else {
                    throw Diagnostic(.usage, "\(storePath): there is no run \(from)")
                }
                stored = listed
            }
            let run = stored.id
            let candidates = try store.issueInstances(run: run).map { instance in
                BaselineCandidate(
                    pageURL: instance.pageURL, pageType: instance.pageType, rule: instance.ruleID, outcome: instance.outcome.rawValue,
                    impact: instance.impact.rawValue, signature: instance.elementSignature, componentKey: instance.componentKey,
                    componentSignature: instance.componentSignature, inSiteWideComponent: instance.inSiteWideComponent,
                    target: instance.target, snippet: instance.snippet, owner: instance.owner
                )
            }
            let rules = Set(stored.ruleIDs)
            let pages = try store.auditedPageComponents(run: run).mapValues { BaselineCoverage.Page(components: $0, rules: rules) }
            // A crawl saw the whole site when it audited every page it planned: none failed,
            // none was left over at limits.max-pages.
            let whole = stored.status == .complete && stored.coverage.planned == stored.coverage.crawled
            return Loaded(
                description: "run \(run) of \(storePath)", candidates: candidates,
                coverage: BaselineCoverage(pages: pages, coversWholeSite: whole), rewrites: rewrites
            )
        } catch let error as Diagnostic {
            throw error
        } catch {
            throw Diagnostic(.usage, "\(storePath): cannot read run \(from): \(error)")
        }
    }

    /// One entry per issue, URLs mapped back from the deploy's to production's (the inverse of
    /// the rewrites), so a baseline written from a staging gate keeps production's URLs.
    private static func entries(for candidates: [BaselineCandidate], unrewriting rewrites: [URLRewrite]) -> [Baseline.Entry] {
        let inverse = rewrites.compactMap { try? URLRewrite(from: $0.to, to: $0.from) }
        var groups: [String: [BaselineCandidate]] = [:]
        var order: [String] = []
        for candidate in candidates {
            let key = candidate.fingerprint
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(candidate)
        }
        return order.map { key in
            var entry = Baseline.Entry.make(from: groups[key]!)
            entry.url = entry.url.map { inverse.apply($0) }
            return entry
        }
    }
}
