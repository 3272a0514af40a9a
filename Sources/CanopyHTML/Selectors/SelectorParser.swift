/// Recursive-descent parser from selector text to `ComplexSelector`s.
///
/// Anything we do not support is an error with a position rather than a selector that silently
/// matches nothing: an exclude list that quietly excludes nothing is worse than a refused one.
struct SelectorParser {
    private var scanner: CSSScanner
    private let text: String
    private let dialect: SelectorDialect
    /// The pseudo-element of the complex selector being parsed (stylesheet dialect only).
    private var pseudoElement: String?
    /// `:has()` may not contain `:has()`, at any depth.
    private var insideHas = false
    /// How many functional pseudo-classes (`:not(`, `:is(`, `:nth-child(… of`) are open. Parsing
    /// and matching recurse once per level, so without a cap `:not(:is(` × 20,000 in a config or
    /// `--exclude` overflowed the stack (Tests/FuzzCorpus/selector/deep-*).
    private var nesting = 0
    static let maximumNesting = 32

    init(_ text: String, dialect: SelectorDialect = .query) {
        self.text = text
        self.dialect = dialect
        self.scanner = CSSScanner(text)
    }

    /// Parses a whole selector list; the text must contain nothing else.
    mutating func parseSelectorList() throws(SelectorParseError) -> [ComplexSelector] {
        let list = try parseComplexList(closing: nil)
        scanner.skipWhitespace()
        if let scalar = scanner.current {
            throw error(at: scanner.index, scalar == ")" ? "unexpected \")\" without a matching \"(\"" : unexpected(scalar))
        }
        return list
    }

    // MARK: Lists and complex selectors

    /// `closing` names the pseudo-class whose parenthesis ends the list, for messages.
    private mutating func parseComplexList(closing: String?) throws(SelectorParseError) -> [ComplexSelector] {
        var list: [ComplexSelector] = []
        var afterComma = false
        while true {
            scanner.skipWhitespace()
            try expectSelectorStart(after: afterComma ? "," : nil, closing: closing)
            list.append(try parseComplex(leading: nil))
            scanner.skipWhitespace()
            guard scanner.current == "," else { return list }
            scanner.index += 1
            afterComma = true
        }
    }

    /// Throws the right message when no selector starts at the current position.
    private func expectSelectorStart(after previous: String?, closing: String?) throws(SelectorParseError) {
        let position = scanner.index
        guard let scalar = scanner.current else {
            if let previous { throw error(at: position, "expected a selector after \"\(previous)\"") }
            if let closing { throw error(at: position, "expected a selector inside \"\(closing)(\" and a closing \")\"") }
            throw error(at: position, "expected a selector, found nothing")
        }
        switch scalar {
        case ",":
            throw error(at: position, previous == nil ? "expected a selector before \",\"" : "empty item in selector list")
        case ")":
            if let previous { throw error(at: position, "expected a selector after \"\(previous)\"") }
            if let closing { throw error(at: position, "expected a selector inside \"\(closing)()\"") }
        case ">", "+", "~":
            throw error(at: position, "a selector cannot start with the combinator \"\(scalar)\"")
        default:
            return
        }
    }

    /// Parses compounds and combinators. `leading` is the combinator of a relative (`:has`) selector.
    private mutating func parseComplex(leading: Combinator?) throws(SelectorParseError) -> ComplexSelector {
        pseudoElement = nil
        var compounds: [CompoundSelector] = [try parseCompound(after: leading)]
        var combinators: [Combinator] = []
        while true {
            let hadWhitespace = scanner.skipWhitespace()
            guard let scalar = scanner.current, scalar != ",", scalar != ")" else { break }
            if let pseudoElement {
                throw error(at: scanner.index, "nothing may follow the pseudo-element \"::\(pseudoElement)\" but user-action pseudo-classes")
            }
            let combinator: Combinator
            switch scalar {
            case ">": combinator = .child
            case "+": combinator = .nextSibling
            case "~": combinator = .subsequentSibling
            default:
                guard hadWhitespace else { throw error(at: scanner.index, unexpected(scalar)) }
                combinator = .descendant
            }
            if combinator != .descendant {
                scanner.index += 1
                scanner.skipWhitespace()
            }
            compounds.append(try parseCompound(after: combinator))
            combinators.append(combinator)
        }
        // Stored right to left, the order matching walks.
        var complex = ComplexSelector(compounds: compounds.reversed(), combinators: combinators.reversed())
        complex.pseudoElement = pseudoElement
        pseudoElement = nil
        return complex
    }

