import Testing

@testable import CanopyHTML

@Suite("Selector parse errors")
struct SelectorParseErrorTests {
    /// Parses `selector`, which must fail, and returns the error.
    private func parseError(_ selector: String) -> SelectorParseError? {
        do {
            let list = try SelectorList(selector)
            Issue.record("\"\(selector)\" parsed as \(list.selectors.count) selector(s) but should be an error")
            return nil
        } catch {
            return error
        }
    }

    @Test func descriptionNamesSelectorPositionAndReason() throws {
        let error = try #require(parseError("div >> p"))
        #expect(error.selector == "div >> p")
        #expect(error.position == 5)
        #expect(error.reason == "expected a selector after \">\"")
        #expect(error.description == "invalid selector \"div >> p\" at position 5: expected a selector after \">\"")
        #expect("\(error)" == error.description)
    }

    /// (selector, 0-based character position, a fragment the reason must contain)
    static let cases: [(String, Int, String)] = [
        // Empty selectors and list items
        ("", 0, "expected a selector"),
        ("   ", 3, "expected a selector"),
        ("a, , b", 3, "empty item"),
        ("a,,b", 2, "empty item"),
        ("a,", 2, "after \",\""),
        ("a, ", 3, "after \",\""),
        (", a", 0, "before \",\""),
        // Dangling or doubled combinators
        ("div >> p", 5, "expected a selector after \">\""),
        ("div >", 5, "after \">\""),
        ("div > ", 6, "after \">\""),
        ("div +", 5, "after \"+\""),
        ("div ~ ", 6, "after \"~\""),
        ("div > + p", 6, "after \">\""),
        ("div > , p", 6, "after \">\""),
        ("> div", 0, "cannot start with the combinator"),
        ("a, ~ b", 3, "cannot start with the combinator"),
        // Pseudo-elements
        ("p::before", 1, "pseudo-elements"),
        ("::selection", 0, "pseudo-elements"),
        ("p:before", 1, "pseudo-elements"),
        ("p:first-line", 1, "pseudo-elements"),
        ("a:not(::after)", 6, "pseudo-elements"),
        // Unknown and unsupported pseudo-classes
        ("a:hover", 1, "live browser"),
        ("input:focus", 5, "live browser"),
        ("a:visited", 1, "live browser"),
        ("p:unknown", 1, "unsupported pseudo-class \":unknown\""),
        ("p:lang(en)", 1, "unsupported pseudo-class \":lang()\""),
        ("a:is(b, :hover)", 8, "live browser"),
        ("p:", 1, "expected a pseudo-class name"),
        ("p: first-child", 1, "expected a pseudo-class name"),
        (":not", 0, "needs an argument"),
        (":nth-child", 0, "needs an argument"),
        (":first-child(2)", 0, "takes no arguments"),
        (":has(:has(a))", 5, "cannot be nested"),
        (":has(:is(:has(a)))", 9, "cannot be nested"),
        // Namespaces
        ("svg|rect", 0, "namespace"),
        ("*|a", 0, "namespace"),
        ("|a", 0, "namespace"),
        ("div |a", 4, "namespace"),
        ("[xlink|href]", 1, "namespace"),
        ("[*|href]", 1, "namespace"),
        ("[|href]", 1, "namespace"),
        // Unbalanced brackets and parentheses
        ("div[a", 5, "unclosed \"[\" opened at position 3"),
        ("[a=b", 4, "unclosed \"[\""),
        ("[a=\"b\"", 6, "unclosed \"[\""),
        ("[", 1, "unclosed \"[\""),
        ("a]", 1, "without a matching \"[\""),
        ("a)", 1, "without a matching \"(\""),
        (":not(a", 6, "expected \")\" to close \":not(\""),
        (":is(a, b", 8, "expected \")\""),
        (":not(a))", 7, "without a matching \"(\""),
        (":has(> a", 8, "expected \")\""),
        ("li:nth-child(2", 14, "expected \")\""),
        // Empty or malformed arguments
        (":not()", 5, "expected a selector inside \":not()\""),
        (":is(a,)", 6, "after \",\""),
        (":where(,a)", 7, "before \",\""),
        (":has()", 5, "expected a relative selector"),
        (":has(a,)", 7, "after \",\""),
        (":has(>)", 6, "after \">\""),
        (":not(a b c d >)", 14, "after \">\""),
        // Attribute selectors
        ("[=a]", 1, "expected an attribute name"),
        ("[1a]", 1, "expected an attribute name"),
        ("[a~b]", 2, "expected \"]\" or an operator"),
        ("[a==b]", 3, "an unquoted attribute value must be an identifier"),
        ("[a=]", 3, "expected a value after \"=\""),
        ("div[a=", 6, "expected a value"),
        ("[a^=1]", 4, "an unquoted attribute value must be an identifier"),
        ("[a=\"b]", 3, "unterminated string"),
        ("[a='b\nc']", 5, "newline"),
        ("[a=b c]", 5, "unknown attribute selector flag"),
        ("[a=b i s]", 7, "expected \"]\""),
        ("[a i]", 3, "expected \"]\" or an operator"),
        // Identifiers
        ("#", 0, "expected an identifier after \"#\""),
        ("#1a", 0, "expected an identifier after \"#\""),
        ("div#", 3, "after \"#\""),
        (".", 0, "expected a class name"),
        (".5", 0, "expected a class name"),
        (".-5", 0, "expected a class name"),
        ("a.b.", 3, "expected a class name"),
        // Stray characters and misplaced type selectors
        ("div$", 3, "unexpected \"$\""),
        ("a !b", 2, "unexpected \"!\""),
        ("a\"b\"", 1, "strings are only allowed"),
        ("a /* c */ b", 2, "comments"),
        ("[a]b", 3, "a type selector must come first"),
        (".a*", 2, "\"*\" must come first"),
        ("a**", 1, "\"*\" must come first"),
        (".a|b", 2, "namespace"),
        ("a & b", 2, "unexpected \"&\""),
        // An+B
        (":nth-child()", 11, "expected an An+B expression"),
        (":nth-child( )", 12, "expected an An+B expression"),
        (":nth-child(2n+)", 11, "invalid An+B expression \"2n+\""),
        (":nth-child( 2 n )", 12, "invalid An+B expression \"2 n\""),
        (":nth-child(+ n)", 11, "invalid An+B"),
        (":nth-child(- n)", 11, "invalid An+B"),
        (":nth-child(+-n)", 11, "invalid An+B"),
        (":nth-child(--n)", 11, "invalid An+B"),
        (":nth-child(3.0)", 11, "invalid An+B"),
        (":nth-child(1e1)", 11, "invalid An+B"),
        (":nth-child(2.5n)", 11, "invalid An+B"),
        (":nth-child(n-a)", 11, "invalid An+B"),
        (":nth-child(nn)", 11, "invalid An+B"),
        (":nth-child(2n + +1)", 11, "invalid An+B"),
        (":nth-child(2n - -1)", 11, "invalid An+B"),
        (":nth-child(2n-)", 11, "invalid An+B"),
        (":nth-child(n- +1)", 11, "invalid An+B"),
        (":nth-child(+odd)", 11, "invalid An+B"),
        (":nth-child(odd1)", 11, "invalid An+B"),
        (":nth-child(5%)", 11, "invalid An+B"),
        (":nth-child(2n+1of p)", 11, "invalid An+B"),
        (":nth-child(odd of)", 17, "expected a selector inside \":nth-child()\""),
        (":nth-child(odd off p)", 11, "invalid An+B expression \"odd off p\""),
        (":nth-of-type(2 of p)", 13, "invalid An+B"),
        (":nth-last-of-type(n+)", 18, "invalid An+B"),
        // Positions count characters, not bytes or code points
        ("é >> p", 3, "after \">\""),
        ("e\u{301}e\u{301} >> p", 4, "after \">\""),
        ("🙂🙂 $", 3, "unexpected \"$\""),
    ]

