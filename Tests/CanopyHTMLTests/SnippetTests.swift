@testable import CanopyHTML
import Testing

/// The byte path of `snippet(maxLength:)` (ASCII markup) against the general one, which counts
/// Characters: every element of pages built to sit on either side of the limit and to need escaping.
struct SnippetTests {
    static let pages = [
        #"<p id=a title='say "hi" & go'>Fish &amp; chips &lt;b&gt; <b>bold</b><!-- a comment --> tail</p>"#,
        "<div><img src=a.png alt=x><br><input value='a&b'><span></span><p></p>text</div>",
        "<script>if (a < b && c > d) { x = \"&amp;\" }</script><style>p > a { color: red }</style>",
        "<ul>" + String(repeating: "<li><a href=/x>item</a></li>", count: 9) + "</ul>",
        "<div class=outer>" + String(repeating: "x", count: 276) + "</div>",
        "<div class=outer>" + String(repeating: "x", count: 277) + "</div>",
        "<div class=outer>" + String(repeating: "x", count: 278) + "</div>",
        "<div title='" + String(repeating: "t", count: 400) + "'>long start tag</div>",
        "<p>caf\u{E9} \u{A0}space and a\u{301}ccent</p><p title=\"\u{1F600}\">emoji</p>",
        "<pre>line one\r\nline two</pre>",
        "<table><tr><td>1<td>2</table><svg><circle r=1 /><text>svg text</text></svg>",
        "<template><b>inert</b></template><noscript><i>no</i></noscript><textarea>a < b</textarea>",
        "<div>" + String(repeating: "<span>word</span>", count: 16) + "</div>",
    ]

    @Test(arguments: [1, 2, 20, 40, 80, 150, 300])
    func bytePathAgreesWithCharacterPath(maxLength: Int) {
        for markup in Self.pages {
            let document = HTMLParser().parse(html: "<!doctype html><html><body>" + markup + "</body></html>")
            for element in document.elements {
                let general = element.characterSnippet(maxLength: maxLength)
                #expect(element.snippet(maxLength: maxLength) == general, "\(element) of \(markup.prefix(60)) at \(maxLength)")
                if let fast = element.asciiSnippet(maxLength: maxLength) { #expect(fast == general) }
            }
        }
    }

    @Test func bytePathTakesASCIIMarkupAndLeavesTheRest() {
        let document = HTMLParser().parse(html: "<p id=plain>plain &amp; simple</p><p id=accent>caf\u{E9}</p><pre id=crlf>a\r\nb</pre>")
        #expect(document.element(withID: "plain")?.asciiSnippet(maxLength: 300) == #"<p id="plain">plain &amp; simple</p>"#)
        #expect(document.element(withID: "accent")?.asciiSnippet(maxLength: 300) == nil)
    }
}