    // MARK: Compound selectors

    private mutating func parseCompound(after combinator: Combinator?) throws(SelectorParseError) -> CompoundSelector {
        let start = scanner.index
        var typeName: TypeName?
        var sawTypeOrUniversal = false
        if scanner.current == "*" {
            scanner.index += 1
            sawTypeOrUniversal = true
            try rejectNamespace(typeStart: start)
        } else if scanner.current == "|" {
            throw error(at: scanner.index, "namespace prefixes (\"|\") are not supported")
        } else if scanner.startsIdentifier {
            typeName = TypeName(scanner.consumeName())
            sawTypeOrUniversal = true
            try rejectNamespace(typeStart: start)
        }

        var conditions: [SimpleCondition] = []
        loop: while let scalar = scanner.current {
            switch scalar {
            case "#":
                scanner.index += 1
                guard scanner.startsIdentifier else {
                    throw error(at: scanner.index - 1, "expected an identifier after \"#\" (escape a leading digit, e.g. #\\31 23)")
                }
                conditions.append(.id(scanner.consumeName()))
            case ".":
                scanner.index += 1
                guard scanner.startsIdentifier else {
                    throw error(at: scanner.index - 1, "expected a class name after \".\" (escape a leading digit, e.g. .\\31 0)")
                }
                conditions.append(.className(scanner.consumeName()))
            case "[":
                conditions.append(.attribute(try parseAttribute()))
            case ":":
                if dialect == .stylesheet, let name = try parsePseudoElementIfAny() {
                    guard pseudoElement == nil else { throw error(at: scanner.index, "two pseudo-elements in one selector") }
                    pseudoElement = name
                } else if pseudoElement != nil {
                    // `::before:hover`: only user-action states may follow, and none holds at rest.
                    _ = try parsePseudoClass()
                    conditions.append(.pseudoClass(.never))
                } else {
                    conditions.append(.pseudoClass(try parsePseudoClass()))
                }
            case "*":
                throw error(at: scanner.index, "\"*\" must come first in a compound selector")
            case "|":
                throw error(at: scanner.index, "namespace prefixes (\"|\") are not supported")
            default:
                if scanner.startsIdentifier {
                    throw error(at: scanner.index, "a type selector must come first in a compound selector")
                }
                break loop
            }
        }

        guard sawTypeOrUniversal || !conditions.isEmpty || pseudoElement != nil else {
            let position = scanner.index
            guard let scalar = scanner.current else {
                throw error(at: position, combinator.map { "expected a selector after \"\($0.symbol)\"" } ?? "expected a selector")
            }
            if let combinator, combinator != .descendant, ">+~,)".unicodeScalars.contains(scalar) {
                throw error(at: position, "expected a selector after \"\(combinator.symbol)\"")
            }
            throw error(at: position, unexpected(scalar))
        }
        // A stable sort keeps the written order among equally cheap conditions.
        let ordered = conditions.enumerated().sorted { ($0.element.cost, $0.offset) < ($1.element.cost, $1.offset) }
        return CompoundSelector(typeName: typeName, conditions: ordered.map(\.element))
    }

    private func rejectNamespace(typeStart: Int) throws(SelectorParseError) {
        // `|` straight after a type or `*` is a namespace prefix (`svg|rect`, `*|a`).
        if scanner.current == "|", scanner.peek(1) != "=" {
            throw error(at: typeStart, "namespace prefixes (\"|\") are not supported")
        }
    }

    // MARK: Attribute selectors

