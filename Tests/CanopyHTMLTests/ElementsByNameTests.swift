@testable import CanopyHTML
import Testing

/// The document's index of elements by name against its definition, a scan of every element:
/// names of up to seven bytes are their key; longer ones share keys with names they start like.
struct ElementsByNameTests {
    @Test func indexAgreesWithAScanForEveryName() {
        let document = HTMLParser().parse(html: """
            <div><p>a</p><blockquote>q</blockquote><blockquotes>x</blockquotes><blockquote-x>y</blockquote-x>
            <svg><foreignObject><p>in</p></foreignObject><foreignobjectx/><linearGradient/></svg>
            <custom-element-one></custom-element-one><custom-element-two></custom-element-two><p>b</p></div>
            """)
        let names = Set(document.elements.map(\.localName)).union(["custom-element-three", "nothing", "blockquo", "P"])
        for name in names {
            let scanned = document.elements.filter { $0.localName == name }.map(\.position)
            #expect(document.elements(named: name).map(\.position) == scanned, "\(name)")
        }
        #expect(document.elements(named: "blockquote").count == 1)
        #expect(document.elements(named: "custom-element-one").count == 1)
    }
}
