/// Reads the An+B microsyntax (CSS Syntax Level 3, §6) at the scanner's position.
///
/// The grammar is defined over CSS tokens, and its whitespace rules follow from how text splits
/// into tokens: `2n+1`, `2n + 1`, `2n- 1` and `+n` are valid, while `+ n`, `2 n` and `2n + +1` are not.
/// So this reads tokens the way the CSS tokenizer would, then applies the grammar to them.
struct AnPlusBReader {
    var scanner: CSSScanner

    private enum Token {
        case identifier(String)
        /// `hasSign`: written with a leading `+` or `-`.
        case number(Int, isInteger: Bool, hasSign: Bool)
        case dimension(Int, isInteger: Bool, unit: String)
        case delimiter(Unicode.Scalar)
        case whitespace
        case other
        case end
    }

    /// The pattern, with the scanner left just after it; nil if the text is not valid An+B.
    mutating func read() -> NthPattern? {
        switch nextToken() {
        case .identifier(let name):
            let lowered = CSSSyntax.asciiLowercased(name)
            if lowered == "odd" { return NthPattern(step: 2, offset: 1) }
            if lowered == "even" { return NthPattern(step: 2, offset: 0) }
            if lowered.hasPrefix("-") { return readAfterN(step: -1, rest: String(lowered.dropFirst())) }
            return readAfterN(step: 1, rest: lowered)
        case .delimiter("+"):
            // `+n…` only when the `n` follows the `+` immediately.
            guard case .identifier(let name) = nextToken() else { return nil }
            let lowered = CSSSyntax.asciiLowercased(name)
            guard !lowered.hasPrefix("-") else { return nil }
            return readAfterN(step: 1, rest: lowered)
        case .number(let value, isInteger: true, hasSign: _):
            return NthPattern(step: 0, offset: value)
        case .dimension(let value, isInteger: true, let unit):
            return readAfterN(step: value, rest: CSSSyntax.asciiLowercased(unit))
        default:
            return nil
        }
    }

    /// `rest` is the text from the `n` on: `n`, `n-`, or `n-<digits>`.
    private mutating func readAfterN(step: Int, rest: String) -> NthPattern? {
        guard rest.first == "n" else { return nil }
        let afterN = rest.dropFirst()
        if afterN.isEmpty { return NthPattern(step: step, offset: readOptionalOffset() ?? 0) }
        guard afterN.first == "-" else { return nil }
        let digits = afterN.dropFirst()
        if digits.isEmpty {
            // `n- 3`: the sign was swallowed into the identifier, the digits follow.
            skipWhitespaceTokens()
            guard case .number(let value, isInteger: true, hasSign: false) = nextToken() else { return nil }
            return NthPattern(step: step, offset: -value)
        }
        guard digits.unicodeScalars.allSatisfy(CSSSyntax.isDigit) else { return nil }
        return NthPattern(step: step, offset: -Self.saturatingValue(of: Substring(digits)))
    }

    /// After `An`: nothing, a signed integer (`+1`, `-1`), or a lone sign then an unsigned integer.
    /// Leaves the scanner untouched when there is no offset, so trailing whitespace stays for the caller.
    private mutating func readOptionalOffset() -> Int? {
        let saved = scanner.index
        skipWhitespaceTokens()
        switch nextToken() {
        case .number(let value, isInteger: true, hasSign: true):
            return value
        case .delimiter(let sign) where sign == "+" || sign == "-":
            skipWhitespaceTokens()
            guard case .number(let value, isInteger: true, hasSign: false) = nextToken() else {
                scanner.index = saved
                return nil
            }
            return sign == "-" ? -value : value
        default:
            scanner.index = saved
            return nil
        }
    }

    private mutating func skipWhitespaceTokens() { scanner.skipWhitespace() }

    // MARK: Tokens

    private mutating func nextToken() -> Token {
        guard let scalar = scanner.current else { return .end }
        if CSSSyntax.isWhitespace(scalar) {
            scanner.skipWhitespace()
            return .whitespace
        }
        if startsNumber() { return readNumeric() }
        if scanner.startsIdentifier { return .identifier(scanner.consumeName()) }
        scanner.index += 1
        if scalar == "(" || scalar == ")" || scalar == "," { return .other }
        return .delimiter(scalar)
    }

    private func startsNumber() -> Bool {
        guard let first = scanner.current else { return false }
        if CSSSyntax.isDigit(first) { return true }
        if first == "+" || first == "-" {
            guard let second = scanner.peek(1) else { return false }
            if CSSSyntax.isDigit(second) { return true }
            return second == "." && scanner.peek(2).map(CSSSyntax.isDigit) == true
        }
        return first == "." && scanner.peek(1).map(CSSSyntax.isDigit) == true
    }

    private mutating func readNumeric() -> Token {
        var hasSign = false
        var negative = false
        if scanner.current == "+" || scanner.current == "-" {
            hasSign = true
            negative = scanner.current == "-"
            scanner.index += 1
        }
        var isInteger = true
        let digitsStart = scanner.index
        while let scalar = scanner.current, CSSSyntax.isDigit(scalar) { scanner.index += 1 }
        let integerDigits = scanner.text(from: digitsStart, to: scanner.index)
        if scanner.current == ".", scanner.peek(1).map(CSSSyntax.isDigit) == true {
            isInteger = false
            scanner.index += 1
            while let scalar = scanner.current, CSSSyntax.isDigit(scalar) { scanner.index += 1 }
        }
        if let e = scanner.current, e == "e" || e == "E" {
            // An exponent only when digits follow (`2e3`); otherwise the `e` starts a unit (`2en`).
            let next = scanner.peek(1)
            let afterSign = scanner.peek(2)
            if next.map(CSSSyntax.isDigit) == true
                || ((next == "+" || next == "-") && afterSign.map(CSSSyntax.isDigit) == true)
            {
                isInteger = false
                scanner.index += next.map(CSSSyntax.isDigit) == true ? 1 : 2
                while let scalar = scanner.current, CSSSyntax.isDigit(scalar) { scanner.index += 1 }
            }
        }
        let magnitude = Self.saturatingValue(of: Substring(integerDigits))
        let value = negative ? -magnitude : magnitude
        if scanner.startsIdentifier {
            return .dimension(value, isInteger: isInteger, unit: scanner.consumeName())
        }
        if scanner.current == "%" {
            scanner.index += 1
            return .other
        }
        return .number(value, isInteger: isInteger, hasSign: hasSign)
    }

    /// Browsers clamp huge An+B values instead of failing; clamping far beyond any sibling count keeps
    /// arithmetic overflow-free.
    private static func saturatingValue(of digits: Substring) -> Int {
        var value = 0
        for scalar in digits.unicodeScalars {
            value = min(value * 10 + Int(scalar.value - 0x30), 1_000_000_000)
        }
        return value
    }
}