    private mutating func parseAttribute() throws(SelectorParseError) -> AttributeCondition {
        let open = scanner.index
        scanner.index += 1
        scanner.skipWhitespace()
        if scanner.current == "|" || (scanner.current == "*" && scanner.peek(1) == "|") {
            throw error(at: scanner.index, "namespace prefixes (\"|\") are not supported")
        }
        guard scanner.startsIdentifier else {
            if scanner.isAtEnd { throw error(at: scanner.index, "unclosed \"[\": expected an attribute name and \"]\"") }
            throw error(at: scanner.index, "expected an attribute name after \"[\"")
        }
        let nameStart = scanner.index
        let name = scanner.consumeName()
        if scanner.current == "|", scanner.peek(1) != "=" {
            throw error(at: nameStart, "namespace prefixes (\"|\") are not supported")
        }
        scanner.skipWhitespace()
        guard let scalar = scanner.current else {
            throw error(at: scanner.index, "unclosed \"[\" opened at position \(scanner.characterOffset(of: open)): expected \"]\"")
        }
        if scalar == "]" {
            scanner.index += 1
            return AttributeCondition(name: name, operation: nil, value: "", caseFlag: .documentDefault)
        }

        let operatorStart = scanner.index
        let operation: AttributeOperator
        switch (scalar, scanner.peek(1)) {
        case ("=", _): operation = .equals
        case ("~", "="): operation = .includesWord
        case ("|", "="): operation = .dashPrefix
        case ("^", "="): operation = .prefix
        case ("$", "="): operation = .suffix
        case ("*", "="): operation = .substring
        default:
            throw error(at: operatorStart, "expected \"]\" or an operator (=, ~=, |=, ^=, $=, *=) after the attribute name")
        }
        scanner.index += operation == .equals ? 1 : 2
        scanner.skipWhitespace()

        let valueStart = scanner.index
        let value: String
        if let quote = scanner.current, quote == "\"" || quote == "'" {
            switch scanner.consumeString() {
            case .value(let string): value = string
            case .unterminated: throw error(at: valueStart, "unterminated string: expected a closing \(quote)")
            case .newline(let position): throw error(at: position, "a newline in a string must be escaped")
            }
        } else if scanner.startsIdentifier {
            value = scanner.consumeName()
        } else if let current = scanner.current, current != "]" {
            throw error(at: valueStart, "an unquoted attribute value must be an identifier; quote it, e.g. [\(name)\(operation.symbol)\"…\"]")
        } else {
            throw error(at: valueStart, "expected a value after \"\(operation.symbol)\"")
        }

        scanner.skipWhitespace()
        var caseFlag = AttributeCaseFlag.documentDefault
        if scanner.startsIdentifier {
            let flagStart = scanner.index
            switch CSSSyntax.asciiLowercased(scanner.consumeName()) {
            case "i": caseFlag = .insensitive
            case "s": caseFlag = .sensitive
            default: throw error(at: flagStart, "unknown attribute selector flag: only \"i\" and \"s\" exist")
            }
            scanner.skipWhitespace()
        }
        guard scanner.current == "]" else {
            if scanner.isAtEnd {
                throw error(at: scanner.index, "unclosed \"[\" opened at position \(scanner.characterOffset(of: open)): expected \"]\"")
            }
            throw error(at: scanner.index, "expected \"]\" to close the attribute selector")
        }
        scanner.index += 1
        return AttributeCondition(name: name, operation: operation, value: value, caseFlag: caseFlag)
    }

    // MARK: Pseudo-classes

    /// Pseudo-classes that exist in CSS but depend on a live browser (interaction, history, layout).
    private static let dynamicPseudoClasses: Set<String> = [
        "hover", "active", "focus", "focus-visible", "focus-within", "visited", "target", "target-within",
        "current", "past", "future", "playing", "paused", "fullscreen", "modal", "picture-in-picture",
        "user-invalid", "user-valid", "autofill", "popover-open", "open", "closed", "local-link",
    ]

    private static let legacyPseudoElements: Set<String> = ["before", "after", "first-line", "first-letter"]

