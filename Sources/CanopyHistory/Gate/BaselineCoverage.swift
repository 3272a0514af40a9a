import CanopyStore
/// What a source of findings (a gate run, a stored crawl) looked at: the pages it audited, the
/// components and rules on each, and whether it saw the whole site. A baseline entry that
/// matches none of the source's findings counts as fixed only when the source looked for its
/// issue where the issue lives; the gate's `fixed` list and the ratchet both decide here.
public struct BaselineCoverage: Sendable {
    public struct Page: Sendable {
        public var components: Set<String>
        /// Rules run on the page (applicable or not): a rule that did not run finds nothing.
        public var rules: Set<String>

        public init(components: Set<String>, rules: Set<String>) {
            self.components = components
            self.rules = rules
        }
    }

    /// Audited pages by URL.
    public var pages: [String: Page]
    /// Every page of the site was audited (a complete crawl, a whole sitemap): only then does
    /// "no audited page of the template has it" mean the template no longer has it.
    public var coversWholeSite: Bool

    public enum Verdict: Sendable, Equatable {
        /// An audited page the entry covers ran its rule, and the issue was not there.
        case fixed
        /// No audited page the entry covers ran its rule: nothing is known.
        case notLookedAt
        /// A page-type or component entry whose issue none of the audited pages of its
        /// template shows, while the source saw only part of the site: the issue may live on
        /// the pages it did not see.
        case notConfirmed
    }

    /// The verdict for an entry that matched no finding of the source. `pruneTemplates` takes a
    /// template-wide entry for fixed on partial coverage too (the user asked for it).
    public func verdict(forUnmatched entry: Baseline.Entry, rewrites: [URLRewrite], pruneTemplates: Bool = false) -> Verdict {
        let lookedFor = pages.contains { url, page in
            page.rules.contains(entry.rule) && entry.isCovered(byPage: url, components: page.components, rewrites: rewrites)
        }
        guard lookedFor else { return .notLookedAt }
        if entry.isTemplateWide, !coversWholeSite, !pruneTemplates { return .notConfirmed }
        return .fixed
    }

    public init(pages: [String: Page], coversWholeSite: Bool) {
        self.pages = pages
        self.coversWholeSite = coversWholeSite
    }
}

extension Baseline.Entry {
    /// The entry stands for the pages of a type or for a site-wide component, not for one URL.
    public var isTemplateWide: Bool { component != nil || url == nil }
}
