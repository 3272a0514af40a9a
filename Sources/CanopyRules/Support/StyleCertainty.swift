import CanopyStyle

/// Whether a page's cascade can be trusted for the properties a rule reads: not when one of its
/// stylesheets could not be loaded (any of its rules might set them), nor when rules under a
/// condition only layout decides (`@container`) declare them. A rule then answers "review" and
/// names the reason, instead of judging from part of the styles.
enum StyleCertainty {
    struct Doubt {
        /// axe-core's incomplete reason where it has one, Canopy's own otherwise.
        let key: String
        let message: String
    }

    static func doubt(about properties: PropertySet, on page: PageContext) -> Doubt? {
        let index = page.styles.index
        if let failure = index.failures.first {
            return Doubt(
                key: "stylesheetUnavailable",
                message: "The stylesheet \(failure.url) could not be used (\(failure.reason)), so the styles this rule reads are not known on this page."
            )
        }
        if index.undecidableDeclared.intersects(properties) {
            return Doubt(
                key: "undecidableCondition",
                message: "A stylesheet sets styles this rule reads under a condition only layout can decide (such as @container), so they are not certain on this page."
            )
        }
        return nil
    }
}