    private mutating func parsePseudoClass() throws(SelectorParseError) -> PseudoClass {
        let colon = scanner.index
        scanner.index += 1
        if scanner.current == ":" {
            scanner.index += 1
            let name = scanner.startsIdentifier ? "::" + scanner.consumeName() : "::"
            throw error(at: colon, "pseudo-elements (\"\(name)\") are not supported: they select no element")
        }
        guard scanner.startsIdentifier else { throw error(at: colon, "expected a pseudo-class name after \":\"") }
        let written = scanner.consumeName()
        let name = CSSSyntax.asciiLowercased(written)

        if Self.legacyPseudoElements.contains(name) {
            throw error(at: colon, "pseudo-elements (\":\(written)\") are not supported: they select no element")
        }
        guard scanner.current == "(" else {
            switch name {
            case "first-child": return .firstChild
            case "last-child": return .lastChild
            case "only-child": return .onlyChild
            case "first-of-type": return .firstOfType
            case "last-of-type": return .lastOfType
            case "only-of-type": return .onlyOfType
            case "empty": return .empty
            case "root": return .root
            case "checked": return .checked
            case "disabled": return .disabled
            case "enabled": return .enabled
            case "link", "any-link": return .link
            case "not", "is", "where", "has", "nth-child", "nth-last-child", "nth-of-type", "nth-last-of-type":
                throw error(at: colon, "\":\(written)\" needs an argument in parentheses")
            default:
                // At rest nobody hovers, focuses or has visited anything: such selectors match nothing.
                if dialect == .stylesheet, Self.dynamicPseudoClasses.contains(name) { return .never }
                throw error(at: colon, unsupportedPseudoClass(written, name: name, functional: false))
            }
        }
        scanner.index += 1  // "("
        guard nesting < Self.maximumNesting else {
            throw error(at: colon, "selectors nest deeper than \(Self.maximumNesting) levels of \"(\"")
        }
        nesting += 1
        defer { nesting -= 1 }
        let result: PseudoClass
        switch name {
        case "not":
            result = .not(try parseComplexList(closing: ":" + written))
        case "is":
            result = .isAny(try parseComplexList(closing: ":" + written))
        case "where":
            result = .whereAny(try parseComplexList(closing: ":" + written))
        case "has":
            guard !insideHas else { throw error(at: colon, "\":has()\" cannot be nested inside \":has()\"") }
            insideHas = true
            result = .has(try parseRelativeList())
            insideHas = false
        case "nth-child", "nth-last-child":
            let pattern = try parseNthPattern(pseudoClass: written, allowsOf: true)
            var filter: [ComplexSelector]?
            let beforeWhitespace = scanner.index
            if scanner.skipWhitespace(), scanner.startsIdentifier {
                _ = scanner.consumeName()  // "of": parseNthPattern accepts no other word here
                filter = try parseComplexList(closing: ":" + written)
            } else {
                scanner.index = beforeWhitespace
            }
            result = name == "nth-child" ? .nthChild(pattern, of: filter) : .nthLastChild(pattern, of: filter)
        case "nth-of-type":
            result = .nthOfType(try parseNthPattern(pseudoClass: written, allowsOf: false))
        case "nth-last-of-type":
            result = .nthLastOfType(try parseNthPattern(pseudoClass: written, allowsOf: false))
        case "first-child", "last-child", "only-child", "first-of-type", "last-of-type", "only-of-type",
             "empty", "root", "checked", "disabled", "enabled", "link", "any-link":
            throw error(at: colon, "\":\(written)\" takes no arguments")
        default:
            throw error(at: colon, unsupportedPseudoClass(written, name: name, functional: true))
        }
        scanner.skipWhitespace()
        guard scanner.current == ")" else {
            if scanner.isAtEnd { throw error(at: scanner.index, "expected \")\" to close \":\(written)(\"") }
            throw error(at: scanner.index, unexpected(scanner.current!) + " inside \":\(written)()\"")
        }
        scanner.index += 1
        return result
    }

    /// In a stylesheet, `::name`, `::name(...)` and the four legacy one-colon pseudo-elements
    /// select a part of an element: returns the name (lowercased) after consuming it, or nil with
    /// nothing consumed when a pseudo-class follows instead.
    private mutating func parsePseudoElementIfAny() throws(SelectorParseError) -> String? {
        let colon = scanner.index
        guard insideFunctionalPseudoClass == false else { return nil }
        if scanner.peek(1) == ":" {
            scanner.index += 2
            guard scanner.startsIdentifier else { throw error(at: colon, "expected a pseudo-element name after \"::\"") }
            let name = CSSSyntax.asciiLowercased(scanner.consumeName())
            if scanner.current == "(" { try skipBalancedParentheses(openedAt: colon) }
            return name
        }
        let start = scanner.index
        scanner.index += 1
        if scanner.startsIdentifier {
            let name = CSSSyntax.asciiLowercased(scanner.consumeName())
            if Self.legacyPseudoElements.contains(name), scanner.current != "(" { return name }
        }
        scanner.index = start
        return nil
    }

    private var insideFunctionalPseudoClass: Bool { nesting > 0 }

    private mutating func skipBalancedParentheses(openedAt start: Int) throws(SelectorParseError) {
        var depth = 0
        while let scalar = scanner.current {
            scanner.index += 1
            if scalar == "(" { depth += 1 }
            if scalar == ")" {
                depth -= 1
                if depth == 0 { return }
            }
        }
        throw error(at: start, "expected \")\" to close the pseudo-element's argument")
    }

