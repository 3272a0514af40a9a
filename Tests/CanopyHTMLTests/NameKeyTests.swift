@testable import CanopyHTML
import Testing

struct NameKeyTests {
    /// A name's key is its byte length (at most 255) over its first seven UTF-8 bytes, whatever
    /// the string's storage: small, large, a substring's copy, non-ASCII.
    @Test(arguments: ["", "a", "id", "class", "aria-labelledby", "data-testid-with-a-long-name", "é", "ñandú", "名前", String(repeating: "x", count: 300)])
    func keysHoldLengthAndFirstBytes(name: String) {
        let bytes = Array(name.utf8)
        var expected = UInt64(min(bytes.count, 255)) << 56
        for (index, byte) in bytes.prefix(7).enumerated() { expected |= UInt64(byte) << (8 * UInt64(index)) }
        #expect(NameKey.of(name) == expected)
        #expect(NameKey.of(String(Substring(name))) == expected)
    }

    /// An attribute asked for by a name whose key is made once reads what asking by the name reads,
    /// for names that share a key with another (same length, same first seven bytes) too.
    @Test func attributesByPreparedNameMatchByName() throws {
        let document = HTMLParser().parse(
            html: """
            <div role="main" aria-disabled="true" aria-disabledx="no" data-testid="t" data-testix="u" style="color: red">
            <svg viewBox="0 0 1 1"></svg><a href="/x" type="a" type="b" id="i"></a><p aria-disablex="y"></p></div>
            """
        )
        let names = ["role", "aria-disabled", "data-testid", "style", "href", "type", "id", "viewBox", "aria-disablex", "missing"]
        let root = try #require(document.documentElement)
        for element in [root] + Array(root.descendants) {
            for name in names {
                #expect(element.attribute(AttributeName(name)) == element.attribute(name), "\(element.localName) \(name)")
                #expect(element.hasAttribute(AttributeName(name)) == element.hasAttribute(name), "\(element.localName) \(name)")
            }
            #expect(element.attribute(.ariaDisabled) == element.attribute("aria-disabled"))
            #expect(element.attribute(.dataTestID) == element.attribute("data-testid"))
        }
        let div = try #require(document.elements(named: "div").first)
        #expect(div.attribute(.ariaDisabled) == "true" && div.attribute(.dataTestID) == "t")
    }

    /// Whether a page holds an attribute anywhere is what asking every element says, for names
    /// that share a key with one the page has.
    @Test func documentContainsAttributeAsItsElementsSay() {
        let pages = [
            #"<p aria-disabledx="no" aria-disablex="y" data-testix="u">a</p><svg viewBox="0 0 1 1"></svg>"#,
            #"<fieldset DISABLED><input></fieldset><p aria-disabled="false" data-testid=t>b</p>"#,
            "<p>plain</p>", "",
        ]
        let names = ["disabled", "aria-disabled", "data-testid", "viewBox", "viewbox", "aria-disablex", "missing"]
        for html in pages {
            let document = HTMLParser().parse(html: html)
            let elements = document.documentElement.map { [$0] + Array($0.descendants) } ?? []
            for name in names {
                #expect(document.containsAttribute(AttributeName(name)) == elements.contains { $0.hasAttribute(name) }, "\(name) in \(html)")
            }
        }
    }
}

struct ElementNameTableTests {
    /// The table answers what a dictionary by local name answers, for every element of a page
    /// whose names share keys with the table's (same length and first seven bytes) or differ
    /// only in case, SVG's mixed-case names included.
    @Test func tableAnswersAsADictionaryByName() throws {
        let values = ["a": 1, "datalist": 2, "optgroup": 3, "textarea": 4, "foreignObject": 5, "section": 6, "td": 7]
        let table = ElementNameTable(values)
        let document = HTMLParser().parse(
            html: """
            <section><a href=x>a</a><datalist></datalist><datalisx></datalisx><optgroupz></optgroupz>
            <textarea></textarea><textareb></textareb><sectio></sectio><sections></sections><td>x</td>
            <svg><foreignObject><p>y</p></foreignObject><foreignObjecx/></svg><A>z</A></section>
            """
        )
        let root = try #require(document.documentElement)
        var asked = 0
        for element in [root] + Array(root.descendants) {
            #expect(table[element] == values[element.localName], "\(element.localName)")
            asked += values[element.localName] == nil ? 0 : 1
        }
        #expect(asked >= 6)
        #expect(ElementNameTable<Int>([:])[root] == nil)
    }
}