    @Test(arguments: cases)
    func invalidSelectorsAreErrorsWithPosition(selector: String, position: Int, reason: String) {
        guard let error = parseError(selector) else { return }
        #expect(error.selector == selector)
        #expect(error.position == position, "\(error)")
        #expect(error.reason.contains(reason), "\(error)")
    }

    /// What the target selector generator writes must read back as the same value.
    @Test func escapeSerializationRoundTrips() throws {
        for value in ["123", "-1a", "-", "a b", "a:b.c", "x\u{1}y", "é—ü", "#[]\"'\\", "--x", "_a", "a\u{0}b"] {
            let expected = value.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}")
            let id = try SelectorList("#" + CSSSyntax.escapeIdentifier(value))
            #expect(id.selectors[0].compounds[0].conditions == [.id(expected)], "\(value) → \(id.text)")
            let attribute = try SelectorList("[data-x=" + CSSSyntax.quoteString(value) + "]")
            guard case .attribute(let condition) = attribute.selectors[0].compounds[0].conditions[0] else {
                Issue.record("not an attribute selector: \(attribute.text)")
                continue
            }
            #expect(condition.value == expected, "\(value) → \(attribute.text)")
        }
    }

    /// The byte-by-byte escape of ASCII identifiers is the scalar-by-scalar one, whatever the
    /// bytes: controls, DEL, digits and hyphens first and second, punctuation.
    @Test func asciiEscapeMatchesTheScalarEscape() {
        var generator = SystemRandomNumberGenerator()
        let alphabet: [UInt8] = [0x01, 0x09, 0x1F, 0x7F, 0x20] + Array("-_09aZ.:#[]\"'\\/{}%".utf8)
        for _ in 0..<20_000 {
            let count = Int.random(in: 1...5, using: &generator)
            let text = String(decoding: (0..<count).map { _ in alphabet.randomElement(using: &generator)! }, as: UTF8.self)
            #expect(CSSSyntax.escapedASCIIIdentifier(text) == CSSSyntax.escapedIdentifierByScalars(text), "\(Array(text.utf8))")
        }
        #expect(CSSSyntax.escapedASCIIIdentifier("a\u{0}b") == nil)
        #expect(CSSSyntax.escapedASCIIIdentifier("é") == nil)
    }

    /// Valid edge cases that a too-strict parser would refuse.
    static let validSelectors = [
        "*", " div ", "div\n>\tp", "a,b", "a , b", "[a]", "[ a ]", "[a='']", "[a=\"\"]", "[a=b i]", "[a=\"b\"i]",
        "[a|=b]", "[data-x=-y]", "[a=--]", "#-a", "#_1", "#\\31", ".\\31 a", "-foo", "--bar", ":NOT(a)",
        ":nth-child(+n)", ":nth-child(-n+3)", ":nth-child(N)", ":nth-child( odd )", ":nth-child(2n+1 of p, .a)",
        ":nth-last-child(even of :not(.x))", ":has(> a, + b, ~ c, d e)", ":is(:where(:not(a)))",
        ":nth-child(1)", "a:first-child:last-child", "svg foreignObject", "a:any-link",
    ]

    @Test(arguments: validSelectors)
    func validSelectorsParse(selector: String) throws {
        _ = try SelectorList(selector)
    }
}
