/// The parsed form of selectors, laid out for right-to-left matching.

/// A chain of compound selectors joined by combinators, e.g. `nav > ul a`.
struct ComplexSelector: Sendable, Hashable {
    /// Compounds from the subject (rightmost) to the leftmost.
    var compounds: [CompoundSelector]
    /// `combinators[i]` joins `compounds[i]` to `compounds[i + 1]` (the one on its left).
    var combinators: [Combinator]
    /// `before` for `p::before` (stylesheet dialect only): the rule styles that part, not the element.
    var pseudoElement: String? = nil
}

/// Which selectors the parser accepts.
enum SelectorDialect: Sendable {
    /// Exclude lists, rule selectors, queries: anything that cannot be decided statically is an error.
    case query
    /// Style rules: pseudo-elements are kept aside and dynamic pseudo-classes match nothing, as
    /// they do on a page nobody touches.
    case stylesheet
}

enum Combinator: Sendable, Hashable {
    /// Whitespace: any ancestor.
    case descendant
    /// `>`: the parent.
    case child
    /// `+`: the previous element sibling.
    case nextSibling
    /// `~`: any previous element sibling.
    case subsequentSibling

    var symbol: String {
        switch self {
        case .descendant: return " "
        case .child: return ">"
        case .nextSibling: return "+"
        case .subsequentSibling: return "~"
        }
    }
}

/// A type selector's name, kept in both spellings: HTML elements compare lowercase, others as written.
struct TypeName: Sendable, Hashable {
    let asWritten: String
    let lowercased: String
    /// The names' `NameKey`s, which the matcher compares with the element's before any string.
    let keys: Keys

    struct Keys: Sendable, Hashable {
        let html: UInt64
        let foreign: UInt64
    }

    init(_ name: String) {
        asWritten = name
        lowercased = CSSSyntax.asciiLowercased(name)
        keys = Keys(html: NameKey.of(lowercased), foreign: NameKey.of(name))
    }
}

/// Simple selectors that all have to match one element, e.g. `a.external[href]:not(.x)`.
struct CompoundSelector: Sendable, Hashable {
    /// nil for `*` or when the compound has no type selector.
    var typeName: TypeName?
    /// Conditions in matching order: cheap checks first.
    var conditions: [SimpleCondition]
    /// The implicit leftmost compound of a `:has()` argument, which matches only the `:has()` element.
    var isRelativeAnchor = false
}

enum SimpleCondition: Sendable, Hashable {
    case id(String)
    case className(String)
    case attribute(AttributeCondition)
    case pseudoClass(PseudoClass)

    /// Lower runs earlier: string compares before attribute scans before tree walks.
    var cost: Int {
        switch self {
        case .id, .className: return 0
        case .attribute: return 1
        case .pseudoClass(let pseudo): return pseudo.cost
        }
    }
}

enum AttributeOperator: Sendable, Hashable {
    /// `=`
    case equals
    /// `~=`: one of the whitespace-separated words.
    case includesWord
    /// `|=`: equal, or starting with the value followed by `-`.
    case dashPrefix
    /// `^=`
    case prefix
    /// `$=`
    case suffix
    /// `*=`
    case substring

    var symbol: String {
        switch self {
        case .equals: return "="
        case .includesWord: return "~="
        case .dashPrefix: return "|="
        case .prefix: return "^="
        case .suffix: return "$="
        case .substring: return "*="
        }
    }
}

enum AttributeCaseFlag: Sendable, Hashable {
    /// No flag: the document language decides (HTML's list of case-insensitive attributes).
    case documentDefault
    /// ` i`
    case insensitive
    /// ` s`
    case sensitive
}

struct AttributeCondition: Sendable, Hashable {
    let name: TypeName
    let value: String
    let valueLowercased: String
    /// How a value is compared, in one object: the cascade tests conditions against every
    /// attribute they name on every element, and a copy of the condition retained its strings.
    let test: AttributeValueTest

    /// nil for a presence test `[name]`.
    var operation: AttributeOperator? { test.operation }

    init(name: String, operation: AttributeOperator?, value: String, caseFlag: AttributeCaseFlag) {
        self.name = TypeName(name)
        self.value = value
        self.valueLowercased = CSSSyntax.asciiLowercased(value)
        self.test = AttributeValueTest(
            operation: operation, caseFlag: caseFlag,
            isHTMLCaseInsensitiveName: HTMLSelectorCaseRules.caseInsensitiveAttributeNames.contains(self.name.lowercased),
            valueBytes: Array(value.utf8), valueLowercasedBytes: Array(valueLowercased.utf8)
        )
    }
}

