/// One selector of a style rule's selector list, as the cascade needs it: whether it matches an
/// element, how specific it is, which part of the element it styles, and a key to file it under so
/// that an element is tested only against rules that can match it.
public struct StyleSelector: Sendable {
    let complex: ComplexSelector
    public let specificity: Specificity
    /// Lowercased name of the pseudo-element it styles (`before`, `after`, `placeholder`...), nil
    /// when it styles the element itself.
    public let pseudoElement: String?
    /// The most selective simple selector of the subject compound.
    public let bucket: Bucket
    /// What the subject's ancestors must show for the selector to match (see `AncestorFilter`).
    public let ancestorRequirements: AncestorFilter
    /// Whether matching reads siblings, children or position, not only the element and its
    /// ancestors (see `SelectorInputs`).
    public let readsSurroundings: Bool

    public enum Bucket: Sendable, Hashable {
        case id(String)
        case className(String)
        /// Lowercased: HTML element names are stored lowercase.
        case localName(String)
        case everyElement
    }

    /// Parses a style rule's prelude. A selector CSS allows that Canopy cannot match makes the
    /// whole list invalid, as an unknown selector does in a browser: the rule is dropped.
    public static func parseList(_ text: String) throws(SelectorParseError) -> [StyleSelector] {
        var parser = SelectorParser(text, dialect: .stylesheet)
        return try parser.parseSelectorList().map(StyleSelector.init)
    }

    init(_ complex: ComplexSelector) {
        self.complex = complex
        self.specificity = Specificity(of: complex)
        self.pseudoElement = complex.pseudoElement
        self.bucket = Self.bucket(of: complex.compounds.first)
        self.ancestorRequirements = AncestorFilter.requirements(of: complex)
        self.readsSurroundings = Self.readsSurroundings(complex)
    }

    public func matches(_ element: Element) -> Bool {
        SelectorMatcher.matches(complex, element, anchor: nil)
    }

    private static func bucket(of subject: CompoundSelector?) -> Bucket {
        guard let subject else { return .everyElement }
        for condition in subject.conditions { if case .id(let id) = condition { return .id(id) } }
        for condition in subject.conditions { if case .className(let name) = condition { return .className(name) } }
        // Foreign elements keep their case, so only a lowercase name is a safe key.
        if let type = subject.typeName, type.asWritten == type.lowercased { return .localName(type.lowercased) }
        return .everyElement
    }
}

/// Selectors Level 4 specificity (ids, classes, types), packed so that comparing two is one
/// integer compare. Each part saturates at 1023, far beyond real selectors.
public struct Specificity: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let packed: UInt32

    public init(ids: Int, classes: Int, types: Int) {
        let clamp = { (value: Int) in UInt32(min(max(value, 0), 1023)) }
        packed = clamp(ids) << 20 | clamp(classes) << 10 | clamp(types)
    }

    public var ids: Int { Int(packed >> 20) }
    public var classes: Int { Int(packed >> 10 & 1023) }
    public var types: Int { Int(packed & 1023) }
    public static let zero = Specificity(ids: 0, classes: 0, types: 0)

    public static func < (lhs: Specificity, rhs: Specificity) -> Bool { lhs.packed < rhs.packed }
    public var description: String { "(\(ids),\(classes),\(types))" }

    static func + (lhs: Specificity, rhs: Specificity) -> Specificity {
        Specificity(ids: lhs.ids + rhs.ids, classes: lhs.classes + rhs.classes, types: lhs.types + rhs.types)
    }

    init(of complex: ComplexSelector) {
        var total = Specificity.zero
        for compound in complex.compounds {
            if compound.typeName != nil { total = total + Specificity(ids: 0, classes: 0, types: 1) }
            for condition in compound.conditions { total = total + Specificity(of: condition) }
        }
        if complex.pseudoElement != nil { total = total + Specificity(ids: 0, classes: 0, types: 1) }
        self = total
    }

    private init(of condition: SimpleCondition) {
        switch condition {
        case .id: self.init(ids: 1, classes: 0, types: 0)
        case .className, .attribute: self.init(ids: 0, classes: 1, types: 0)
        case .pseudoClass(let pseudo):
            switch pseudo {
            // These take the specificity of their most specific argument.
            case .not(let list), .isAny(let list): self = Self.largest(of: list)
            case .has(let relatives): self = Self.largest(of: relatives.map(\.complex))
            case .whereAny: self = .zero
            case .nthChild(_, let filter?), .nthLastChild(_, let filter?):
                self = Specificity(ids: 0, classes: 1, types: 0) + Self.largest(of: filter)
            default: self.init(ids: 0, classes: 1, types: 0)
            }
        }
    }

    private static func largest(of list: [ComplexSelector]) -> Specificity {
        list.map(Specificity.init(of:)).max() ?? .zero
    }
}
