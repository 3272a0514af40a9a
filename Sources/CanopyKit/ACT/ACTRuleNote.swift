/// Why an ACT rule that Canopy maps reports none of its failed examples as failed: the markup
/// cannot decide them (a browser, the media or a person has to), or Canopy keeps axe-core's
/// answer where the conformance fixtures expect it. Rendered below the tables of the ACT report;
/// the README's ACT paragraph summarises them.
public struct ACTRuleNote: Sendable {
    public let actRules: [String]
    public let canopyRule: String
    public let text: String

    public static let all: [ACTRuleNote] = [
        ACTRuleNote(
            actRules: ["047fe0", "3e12e1", "b40fd1", "cf77f2", "ye5d6e"], canopyRule: "bypass",
            text: """
                Needs a person and a browser. As in axe-core, a page with links but no same-page link, \
                heading or main landmark is left for review, and a page with any of them passes. \
                Which blocks repeat is known only by comparing a site's pages; several passed \
                examples skip or collapse the navigation with script (a toggle link, a button calling \
                `location.assign`), which Canopy does not run, on markup otherwise the same as failed \
                ones; and whether the heading or link found really leads to the main content \
                (047fe0 failed-2 and -4: a heading moved off-screen or inside the navigation; ye5d6e \
                failed-2 and -3: a skip link to a missing id or to the aside) is not checked, as \
                axe-core does not check it either.
                """),
        ACTRuleNote(
            actRules: ["4b1c6c"], canopyRule: "frame-title-unique",
            text: """
                Needs a person. Frames sharing a name fail only when they serve different purposes, \
                and different documents are not enough: failed-1 and passed-8 both give two different \
                documents one title (a breadcrumb page and an article; two adverts). As \
                axe-core, Canopy leaves same-named frames for review and compares `title` \
                attributes within one document, so names from `aria-label` (failed-2, -3) and a frame \
                inside a `srcdoc` frame (failed-4) are not compared.
                """),
        ACTRuleNote(
            actRules: ["b20e66"], canopyRule: "identical-links-same-purpose",
            text: """
                Needs a person. Links that share a name but not an address fail only when the \
                resources serve different purposes, and several passed examples give one name two \
                addresses that are the same page (a redirect, a copy at another address). As \
                axe-core, Canopy passes links whose addresses are the same resource (scheme, host, \
                folder, an `index` file, the query in any order, an app's `#/` route) and leaves \
                the others for review.
                """),
        ACTRuleNote(
            actRules: ["d0f69e"], canopyRule: "th-has-data-cells",
            text: """
                Decidable from markup, kept as axe-core answers it: axe-core marks a header cell \
                with no data cells for review, never as a violation, and its conformance fixtures \
                expect that, so failed-1 and -2 are "can't tell". Like axe-core the rule checks \
                `<table>` elements only, so the ARIA grid of failed-3 is not tested.
                """),
        ACTRuleNote(
            actRules: ["eac66b"], canopyRule: "video-caption",
            text: """
                Needs the media and a person. A video without a captions track fails only if it has \
                sound and no text alternative: failed-1 and inapplicable-2 are the same markup (the \
                second video is silent), and failed-2 and passed-2 differ only in whether the \
                paragraph beside the video tells all it says. Canopy answers "can't tell" where there \
                is no `<track kind="captions">`, as axe-core does; W3C counts that against it on the \
                silent video, so the rule stays inconsistent, as axe-core's published figures show \
                too.
                """),
    ]
}
