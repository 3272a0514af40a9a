import CanopyHTML
import Testing

/// The walks by position (parents, first children, next siblings, names) against the element
/// walks they stand in for: the cascade, the contrast facts and fingerprints climb by them.
struct PositionWalkTests {
    @Test func parentPositionsAndNamesAgreeWithElements() throws {
        let document = HTMLParser().parse(html: """
            <!-- before --><header><nav><a href="/">Home</a></nav></header>
            <table><tr><td>cell <b>bold</b></td></tr></table>
            <details><summary>More</summary><p>hidden <i>text</i></p></details>
            <svg><foreignObject><p>inside</p></foreignObject><linearGradient/></svg>
            <template><span>inert</span></template><p>after</p>
            """)
        #expect(document.elementCount > 15)
        for element in document.elements {
            let position = element.position
            #expect(element.parentPosition == element.parent?.position, "\(element.localName) at \(position)")
            #expect(document.parentPosition(ofPosition: position) == element.parent?.position, "\(element.localName) at \(position)")
            #expect(document.localName(atPosition: position) == element.localName)
            #expect(document.firstChildPosition(ofPosition: position) == element.firstElementChild?.position)
            #expect(document.nextSiblingPosition(ofPosition: position) == element.nextElementSibling?.position)
        }
        #expect(document.parentPosition(ofPosition: 0) == nil)
        let bold = try #require(document.elements(named: "b").first)
        #expect(bold.parentPosition.map(document.localName(atPosition:)) == "td")
    }
}
