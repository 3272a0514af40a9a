import CanopyAccessibility
import CanopyHTML
import CanopyStyle

/// Text must stand out from its background enough to be read by people with low vision or
/// colour blindness: 4.5:1, or 3:1 for large text (WCAG 1.4.3, level AA).
public struct ColorContrastRule: ContrastRule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "color-contrast",
        impact: .serious,
        tags: ["cat.color", "wcag2aa", "wcag143", "TTv5", "TT13.c", "EN-301-549", "EN-9.1.4.3", "ACT", "RGAAv4", "RGAA-3.2.1"],
        description: "Checks that text contrasts with its background at least as much as WCAG 2 AA asks",
        help: "Text needs enough contrast with its background",
        howToFix: "Darken the text or lighten its background (or the reverse) until the ratio reaches 4.5:1, or 3:1 for text of 18pt, or 14pt bold, and larger.",
        enabledByDefault: true,
        rationale: "Text too close in lightness to its background is hard or impossible to read for people with low vision, in sunlight, or on a poor screen."
    )

    public let contrast = ColorContrast.aa

    public let examples = RuleExamples(
        passing: [
            // The list item's own text is only the separator after its link: the link alone is checked.
            #"<ul><li style="color: #ccc"><a href="/summary" style="color: #000">Summary</a>&nbsp;|&nbsp;</li></ul>"#,
            #"<p style="color: #595959; background: white">Grey on white, 7:1</p>"#,
            #"<p style="color: #767676">Grey on the white canvas, 4.54:1</p>"#,
            #"<h1 style="color: #949494; font-size: 24px">Large text needs only 3:1</h1>"#,
            #"<style>.card { background: #222 } .card p { color: #eee }</style><div class="card"><p>Light on dark</p></div>"#,
            #"<p style="color: #777; visibility: hidden">Hidden text is not seen</p>"#,
        ],
        violating: [
            RuleExample(#"<p style="color: #777777">Grey on white, 4.48:1</p>"#, at: "p"),
            RuleExample(#"<style>.note { color: #aaa }</style><div style="background: #fff"><span class="note">Pale</span></div>"#, at: ".note"),
            RuleExample(#"<p style="color: rgba(0, 0, 0, 0.3)">Faint text</p>"#, at: "p"),
            RuleExample(#"<div style="background: #333"><a href="/" style="color: #555">Dark on dark</a></div>"#, at: "a"),
            // Positioned, but nothing else on the page paints: only the canvas can lie under it.
            RuleExample(#"<p style="color: #aaa; position: absolute; top: 2em">Placed anywhere over white</p>"#, at: "p"),
            // Separators with a space between them are text to axe, punctuation measured as any text.
            RuleExample(#"<p style="color: #ccc">| |</p>"#, at: "p"),
        ],
        incomplete: [
            RuleExample(#"<div style="background: url(photo.jpg)"><p style="color: white">Over a photo</p></div>"#, at: "p"),
            RuleExample(#"<div style="background: linear-gradient(#000, #fff)"><p style="color: #777">Over a gradient</p></div>"#, at: "p"),
            RuleExample(
                #"<div style="background: #000; height: 3em"></div><p style="color: #aaa; position: absolute; top: 0">Over the dark band, or beside it</p>"#,
                at: "p"
            ),
            RuleExample(#"<p style="color: #ccc; text-shadow: 1px 1px 0 black, -1px 1px 0 black">Shadowed on three sides</p>"#, at: "p"),
            RuleExample(#"<p style="color: white; background: white">Same as its background</p>"#, at: "p"),
            // A script fills these in through a shadow root, which only a browser sees.
            RuleExample(
                #"<p id="status" style="color: #aaa"></p><script>document.getElementById("status").attachShadow({ mode: "open" }).textContent = "Saved"</script>"#,
                at: "p"
            ),
            RuleExample(
                #"<x-note style="color: #999">Slotted</x-note><script>customElements.define("x-note", class extends HTMLElement { constructor() { super(); this.attachShadow({ mode: "open" }).innerHTML = "<b><slot></slot></b>" } })</script>"#,
                at: "x-note"
            ),
            // Styles that only layout decides: the page is left for review as a whole, on its root.
            RuleExample(#"<style>@container (min-width: 30em) { p { color: #ccc } }</style><p>Pale in a wide container</p>"#, at: "html"),
            // Icon-font and symbol characters alone (a private use character, a star): a person judges them.
            RuleExample(#"<p style="color: #ccc">&#xE001; &#x2605;</p>"#, at: "p"),
        ],
        inapplicable: [
            #"<p style="display: none; color: #eee">Not rendered</p>"#,
            #"<button disabled style="color: #ccc">Disabled</button>"#,
            #"<input type="checkbox">"#,
            #"<p>   </p>"#,
            // A lone separator, no-break spaces around it, is no text of the element's own.
            #"<p style="color: #ccc">&nbsp;|&nbsp;</p>"#,
            // A script that attaches no shadow root leaves the empty element empty as far as Canopy can see.
            #"<p id="later" style="color: #aaa"></p><script>document.getElementById("later").hidden = true</script>"#,
        ]
    )
}
