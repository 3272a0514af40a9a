import CanopyAccessibility
import CanopyHTML

/// Screen readers list landmarks by role and name; two landmarks with the same role and the same
/// name (or both unnamed) cannot be told apart in that list.
///
/// As in axe-core, only the first landmark of each indistinguishable group is reported (as the
/// violation); later ones with the same role and name are left out of the results.
public struct LandmarkUniqueRule: UniqueAcrossFramesRule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "landmark-unique",
        impact: .moderate,
        tags: ["cat.semantics", "best-practice"],
        description: "Checks that landmarks with the same role have different accessible names",
        help: "Landmarks should be told apart by their role or by their accessible name",
        howToFix: "Give landmarks that share a role distinct names with aria-label or aria-labelledby (e.g. \"Main menu\" and \"Footer links\"), or merge them.",
        enabledByDefault: true,
        rationale: "Landmarks of one role need different names so users can tell them apart in the landmark list."
    )

    public let selector = try! SelectorList(
        "[role=banner], [role=complementary], [role=contentinfo], [role=main], [role=navigation], [role=region], [role=search], [role=form], form, footer, header, aside, main, nav, section"
    )

    /// Ancestors that make a `<header>`/`<footer>` belong to a part of the page rather than to it.
    private let sectioningAncestors = try! SelectorList("article, aside, main, nav, section")

    public func applies(to element: Element, on page: PageContext) -> Bool {
        let landmarks = self.landmarks(on: page)
        guard let identity = identity(of: element, in: landmarks, on: page) else { return false }
        // Later members of an indistinguishable group are dropped: the first one carries the result.
        let members = landmarks.groups[identity] ?? []
        return !members.contains { $0 < element.position }
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let landmarks = self.landmarks(on: page)
        guard let identity = identity(of: element, in: landmarks, on: page) else { return .pass }
        let twins = (landmarks.groups[identity] ?? []).filter { $0 != element.position }
        guard !twins.isEmpty else { return .pass }
        let named = identity.name.map { "the name \"\($0)\"" } ?? "no name"
        return .violation("\(twins.count + 1) \(identity.role) landmarks have \(named), so they cannot be told apart.")
    }

    /// A frame's landmarks are listed with the page's, so they must differ across documents too.
    public func uniquenessKey(of element: Element, on page: PageContext) -> String? {
        identity(of: element, in: landmarks(on: page), on: page).map { "\($0.role)\u{0}\($0.name ?? "\u{1}")" }
    }

    public func duplicated(_ element: Element, on page: PageContext, twinsInOtherDocuments twins: Int) -> CheckOutcome {
        guard let identity = identity(of: element, in: landmarks(on: page), on: page) else { return .pass }
        let here = landmarks(on: page).groups[identity]?.count ?? 1
        let named = identity.name.map { "the name \"\($0)\"" } ?? "no name"
        return .violation("\(here + twins) \(identity.role) landmarks on the page and in its frames have \(named), so they cannot be told apart.")
    }

    /// The visible landmarks of the page by identity (positions in document order), computed
    /// once per page: comparing each landmark with every other one again would be quadratic.
    private struct PageLandmarks {
        var groups: [LandmarkIdentity: [Int]] = [:]
        /// The identity of each visible candidate, by position; candidates that are no landmark are absent.
        var identities: [Int: LandmarkIdentity] = [:]
        var candidates: Set<Int> = []
    }

    private func landmarks(on page: PageContext) -> PageLandmarks {
        page.memo("landmark-unique.groups") {
            var landmarks = PageLandmarks()
            for candidate in page.elements(matching: selector)
            where !page.accessibility.isHiddenFromAssistiveTechnology(candidate) {
                landmarks.candidates.insert(candidate.position)
                guard let identity = identity(of: candidate, on: page) else { continue }
                landmarks.groups[identity, default: []].append(candidate.position)
                landmarks.identities[candidate.position] = identity
            }
            return landmarks
        }
    }

    /// The identity from the page's list when the element is a visible candidate (as every element
    /// the auditor hands over is), computed otherwise.
    private func identity(of element: Element, in landmarks: PageLandmarks, on page: PageContext) -> LandmarkIdentity? {
        if landmarks.candidates.contains(element.position) { return landmarks.identities[element.position] }
        return identity(of: element, on: page)
    }

    /// The role and lowercased name a landmark is listed under, or nil when the element is not a
    /// landmark as axe counts them (a header/footer in sectioning content, an unnamed section or form).
    private func identity(of element: Element, on page: PageContext) -> LandmarkIdentity? {
        let model = page.accessibility
        guard let role = model.role(of: element, options: .axeDefault) else { return nil }
        let name = model.accessibleName(of: element).lowercased()
        if element.isHTML {
            switch element.localName {
            case "header", "footer":
                if element.parent?.closest(sectioningAncestors) != nil { return nil }
                return LandmarkIdentity(role: role, name: name.isEmpty ? nil : name)
            case "section", "form":
                if name.isEmpty { return nil }
                return LandmarkIdentity(role: role, name: name)
            default: break
            }
        }
        guard Landmarks.roleNames.contains(role) else { return nil }
        return LandmarkIdentity(role: role, name: name.isEmpty ? nil : name)
    }

    public let examples = RuleExamples(
        passing: [
            #"<header>Tea Garden</header><nav aria-label="Main">Links</nav><main>Menu</main><nav aria-label="Footer">Links</nav><footer>©</footer>"#,
            #"<div id="a">Teas</div><div id="b">Cups</div><section aria-labelledby="a">…</section><section aria-labelledby="b">…</section>"#,
            // Names are compared without case only when they differ in more than case.
            #"<aside aria-label="Related teas">…</aside><aside aria-label="Related cups">…</aside>"#,
            // A hidden twin is not listed by screen readers.
            #"<nav>Links</nav><nav hidden>Old links</nav>"#,
        ],
        violating: [
            RuleExample(#"<nav>Links</nav><nav>More links</nav>"#, at: "body > nav:nth-child(1)"),
            RuleExample(#"<nav aria-label="Menu">Links</nav><div role="navigation" aria-label="MENU">More links</div>"#, at: #"[aria-label="Menu"]"#),
            RuleExample(#"<form aria-label="Search">…</form><form aria-label="search">…</form>"#, at: #"[aria-label="Search"]"#),
            RuleExample(#"<header>Tea Garden</header><header>Again</header>"#, at: "body > header:nth-child(1)"),
        ],
        inapplicable: [
            #"<section>No name</section><section>No name</section><form>No name</form>"#,
            #"<article><header>Story</header><footer>Posted</footer></article>"#,
            #"<div>Plain</div>"#,
        ]
    )
}

/// How a screen reader lists a landmark: by role and (case-insensitive) name.
struct LandmarkIdentity: Hashable {
    let role: String
    let name: String?
}
