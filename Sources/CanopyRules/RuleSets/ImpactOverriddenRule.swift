import CanopyHTML

/// A rule whose impact a rule set changed: it checks exactly what the underlying rule checks,
/// and reports the overridden impact in its metadata, so results and listings carry it.
struct ImpactOverriddenRule: Rule {
    let base: any Rule
    let metadata: RuleMetadata

    init(_ base: any Rule, impact: Impact) {
        self.base = base
        self.metadata = base.metadata.withImpact(impact)
    }

    var selector: SelectorList { base.selector }
    var excludesHidden: Bool { base.excludesHidden }
    func applies(to element: Element, on page: PageContext) -> Bool { base.applies(to: element, on: page) }
    func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome { base.evaluate(element, on: page) }
    var examples: RuleExamples { base.examples }
}

extension RuleMetadata {
    /// The same metadata with another impact.
    func withImpact(_ impact: Impact) -> RuleMetadata {
        RuleMetadata(
            id: id, impact: impact, tags: tags, description: description, help: help, howToFix: howToFix,
            reviewOnFail: reviewOnFail, enabledByDefault: enabledByDefault, rationale: rationale
        )
    }
}