/// An attribute condition's comparison of a value, on UTF-8 bytes (`SelectorMatcher.attributeBytes`).
final class AttributeValueTest: Sendable, Hashable {
    let operation: AttributeOperator?
    let caseFlag: AttributeCaseFlag
    /// Whether HTML elements compare this attribute's value case-insensitively when there is no flag.
    let isHTMLCaseInsensitiveName: Bool
    let valueBytes: [UInt8]
    let valueLowercasedBytes: [UInt8]

    init(operation: AttributeOperator?, caseFlag: AttributeCaseFlag, isHTMLCaseInsensitiveName: Bool, valueBytes: [UInt8], valueLowercasedBytes: [UInt8]) {
        self.operation = operation
        self.caseFlag = caseFlag
        self.isHTMLCaseInsensitiveName = isHTMLCaseInsensitiveName
        self.valueBytes = valueBytes
        self.valueLowercasedBytes = valueLowercasedBytes
    }

    /// Whether values are compared with ASCII letters folded: the `i` flag, or HTML's list of
    /// case-insensitive attributes on HTML elements when there is no flag.
    func ignoresCase(onHTMLElement isHTML: Bool) -> Bool {
        switch caseFlag {
        case .insensitive: true
        case .sensitive: false
        case .documentDefault: isHTML && isHTMLCaseInsensitiveName
        }
    }

    static func == (lhs: AttributeValueTest, rhs: AttributeValueTest) -> Bool {
        lhs.operation == rhs.operation && lhs.caseFlag == rhs.caseFlag && lhs.isHTMLCaseInsensitiveName == rhs.isHTMLCaseInsensitiveName
            && lhs.valueBytes == rhs.valueBytes
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(operation)
        hasher.combine(caseFlag)
        hasher.combine(valueBytes)
    }
}

/// An `An+B` pattern: matches 1-based indices `i` for which `i = A*n + B` with some integer `n >= 0`.
struct NthPattern: Sendable, Hashable {
    let step: Int
    let offset: Int

    /// No index above this can match (`Int.max` when the pattern is unbounded, A > 0).
    var largestMatchingIndex: Int { step > 0 ? .max : max(offset, 0) }

    func matches(index: Int) -> Bool {
        if step == 0 { return index == offset }
        let distance = index - offset
        // n = distance / step must be a whole number and not negative.
        return distance % step == 0 && distance / step >= 0
    }
}

/// An argument of `:has()`: a complex selector whose leftmost compound is the `:has()` element.
struct RelativeSelector: Sendable, Hashable {
    /// Ends (leftmost) with a compound where `isRelativeAnchor` is set.
    let complex: ComplexSelector
    /// Where candidates for the rightmost compound can be, relative to the anchor.
    let scope: Scope

    enum Scope: Sendable, Hashable {
        case children
        case descendants
        case followingSiblings
        case followingSiblingsAndTheirDescendants
    }
}

enum PseudoClass: Sendable, Hashable {
    case not([ComplexSelector])
    case isAny([ComplexSelector])
    /// Matches as `:is()` does, with no specificity.
    case whereAny([ComplexSelector])
    /// A dynamic pseudo-class in a stylesheet (`:hover`): false on a page at rest.
    case never
    case has([RelativeSelector])
    case firstChild, lastChild, onlyChild
    case firstOfType, lastOfType, onlyOfType
    case nthChild(NthPattern, of: [ComplexSelector]?)
    case nthLastChild(NthPattern, of: [ComplexSelector]?)
    case nthOfType(NthPattern)
    case nthLastOfType(NthPattern)
    case empty, root
    case checked, disabled, enabled
    case link

    var cost: Int {
        switch self {
        case .never: return 0
        case .root, .empty, .link, .checked, .firstChild, .lastChild, .onlyChild: return 2
        case .disabled, .enabled, .firstOfType, .lastOfType, .onlyOfType: return 3
        case .nthChild, .nthLastChild, .nthOfType, .nthLastOfType: return 3
        case .not, .isAny, .whereAny: return 4
        case .has: return 5
        }
    }
}
