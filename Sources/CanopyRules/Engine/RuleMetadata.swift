/// How severe a failure is, with axe-core's four levels.
public enum Impact: String, Sendable, Codable, Comparable, CaseIterable {
    case minor, moderate, serious, critical

    private var rank: Int {
        switch self {
        case .minor: 0
        case .moderate: 1
        case .serious: 2
        case .critical: 3
        }
    }

    public static func < (lhs: Impact, rhs: Impact) -> Bool { lhs.rank < rhs.rank }
}

/// What a rule is: axe-core's id, impact and tags, and our own words for what it checks and how to fix it.
public struct RuleMetadata: Sendable, Hashable {
    public let id: String
    public let impact: Impact
    /// axe-core's tags, e.g. `cat.text-alternatives`, `wcag2a`, `wcag111`, `best-practice`.
    public let tags: [String]
    /// What the rule checks.
    public let description: String
    /// One line naming the requirement, shown as a finding's title.
    public let help: String
    /// How to fix a failure, in a sentence or two.
    public let howToFix: String
    /// axe-core reports failures of some rules as "needs review"; Canopy does the same for these.
    public let reviewOnFail: Bool
    /// In Canopy's default set (`Rules/default.yml` lists these); otherwise opt-in (`Rules/all.yml`).
    public let enabledByDefault: Bool
    /// Why the rule matters to the people it protects, and why it is opt-in when it is.
    public let rationale: String
    /// W3C ACT rules this rule implements that axe-core's own `actIds` do not name. Only for a rule
    /// that checks exactly the ACT rule's requirement; the ACT consistency table adds these to
    /// axe's mapping.
    public let actRules: [String]

    public init(
        id: String, impact: Impact, tags: [String], description: String, help: String, howToFix: String,
        reviewOnFail: Bool = false, enabledByDefault: Bool, rationale: String, actRules: [String] = []
    ) {
        self.id = id
        self.impact = impact
        self.tags = tags
        self.description = description
        self.help = help
        self.howToFix = howToFix
        self.reviewOnFail = reviewOnFail
        self.enabledByDefault = enabledByDefault
        self.rationale = rationale
        self.actRules = actRules
    }

    /// Deque University's page for the rule, so teams keep axe-core's documentation at hand.
    public var helpURL: String { "https://dequeuniversity.com/rules/axe/4.11/\(id)?application=canopy" }

    /// WCAG success criteria from tags like `wcag111` → "1.1.1", `wcag1410` → "1.4.10".
    public var wcagCriteria: [String] {
        tags.compactMap { tag -> String? in
            // Level tags (`wcag2a`, `wcag21aa`) have letters; criterion tags are digits only.
            guard tag.hasPrefix("wcag") else { return nil }
            let digits = tag.dropFirst(4)
            guard digits.count >= 3, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else { return nil }
            let principle = digits.prefix(1), guideline = digits.dropFirst().prefix(1), criterion = digits.dropFirst(2)
            return "\(principle).\(guideline).\(criterion)"
        }
    }
}
