#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Right-to-left selector matching over the flat DOM.
///
/// Starting from the subject and walking up (or left) means most elements are rejected by their
/// own rightmost compound in a string compare or two, which is what makes running an exclude list
/// against every element of a large page cheap.
enum SelectorMatcher {
    static func matches(_ selectors: [ComplexSelector], _ element: Element) -> Bool {
        for selector in selectors where matches(selector, element, anchor: nil) { return true }
        return false
    }

    /// `anchor` is the element a `:has()` argument is relative to (nil outside `:has()`).
    static func matches(_ selector: ComplexSelector, _ element: Element, anchor: Element?) -> Bool {
        match(selector, compoundIndex: 0, element, anchor: anchor) == .matched
    }

    // MARK: Complex selectors

    /// Outcomes that let a failed attempt skip candidates that cannot succeed either (the classic
    /// optimisation from WebKit and Servo): without it, `a b c d` on a deep tree backtracks
    /// exponentially.
    private enum Outcome {
        case matched
        /// Try the next candidate of the nearest sibling combinator to the right.
        case restartFromClosestLaterSibling
        /// Try the next candidate of the nearest descendant combinator to the right.
        case restartFromClosestDescendant
        /// No candidate anywhere can match.
        case notMatchedGlobally
    }

    private static func match(_ selector: ComplexSelector, compoundIndex: Int, _ element: Element, anchor: Element?) -> Outcome {
        // The compound read in place in the array's storage: read by subscript, it was copied (its
        // type name and conditions retained) and destroyed for every element tried.
        let matched = selector.compounds.withUnsafeBufferPointer { matchesCompound(at: $0.baseAddress! + compoundIndex, element, anchor: anchor) }
        guard matched else {
            return .restartFromClosestLaterSibling
        }
        guard compoundIndex < selector.combinators.count else { return .matched }
        let combinator = selector.combinators[compoundIndex]
        let nextIndex = compoundIndex + 1
        var candidate: Element? = element
        // What running out of candidates means depends on the direction we were walking.
        let exhausted: Outcome
        switch combinator {
        case .child, .descendant: exhausted = .notMatchedGlobally
        case .nextSibling, .subsequentSibling: exhausted = .restartFromClosestDescendant
        }
        while true {
            switch combinator {
            case .child, .descendant: candidate = candidate?.parent
            case .nextSibling, .subsequentSibling: candidate = candidate?.previousElementSibling
            }
            guard let current = candidate else { return exhausted }
            let outcome = match(selector, compoundIndex: nextIndex, current, anchor: anchor)
            switch (outcome, combinator) {
            case (.matched, _), (.notMatchedGlobally, _), (_, .nextSibling):
                return outcome
            case (_, .child):
                return .restartFromClosestDescendant
            case (.restartFromClosestDescendant, .subsequentSibling):
                return outcome
            default:
                continue
            }
        }
    }

    // MARK: Compound selectors

    static func matchesCompound(_ compound: CompoundSelector, _ element: Element, anchor: Element?) -> Bool {
        withUnsafePointer(to: compound) { matchesCompound(at: $0, element, anchor: anchor) }
    }

    /// The compound at `compound`, its parts read in place.
    private static func matchesCompound(at compound: UnsafePointer<CompoundSelector>, _ element: Element, anchor: Element?) -> Bool {
        if compound.pointee.isRelativeAnchor { return element == anchor }
        // The keys alone (plain words) rather than the type name, whose two strings a binding
        // copied, retained and released for every element tried.
        if let keys = compound.pointee.typeName?.keys {
            let storage = element.document.storage
            let isHTML = storage.nodes[element.node].namespace == .html
            let key = isHTML ? keys.html : keys.foreign
            guard storage.nameKeys[element.node] == key else { return false }
            if key >> 56 > 7, !matchesType(compound.pointee.typeName!, element) { return false }
        }
        // Conditions read by index in the array's storage, which copies less than iterating did.
        return compound.pointee.conditions.withUnsafeBufferPointer { conditions in
            for index in conditions.indices where !matchesCondition(conditions[index], element) { return false }
            return true
        }
    }

    static func matchesType(_ typeName: TypeName, _ element: Element) -> Bool {
        // HTML elements are stored lowercase; foreign ones (SVG's `foreignObject`) keep their case.
        sameCodePoints(element.localName, element.isHTML ? typeName.lowercased : typeName.asWritten)
    }

