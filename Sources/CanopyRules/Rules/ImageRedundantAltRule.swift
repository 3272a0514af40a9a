import CanopyAccessibility
import CanopyHTML

/// When an image's alt repeats the text next to it, screen readers read the same words twice.
public struct ImageRedundantAltRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "image-redundant-alt",
        impact: .minor,
        tags: ["cat.text-alternatives", "best-practice"],
        description: "Checks that an image's alternative text does not repeat the text of the control or block around it",
        help: "Image alt text should not repeat the text beside it",
        howToFix: "Give the image alt=\"\" when the surrounding text already says the same, or write alt text that adds what the image shows.",
        enabledByDefault: true,
        rationale: "Alternative text repeating the text beside it is read twice."
    )

    public let selector = try! SelectorList("img")

    /// The containers whose text an image's alt is compared with (axe's `parentSelector`).
    private let textContainers = try! SelectorList(#"button, [role="button"], a[href], p, li, td, th"#)

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let model = page.accessibility
        if let role = model.role(of: element), role == "none" || role == "presentation" { return .pass }
        guard let container = element.closest(textContainers) else { return .pass }
        // The container's own text as a screen reader reads it; image alts are not part of it.
        let containerText = model.screenReaderText(of: container).lowercased()
        guard !containerText.isEmpty else { return .pass }
        if containerText == model.accessibleName(of: element).lowercased() {
            return .violation("The image's alt text repeats the text around it, so it is read twice.")
        }
        return .pass
    }

    public let examples = RuleExamples(
        passing: [
            #"<a href="/cart"><img src="cart.png" alt="Shopping cart icon">Cart</a>"#,
            #"<a href="/cart"><img src="cart.png" alt="">Cart</a>"#,
            #"<button><img src="x.png" alt="Cart" role="presentation">Cart</button>"#,
            #"<div><img src="x.png" alt="Cart">Cart</div>"#,
            #"<p><img src="x.png" alt="Cart"></p>"#,
        ],
        violating: [
            RuleExample(#"<a href="/cart"><img src="cart.png" alt="Cart">Cart</a>"#, at: #"[alt="Cart"]"#),
            RuleExample(#"<button><img src="x.png" alt="SAVE">Save</button>"#, at: #"[alt="SAVE"]"#),
            RuleExample(#"<p><img src="x.png" alt="Our team">Our team</p>"#, at: #"[src="x.png"]"#),
        ],
        inapplicable: [
            #"<a href="/"><img src="x.png" alt="Home" aria-hidden="true">Home</a>"#,
            "<p>No images</p>",
        ]
    )
}
