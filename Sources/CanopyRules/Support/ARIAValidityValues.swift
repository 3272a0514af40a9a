import CanopyAccessibility
import CanopyHTML

/// How an ARIA attribute's value holds up, read the way axe-core reads value types: stricter than
/// `ARIAAttribute.accepts` (no trimming for tokens and booleans, and id references must resolve).
enum ARIAValueVerdict: Equatable {
    case valid
    case invalid
    /// The value is empty and the attribute does not allow it: a person should look.
    case empty
}

extension ARIAValidity {
    static func verdict(for attribute: ARIAAttribute, value: String, in document: Document) -> ARIAValueVerdict {
        if attribute.allowsEmpty && value.ariaTrimmed.isEmpty { return .valid }
        let isValid: Bool
        switch attribute.valueType {
        case .boolean:
            isValid = value.lowercased() == "true" || value.lowercased() == "false"
        case .token:
            isValid = attribute.allowedValues.contains(value.lowercased())
        case .tokenList:
            let tokens = value.split(whereSeparator: \.isHTMLWhitespace).map { String($0) }
            isValid = !tokens.isEmpty && tokens.allSatisfy { attribute.allowedValues.contains($0) }
        case .idReference:
            isValid = !value.isEmpty && document.element(withID: value) != nil
        case .idReferenceList:
            isValid = value.split(whereSeparator: \.isHTMLWhitespace).contains {
                document.element(withID: String($0)) != nil
            }
        case .string:
            isValid = !value.ariaTrimmed.isEmpty
        case .number:
            isValid = isDecimal(value)
        case .integer:
            isValid = isInteger(value) && (Int(value.drop { $0 == "+" }).map { $0 >= (attribute.minimumValue ?? Int.min) } ?? false)
        }
        if isValid { return .valid }
        return value.isEmpty && attribute.valueType != .string ? .empty : .invalid
    }

    /// An optional sign, digits, and at most one decimal point with digits on at least one side.
    static func isDecimal(_ value: String) -> Bool {
        var body = Substring(value)
        if body.first == "+" || body.first == "-" { body = body.dropFirst() }
        let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }) else { return false }
        if parts.count == 2 && parts[1].contains(".") { return false }
        return parts.contains { !$0.isEmpty }
    }

    static func isInteger(_ value: String) -> Bool {
        var body = Substring(value)
        if body.first == "+" || body.first == "-" { body = body.dropFirst() }
        return !body.isEmpty && body.allSatisfy(\.isASCIIDigit)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