    /// CSS compares code points; Swift's `==` would also equate canonically equivalent strings.
    static func sameCodePoints(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && a.utf8.elementsEqual(b.utf8)
    }

    /// Ids, classes and attribute values are compared on the page's bytes: a string made of
    /// each value read was most of what matching a rule's candidates cost.
    private static func matchesCondition(_ condition: SimpleCondition, _ element: Element) -> Bool {
        let storage = element.document.storage
        switch condition {
        case .id(let id):
            guard let index = storage.attributeIndex(node: element.node, name: .id) else { return false }
            return withUTF8(of: id) { wanted in storage.attributeBytes(at: index).withUnsafeBufferPointer { sameBytes($0, wanted) } }
        case .className(let name):
            guard let index = storage.attributeIndex(node: element.node, name: .class) else { return false }
            return withUTF8(of: name) { wanted in storage.attributeBytes(at: index).withUnsafeBufferPointer { containsWord($0, wanted) } }
        case .attribute(let attribute):
            return matchesAttribute(attribute, element)
        case .pseudoClass(let pseudoClass):
            return matchesPseudoClass(pseudoClass, element)
        }
    }

    /// The text's own UTF-8 where it is contiguous (native strings), else a copy's: a copy to call
    /// `withUTF8` on is a retain and a release for every element tried.
    @inline(__always)
    private static func withUTF8<Result>(of text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        var copy = text
        return copy.withUTF8(body)
    }

    private static func sameBytes(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        left.count == right.count && (left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0)
    }

    // MARK: Attributes

    private static func matchesAttribute(_ condition: AttributeCondition, _ element: Element) -> Bool {
        let storage = element.document.storage
        let isHTML = storage.nodes[element.node].namespace == .html
        let name = isHTML ? condition.name.lowercased : condition.name.asWritten
        let key = isHTML ? condition.name.keys.html : condition.name.keys.foreign
        guard let index = storage.attributeIndex(node: element.node, name: name, key: key) else { return false }
        return attributeBytes(storage.attributeBytes(at: index), match: condition.test, onHTMLElement: isHTML)
    }

    /// Whether the UTF-8 bytes of a value, as a page keeps them, satisfy `condition`: CSS compares
    /// code points, which for valid UTF-8 is comparing bytes, and folds ASCII letters only.
    static func attributeBytes(_ actual: ArraySlice<UInt8>, match condition: AttributeValueTest, onHTMLElement isHTML: Bool) -> Bool {
        guard let operation = condition.operation else { return true }
        let ignoresCase = condition.ignoresCase(onHTMLElement: isHTML)
        // Over raw buffers, with `memcmp` where case counts: the cascade tests every element's
        // class and every link's href this way (`[class$="-summary"]`, `[href*="://"]`), and
        // the bounds-checked slices took 380 instructions a test. The wanted bytes are read in
        // place: a local copy of the array retained and released it for each test (perf).
        return actual.withUnsafeBufferPointer { actual in
            func test(_ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
                /// Whether `wanted` occurs in `actual` at `start` (which leaves room for it).
                func occurs(at start: Int) -> Bool {
                    guard ignoresCase else {
                        return wanted.isEmpty || memcmp(actual.baseAddress! + start, wanted.baseAddress!, wanted.count) == 0
                    }
                    for offset in 0..<wanted.count where actual[start + offset].asciiLowercased != wanted[offset] { return false }
                    return true
                }
                switch operation {
                case .equals:
                    return actual.count == wanted.count && occurs(at: 0)
                case .includesWord:
                    // A "word" with whitespace in it, or an empty one, can never be in the list.
                    guard !wanted.isEmpty, !wanted.contains(where: isASCIIWhitespace) else { return false }
                    return containsWord(in: actual) { start, count in count == wanted.count && occurs(at: start) }
                case .dashPrefix:
                    guard actual.count >= wanted.count, occurs(at: 0) else { return false }
                    return actual.count == wanted.count || actual[wanted.count] == UInt8(ascii: "-")
                case .prefix:
                    return !wanted.isEmpty && actual.count >= wanted.count && occurs(at: 0)
                case .suffix:
                    return !wanted.isEmpty && actual.count >= wanted.count && occurs(at: actual.count - wanted.count)
                case .substring:
                    guard !wanted.isEmpty, actual.count >= wanted.count else { return false }
                    let first = wanted[0]
                    for start in 0...(actual.count - wanted.count) {
                        let byte = ignoresCase ? actual[start].asciiLowercased : actual[start]
                        if byte == first, occurs(at: start) { return true }
                    }
                    return false
                }
            }
            return ignoresCase
                ? condition.valueLowercasedBytes.withUnsafeBufferPointer(test) : condition.valueBytes.withUnsafeBufferPointer(test)
        }
    }

