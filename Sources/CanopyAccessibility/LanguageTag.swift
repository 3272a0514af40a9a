/// BCP 47 language tags (RFC 5646), as `lang` and `xml:lang` carry them.
public enum LanguageTag {
    /// Whether `tag` follows the BCP 47 grammar: language (with extended subtags), script, region,
    /// variants, extensions and private use, or one of the grandfathered tags. Case-insensitive.
    /// Well-formed is not valid: subtags are not looked up in the registry.
    public static func isWellFormed(_ tag: String) -> Bool {
        let lowered = tag.lowercased()
        if grandfathered.contains(lowered) { return true }
        let subtags = lowered.split(separator: "-", omittingEmptySubsequences: false)
        guard !subtags.isEmpty, subtags.allSatisfy({ !$0.isEmpty && $0.count <= 8 && $0.allSatisfy(isASCIIAlphanumeric) })
        else { return false }
        var index = 0
        if subtags[0] == "x" { return isPrivateUse(subtags[...]) }

        // language: 2-3 letters with up to three extlangs, or 4-8 letters.
        let language = subtags[0]
        guard language.allSatisfy(isASCIILetter), (2...8).contains(language.count) else { return false }
        index = 1
        if language.count <= 3 {
            var extlangs = 0
            while index < subtags.count, extlangs < 3, subtags[index].count == 3, subtags[index].allSatisfy(isASCIILetter) {
                index += 1
                extlangs += 1
            }
        }
        // script
        if index < subtags.count, subtags[index].count == 4, subtags[index].allSatisfy(isASCIILetter) { index += 1 }
        // region
        if index < subtags.count {
            let subtag = subtags[index]
            if (subtag.count == 2 && subtag.allSatisfy(isASCIILetter)) || (subtag.count == 3 && subtag.allSatisfy(isASCIIDigit)) {
                index += 1
            }
        }
        // variants
        var variants = Set<Substring>()
        while index < subtags.count, isVariant(subtags[index]) {
            guard variants.insert(subtags[index]).inserted else { return false }  // repeated variants are invalid
            index += 1
        }
        // extensions: a singleton (not x) followed by one or more 2-8 character subtags, singletons not repeated.
        var singletons = Set<Substring>()
        while index < subtags.count, subtags[index].count == 1, subtags[index] != "x" {
            guard singletons.insert(subtags[index]).inserted else { return false }
            index += 1
            let start = index
            while index < subtags.count, subtags[index].count >= 2 { index += 1 }
            guard index > start else { return false }
        }
        if index < subtags.count, subtags[index] == "x" { return isPrivateUse(subtags[index...]) }
        return index == subtags.count
    }

    /// The primary language subtag as axe-core reads it: the trimmed value up to the first "-",
    /// lowercased (`"en-US"` → `"en"`, `" FR "` → `"fr"`).
    public static func primarySubtag(of tag: String) -> String {
        let trimmed = tag.trimmingWhitespace().lowercased()
        return String(trimmed.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// Whether the tag's primary subtag is a registered language code, the test axe-core's
    /// html-lang-valid and valid-lang rules apply (`"en-XX"` passes, `"english"` and `"en_US"` fail).
    public static func hasKnownPrimarySubtag(_ tag: String) -> Bool {
        let primary = primarySubtag(of: tag)
        return !primary.isEmpty && PrimaryLanguageSubtags.all.contains(Substring(primary))
    }

    private static func isPrivateUse(_ subtags: ArraySlice<Substring>) -> Bool {
        // "x" then at least one 1-8 character subtag.
        subtags.count >= 2 && subtags.dropFirst().allSatisfy { (1...8).contains($0.count) }
    }

    private static func isVariant(_ subtag: Substring) -> Bool {
        if (5...8).contains(subtag.count) { return true }
        return subtag.count == 4 && subtag.first.map(isASCIIDigit) == true
    }

    private static func isASCIILetter(_ character: Character) -> Bool { character.isASCII && character.isLetter }
    private static func isASCIIDigit(_ character: Character) -> Bool { character.isASCII && character.isNumber }
    private static func isASCIIAlphanumeric(_ character: Character) -> Bool {
        isASCIILetter(character) || isASCIIDigit(character)
    }

    /// Tags registered before RFC 4646 that do not follow the grammar (RFC 5646 section 2.1).
    private static let grandfathered: Set<String> = [
        "en-gb-oed", "i-ami", "i-bnn", "i-default", "i-enochian", "i-hak", "i-klingon", "i-lux", "i-mingo",
        "i-navajo", "i-pwn", "i-tao", "i-tay", "i-tsu", "sgn-be-fr", "sgn-be-nl", "sgn-ch-de", "art-lojban",
        "cel-gaulish", "no-bok", "no-nyn", "zh-guoyu", "zh-hakka", "zh-min", "zh-min-nan", "zh-xiang",
    ]
}