    private func unsupportedPseudoClass(_ written: String, name: String, functional: Bool) -> String {
        let shown = ":" + written + (functional ? "()" : "")
        if Self.dynamicPseudoClasses.contains(name) {
            return "unsupported pseudo-class \"\(shown)\": it depends on a live browser, which a static audit does not have"
        }
        return "unsupported pseudo-class \"\(shown)\""
    }

    private mutating func parseRelativeList() throws(SelectorParseError) -> [RelativeSelector] {
        var list: [RelativeSelector] = []
        var afterComma = false
        while true {
            scanner.skipWhitespace()
            let position = scanner.index
            var leading = Combinator.descendant
            switch scanner.current {
            case ">": leading = .child
            case "+": leading = .nextSibling
            case "~": leading = .subsequentSibling
            case ",": throw error(at: position, afterComma ? "empty item in selector list" : "expected a selector before \",\"")
            case ")": throw error(at: position, afterComma ? "expected a selector after \",\"" : "expected a relative selector inside \":has()\"")
            case nil: throw error(at: position, "expected a relative selector and \")\" to close \":has(\"")
            default: break
            }
            if leading != .descendant {
                scanner.index += 1
                scanner.skipWhitespace()
            }
            let parsed = try parseComplex(leading: leading)
            list.append(makeRelative(parsed, leading: leading))
            scanner.skipWhitespace()
            guard scanner.current == "," else { return list }
            scanner.index += 1
            afterComma = true
        }
    }

    private func makeRelative(_ parsed: ComplexSelector, leading: Combinator) -> RelativeSelector {
        let anchor = CompoundSelector(typeName: nil, conditions: [], isRelativeAnchor: true)
        let complex = ComplexSelector(compounds: parsed.compounds + [anchor], combinators: parsed.combinators + [leading])
        let scope: RelativeSelector.Scope
        let goesDown = parsed.combinators.contains { $0 == .child || $0 == .descendant }
        switch leading {
        case .child where parsed.combinators.isEmpty: scope = .children
        case .child, .descendant: scope = .descendants
        case .nextSibling, .subsequentSibling: scope = goesDown ? .followingSiblingsAndTheirDescendants : .followingSiblings
        }
        return RelativeSelector(complex: complex, scope: scope)
    }

    // MARK: An+B

    private mutating func parseNthPattern(pseudoClass: String, allowsOf: Bool) throws(SelectorParseError) -> NthPattern {
        scanner.skipWhitespace()
        let start = scanner.index
        var reader = AnPlusBReader(scanner: scanner)
        let pattern = reader.read()
        // The expression must end at ")" (or, for :nth-child, at " of"); otherwise it was not An+B.
        var after = reader.scanner
        let hadWhitespace = after.skipWhitespace()
        var endsCleanly = after.current == ")" || after.isAtEnd
        if allowsOf, hadWhitespace, after.startsIdentifier {
            endsCleanly = CSSSyntax.asciiLowercased(after.consumeName()) == "of"
        }
        guard let pattern, endsCleanly else {
            var end = start
            while end < scanner.scalars.count, scanner.scalars[end] != ")" { end += 1 }
            let shown = scanner.text(from: start, to: end).trimmingCSSWhitespace()
            if shown.isEmpty { throw error(at: start, "expected an An+B expression inside \":\(pseudoClass)()\"") }
            throw error(at: start, "invalid An+B expression \"\(shown)\" in \":\(pseudoClass)()\" (expected e.g. odd, even, 3, 2n+1, -n+3)")
        }
        scanner.index = reader.scanner.index
        return pattern
    }

    // MARK: Errors

    private func unexpected(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case ")": return "unexpected \")\""
        case "]": return "unexpected \"]\" without a matching \"[\""
        case "\"", "'": return "unexpected string: strings are only allowed as attribute values"
        case "/": return "unexpected \"/\" (comments are not supported in selectors)"
        default: return "unexpected \"\(Character(scalar))\""
        }
    }

    private func error(at scalarIndex: Int, _ reason: String) -> SelectorParseError {
        SelectorParseError(selector: text, position: scanner.characterOffset(of: scalarIndex), reason: reason)
    }
}

extension String {
    fileprivate func trimmingCSSWhitespace() -> String {
        let scalars = Array(unicodeScalars)
        var start = 0
        var end = scalars.count
        while start < end, CSSSyntax.isWhitespace(scalars[start]) { start += 1 }
        while end > start, CSSSyntax.isWhitespace(scalars[end - 1]) { end -= 1 }
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<end])
        return String(view)
    }
}