    /// The former string comparison, kept to hold the byte version to it in tests.
    static func attributeValueByCharacters(_ value: String, matches condition: AttributeCondition, onHTMLElement isHTML: Bool) -> Bool {
        guard let operation = condition.operation else { return true }
        let ignoresCase = condition.test.ignoresCase(onHTMLElement: isHTML)
        let wanted = ignoresCase ? condition.valueLowercased : condition.value
        let actual = ignoresCase ? CSSSyntax.asciiLowercased(value) : value
        switch operation {
        case .equals:
            return sameCodePoints(actual, wanted)
        case .includesWord:
            // A "word" with whitespace in it, or an empty one, can never be in the list.
            guard !wanted.isEmpty, !wanted.utf8.contains(where: isASCIIWhitespace) else { return false }
            return containsWord(actual, wanted)
        case .dashPrefix:
            guard actual.utf8.starts(with: wanted.utf8) else { return false }
            let rest = actual.utf8.dropFirst(wanted.utf8.count)
            return rest.isEmpty || rest.first == UInt8(ascii: "-")
        case .prefix:
            return !wanted.isEmpty && actual.utf8.starts(with: wanted.utf8)
        case .suffix:
            return !wanted.isEmpty && actual.utf8.reversed().starts(with: wanted.utf8.reversed())
        case .substring:
            return !wanted.isEmpty && containsSubstring(actual, wanted)
        }
    }

    /// Calls `body` with each run of bytes between ASCII whitespace, as `classList` splits a
    /// value, while `body` returns true.
    static func forEachWord(in bytes: ArraySlice<UInt8>, _ body: (ArraySlice<UInt8>) -> Bool) {
        var wordStart = bytes.startIndex
        for cursor in bytes.indices where isASCIIWhitespace(bytes[cursor]) {
            if wordStart != cursor, !body(bytes[wordStart..<cursor]) { return }
            wordStart = cursor + 1
        }
        if wordStart != bytes.endIndex { _ = body(bytes[wordStart..<bytes.endIndex]) }
    }

    static func isASCIIWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    /// Whether `list`, split on ASCII whitespace, contains `word` (as `classList.contains` does).
    /// Works on UTF-8 bytes without splitting, because this runs for every element on class selectors.
    static func containsWord(_ list: String, _ word: String) -> Bool {
        var list = list
        var word = word
        return list.withUTF8 { listBytes in word.withUTF8 { containsWord(listBytes, $0) } }
    }

    static func containsWord(_ listBytes: UnsafeBufferPointer<UInt8>, _ wordBytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !wordBytes.isEmpty else { return false }
        return containsWord(in: listBytes) { start, count in
            count == wordBytes.count && memcmp(listBytes.baseAddress! + start, wordBytes.baseAddress!, count) == 0
        }
    }

    /// Whether some word of `list` (a run between ASCII whitespace, given by its start and
    /// length) satisfies `isWanted`.
    @inline(__always)
    private static func containsWord(in list: UnsafeBufferPointer<UInt8>, where isWanted: (_ start: Int, _ count: Int) -> Bool) -> Bool {
        var start = 0
        while start < list.count {
            while start < list.count, isASCIIWhitespace(list[start]) { start += 1 }
            var end = start
            while end < list.count, !isASCIIWhitespace(list[end]) { end += 1 }
            if end > start, isWanted(start, end - start) { return true }
            start = end
        }
        return false
    }

    private static func containsSubstring(_ text: String, _ part: String) -> Bool {
        let haystack = Array(text.utf8)
        let needle = Array(part.utf8)
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }

    // MARK: Pseudo-classes

