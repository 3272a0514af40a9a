/// The grammar of the HTML `autocomplete` attribute, as axe-core checks it: an optional
/// `section-*` token, an optional `shipping`/`billing`, an optional contact qualifier (`home`,
/// `work`, ...) that only telephone, email and impp fields take, exactly one field name, and
/// an optional trailing `webauthn`.
enum AutocompleteGrammar {
    enum Verdict: Equatable {
        case valid
        case invalid
        /// Values browsers ignore but that are common and harmless (e.g. `text`, `gender`).
        case ignoredButSafe
    }

    /// `on`/`off` and the look-alikes authors write for them; browsers treat these as "no hint".
    static let stateTerms: Set<String> = [
        "on", "off", "none", "false", "true", "disabled", "enabled", "undefined", "null", "xon", "xoff",
    ]
    static let standaloneFieldNames: Set<String> = [
        "name", "honorific-prefix", "given-name", "additional-name", "family-name", "honorific-suffix",
        "nickname", "username", "new-password", "current-password", "organization-title", "organization",
        "street-address", "address-line1", "address-line2", "address-line3", "address-level4",
        "address-level3", "address-level2", "address-level1", "country", "country-name", "postal-code",
        "cc-name", "cc-given-name", "cc-additional-name", "cc-family-name", "cc-number", "cc-exp",
        "cc-exp-month", "cc-exp-year", "cc-csc", "cc-type", "transaction-currency", "transaction-amount",
        "language", "bday", "bday-day", "bday-month", "bday-year", "sex", "url", "photo", "one-time-code",
    ]
    static let contactQualifiers: Set<String> = ["home", "work", "mobile", "fax", "pager"]
    /// Field names that may follow a contact qualifier.
    static let contactFieldNames: Set<String> = [
        "tel", "tel-country-code", "tel-national", "tel-area-code", "tel-local", "tel-local-prefix",
        "tel-local-suffix", "tel-extension", "email", "impp",
    ]
    static let addressTypes: Set<String> = ["billing", "shipping"]
    static let ignoredButSafeValues: Set<String> = ["text", "pronouns", "gender", "message", "content"]

    static func verdict(for value: String) -> Verdict {
        let lowered = value.lowercased()
        var tokens = lowered.split(whereSeparator: Self.isHTMLWhitespace).map(String.init)
        if tokens.isEmpty { return .valid }
        if tokens.count == 1, stateTerms.contains(tokens[0]) { return .valid }
        if tokens.last == "webauthn" {
            tokens.removeLast()
            if tokens.isEmpty { return .invalid }
        }
        if let first = tokens.first, first.count > 8, first.hasPrefix("section-") { tokens.removeFirst() }
        if let first = tokens.first, addressTypes.contains(first) { tokens.removeFirst() }
        var allowedFieldNames = standaloneFieldNames.union(contactFieldNames)
        if let first = tokens.first, contactQualifiers.contains(first) {
            tokens.removeFirst()
            allowedFieldNames = contactFieldNames
        }
        guard tokens.count == 1, let fieldName = tokens.first else { return .invalid }
        if ignoredButSafeValues.contains(fieldName) { return .ignoredButSafe }
        return allowedFieldNames.contains(fieldName) ? .valid : .invalid
    }

    private static func isHTMLWhitespace(_ character: Character) -> Bool {
        character == " " || character == "\t" || character == "\n" || character == "\r" || character == "\u{0C}"
    }
}
