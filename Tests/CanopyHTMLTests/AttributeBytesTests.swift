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
                        // As a page stores a value: a slice in the middle of its bytes.
                        let stored = [UInt8(ascii: "x"), 0xFF] + Array(value.utf8) + [UInt8(ascii: "x")]
                        let slice = stored[2..<(stored.count - 1)]
                        for isHTML in [true, false] {
                            let expected = SelectorMatcher.attributeValueByCharacters(value, matches: condition, onHTMLElement: isHTML)
                            #expect(
                                SelectorMatcher.attributeBytes(ArraySlice(Array(value.utf8)), match: condition.test, onHTMLElement: isHTML) == expected,
                                "[\(attribute)\(String(describing: operation))\(wanted) \(flag)] on \(value.debugDescription), HTML \(isHTML)"
                            )
                            #expect(SelectorMatcher.attributeBytes(slice, match: condition.test, onHTMLElement: isHTML) == expected)
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

    /// Equal signatures (of elements of one name) exactly where the selectors' own conditions
    /// match alike: the ground the cascade shares styles on.
    @Test func equalSignaturesExactlyWhereConditionsMatchAlike() throws {
        let texts = [
            ".a", ".b", "#x", "[lang]", "[type=text]", "[data-testid]", "[data-testid=\"one\"]", "[class$=\"-details\"]",
            "[href*=\"://\"]", "a:link", "area:link", "[viewBox]", "[viewbox]", "input:checked",
        ]
        let selectors = try texts.flatMap { try StyleSelector.parseList($0) }
        let inputs = SelectorInputs(selectors)
        let document = HTMLParser().parse(html: """
            <p class="a" id=x>1</p><p class="x-details a" id=y>2</p><p class=" b  a ">3</p><p lang=en data-testid=one>4</p>
            <p data-testid=two>5</p><p data-testid=one class=b>6</p><a href="https://x.test/">7</a><a href=/local>8</a><a>9</a>
            <a name=n>10</a><map><area href=/a><area></map><input type=text checked><input type=TEXT><input type=text>
            <svg viewBox="0 0 1 1" class="a"><g viewbox="0" class="b"></g></svg><p ID=x Class=a>11</p>
            """)
        let elements = Array(document.elements)
        var signatures: [[Int32]] = []
        for element in elements {
            var signature: [Int32] = []
            inputs.signature(of: element, into: &signature)
            signatures.append(signature)
        }
        for (first, left) in elements.enumerated() {
            for (second, right) in elements.enumerated() where second > first && left.localName == right.localName && left.namespace == right.namespace {
                let alike = selectors.allSatisfy { $0.matches(left) == $0.matches(right) }
                #expect((signatures[first] == signatures[second]) == alike, "\(left) and \(right)")
            }
        }
    }
}