    private static func matchesPseudoClass(_ pseudoClass: PseudoClass, _ element: Element) -> Bool {
        switch pseudoClass {
        case .not(let list):
            return !matches(list, element)
        case .isAny(let list), .whereAny(let list):
            return matches(list, element)
        case .never:
            return false
        case .has(let relatives):
            return relatives.contains { matchesRelative($0, anchor: element) }
        case .firstChild:
            return element.previousElementSibling == nil
        case .lastChild:
            return element.nextElementSibling == nil
        case .onlyChild:
            return element.previousElementSibling == nil && element.nextElementSibling == nil
        case .firstOfType:
            return !hasSiblingOfSameType(element, forward: false)
        case .lastOfType:
            return !hasSiblingOfSameType(element, forward: true)
        case .onlyOfType:
            return !hasSiblingOfSameType(element, forward: false) && !hasSiblingOfSameType(element, forward: true)
        case .nthChild(let pattern, let filter):
            return matchesNth(pattern, element, fromEnd: false, filter: filter)
        case .nthLastChild(let pattern, let filter):
            return matchesNth(pattern, element, fromEnd: true, filter: filter)
        case .nthOfType(let pattern):
            return pattern.matches(index: sameTypeIndex(element, fromEnd: false, limit: pattern.largestMatchingIndex))
        case .nthLastOfType(let pattern):
            return pattern.matches(index: sameTypeIndex(element, fromEnd: true, limit: pattern.largestMatchingIndex))
        case .empty:
            return element.hasNoContent
        case .root:
            return element.parent == nil
        case .checked:
            return element.isCheckedForSelectors
        case .disabled:
            return element.isDisabledForSelectors
        case .enabled:
            return element.canBeDisabled && !element.isDisabledForSelectors
        case .link:
            return element.isLinkForSelectors
        }
    }

    private static func isSameType(_ a: Element, _ b: Element) -> Bool {
        a.namespace == b.namespace && a.localName == b.localName
    }

    private static func hasSiblingOfSameType(_ element: Element, forward: Bool) -> Bool {
        var sibling = forward ? element.nextElementSibling : element.previousElementSibling
        while let current = sibling {
            if isSameType(current, element) { return true }
            sibling = forward ? current.nextElementSibling : current.previousElementSibling
        }
        return false
    }

    /// 1-based index among siblings of the same type, counted from the start or the end; counting
    /// stops past `limit`, where the exact value no longer matters.
    private static func sameTypeIndex(_ element: Element, fromEnd: Bool, limit: Int = .max) -> Int {
        var index = 1
        var sibling = fromEnd ? element.nextElementSibling : element.previousElementSibling
        while let current = sibling, index <= limit {
            if isSameType(current, element) { index += 1 }
            sibling = fromEnd ? current.nextElementSibling : current.previousElementSibling
        }
        return index
    }

    private static func matchesNth(_ pattern: NthPattern, _ element: Element, fromEnd: Bool, filter: [ComplexSelector]?) -> Bool {
        // With `of S`, the element itself must match S and only siblings matching S are counted.
        if let filter, !matches(filter, element) { return false }
        let largestMatch = pattern.largestMatchingIndex
        var index = 1
        var sibling = fromEnd ? element.nextElementSibling : element.previousElementSibling
        while let current = sibling {
            if filter.map({ matches($0, current) }) ?? true {
                index += 1
                // `:nth-child(2)` need not count the 5,000 rows before row 5,001.
                if index > largestMatch { return false }
            }
            sibling = fromEnd ? current.nextElementSibling : current.previousElementSibling
        }
        return pattern.matches(index: index)
    }

    // MARK: :has()

    private static func matchesRelative(_ relative: RelativeSelector, anchor: Element) -> Bool {
        let selector = relative.complex
        switch relative.scope {
        case .children:
            var child = anchor.firstElementChild
            while let current = child {
                if matches(selector, current, anchor: anchor) { return true }
                child = current.nextElementSibling
            }
            return false
        case .descendants:
            return anchor.descendants.contains { matches(selector, $0, anchor: anchor) }
        case .followingSiblings:
            var sibling = anchor.nextElementSibling
            while let current = sibling {
                if matches(selector, current, anchor: anchor) { return true }
                sibling = current.nextElementSibling
            }
            return false
        case .followingSiblingsAndTheirDescendants:
            var sibling = anchor.nextElementSibling
            while let current = sibling {
                if matches(selector, current, anchor: anchor) { return true }
                if current.descendants.contains(where: { matches(selector, $0, anchor: anchor) }) { return true }
                sibling = current.nextElementSibling
            }
            return false
        }
    }
}
