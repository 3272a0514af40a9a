@testable import CanopyHTML
import Foundation
import Testing

/// The byte comparison of attribute values (what the cascade and the matcher run) against the
/// comparison by strings it replaced, on every operator, case flag and awkward value.
struct AttributeBytesTests {
    static let values = [
        "", "a", "A", "abc", "ABC", "a-b", "a b", " a  b\tc\n", "nav-details", "class-summary x", "-details",
        "http://x.test/", "HTTP://X", "caf\u{E9}", "CAF\u{C9}", "e\u{301}", "\u{1F600} smile", "x-", "--",
    ]
    static let wanted = ["", "a", "A", "b", "-details", "-summary", "://", "a b", "caf\u{E9}", "e", "x", "-", "http"]
    static let operators: [AttributeOperator?] = [nil, .equals, .includesWord, .dashPrefix, .prefix, .suffix, .substring]
    static let flags: [AttributeCaseFlag] = [.documentDefault, .insensitive, .sensitive]

    @Test(arguments: ["class", "type", "lang"])
    func bytesAgreeWithStrings(attribute: String) {
        for operation in Self.operators {
            for wanted in Self.wanted {
                for flag in Self.flags {
                    let condition = AttributeCondition(name: attribute, operation: operation, value: wanted, caseFlag: flag)
                    for value in Self.values {
                        for isHTML in [true, false] {
                            #expect(
                                SelectorMatcher.attributeValue(value, matches: condition, onHTMLElement: isHTML)
                                    == SelectorMatcher.attributeValueByCharacters(value, matches: condition, onHTMLElement: isHTML),
                                "[\(attribute)\(String(describing: operation))\(wanted) \(flag)] on \(value.debugDescription), HTML \(isHTML)"
                            )
                        }
                    }
                }
            }
        }
    }

    @Test func byteStringTableFindsExactlyItsKeys() {
        let keys = ["a", "ab", "nav", "details", "caf\u{E9}", "", "x y"]
        let table = ByteStringTable(keys.enumerated().map { (key: $0.element, value: Int32($0.offset)) })
        for (offset, key) in keys.enumerated() {
            #expect(table.value(for: key) == Int32(offset))
            #expect(table.value(forUTF8: ArraySlice(Array(key.utf8))) == Int32(offset))
        }
        for absent in ["b", "A", "abc", "nav ", "cafe", "e\u{301}"] { #expect(table.value(for: absent) == nil) }
        #expect(ByteStringTable().value(for: "a") == nil)
    }

    @Test func asciiCaseInsensitiveSearchFindsWhatFoundationFinds() {
        for text in ["", "v", "var(", "VAR(--x)", "a vAr( b", "va r(", "avar", "@IMPORT url(x)", "@impor", "x@import", "ſvar(", "vаr("] {
            #expect(text.containsASCIICaseInsensitive("var(") == (text.range(of: "var(", options: .caseInsensitive) != nil), "\(text)")
            #expect(text.containsASCIICaseInsensitive("@import") == (text.range(of: "@import", options: .caseInsensitive) != nil), "\(text)")
        }
    }

    @Test func textChildrenAskedOnBytesAsOnStrings() {
        let document = HTMLParser().parse(html: "<p>caf\u{E9} <b>x</b> \u{1F600}</p><p><i>only</i></p><p> </p><p>e\u{301}</p><p></p>")
        let predicates: [(String) -> Bool] = [
            { $0.contains("\u{E9}") }, { $0.unicodeScalars.contains { $0.value > 0xFFFF } }, { $0.isEmpty }, { $0.count == 1 }, { _ in false },
        ]
        for element in document.elements {
            #expect(element.utf8OfTextChildren == Array(element.textOfTextChildren.utf8))
            for predicate in predicates {
                #expect(
                    element.containsTextChild(whereBytes: { predicate(String(decoding: $0, as: UTF8.self)) }) == element.containsTextChild(where: predicate),
                    "\(element.localName)"
                )
            }
        }
    }
}

/// The selector inputs an element shows, sorted in place: they must come out ascending and the
/// same whatever order the element's classes and attributes are written in.
struct SelectorInputsTests {
    @Test func signaturesAreSortedAndIndependentOfWrittenOrder() throws {
        let selectors = try StyleSelector.parseList(".e, .d, .c, .b, .a, #x, [lang], [type=text], [data-q], a:link, .f")
        let inputs = SelectorInputs(selectors)
        let document = HTMLParser().parse(html: """
            <p class="a b c d e f" id=x lang=en data-q=1>1</p><p class="f e d c b a" data-q=2 lang=fr id=x>2</p>
            <input type=text class="c a"><input class="a c" type=text><a href=/ class=b>3</a><p>4</p>
            """)
        var signatures: [[Int32]] = []
        for element in document.elements {
            var signature: [Int32] = [-7]  // what was there before is kept
            inputs.signature(of: element, into: &signature)
            #expect(signature.first == -7)
            let own = Array(signature.dropFirst())
            #expect(own == own.sorted(), "\(element.localName)")
            signatures.append(own)
        }
        let paragraphs = document.elements.filter { $0.localName == "p" }.map { signatures[$0.position] }
        #expect(paragraphs[0].count == 9 && paragraphs[0] == paragraphs[1])
        let inputsOfFields = document.elements.filter { $0.localName == "input" }.map { signatures[$0.position] }
        #expect(inputsOfFields[0] == inputsOfFields[1] && inputsOfFields[0].count == 3)
        #expect(paragraphs[2].isEmpty)
    }
}
