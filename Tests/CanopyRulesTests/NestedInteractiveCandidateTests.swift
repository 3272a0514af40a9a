import CanopyAccessibility
import CanopyHTML
@testable import CanopyRules
import Testing

/// nested-interactive looks only at the elements its selector names; this checks that no HTML
/// element left out can have a role whose children are presentational.
struct NestedInteractiveCandidateTests {
    /// Every element of the HTML living standard, obsolete ones included.
    static let htmlElements = """
        a abbr acronym address area article aside audio b base basefont bdi bdo big blink blockquote body br button
        canvas caption center cite code col colgroup data datalist dd del details dfn dialog dir div dl dt em embed
        fieldset figcaption figure font footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i
        iframe img input ins kbd label legend li link main map mark marquee math menu meta meter nav nobr noembed
        noframes noscript object ol optgroup option output p param picture pre progress q rp rt ruby s samp script
        search section select slot small source span strike strong style sub summary sup svg table tbody td template
        textarea tfoot th thead time title tr track tt u ul var video wbr
        """.split(whereSeparator: \.isWhitespace).map(String.init)

    static let inputTypes = """
        button checkbox color date datetime-local email file hidden image month number password radio range reset
        search submit tel text time url week
        """.split(whereSeparator: \.isWhitespace).map(String.init)

    /// Each element in the contexts that change implicit roles (href, alt, a table, a list of options).
    static var variants: [String] {
        var html: [String] = []
        for name in htmlElements {
            html.append("<\(name) id=t href=/x alt=x>x</\(name)>")
            html.append(#"<\#(name) id=t alt="">x</\#(name)>"#)
            html.append("<table><tr><\(name) id=t>x</\(name)></tr></table>")
            html.append("<select><\(name) id=t>x</\(name)></select>")
        }
        html += inputTypes.map { #"<input id=t type="\#($0)">"# }
        return html
    }

    @Test func everyElementWhoseRoleMakesItsChildrenPresentationalIsACandidate() throws {
        let rule = NestedInteractiveRule()
        var checked = 0
        for body in Self.variants {
            let document = HTMLParser().parse(html: "<!DOCTYPE html><html><body>\(body)</body></html>")
            guard let element = document.element(withID: "t") else { continue }
            let model = AccessibilityModel(document: document)
            let role = model.role(of: element, options: .axeDefault)
            guard let role, ARIARoles.role(named: role)?.childrenPresentational == true else { continue }
            checked += 1
            #expect(rule.selector.matches(element), "\(body): role \(role) but not a candidate")
        }
        // button, summary, img, hr, math, meter, option, progress and six input types at least.
        #expect(checked >= 14)
    }
}
