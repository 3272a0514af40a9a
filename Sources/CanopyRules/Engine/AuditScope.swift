import CanopyHTML

/// Which part of a page is audited, as axe-core's `context`: the included subtrees (the whole
/// document when none is given) minus every excluded element and its subtree. Where include and
/// exclude nest, the innermost one decides, so an include inside an exclude is audited again.
public struct AuditScope: Sendable {
    public let include: [SelectorList]
    public let exclude: [SelectorList]

    public static let wholeDocument = AuditScope(include: [], exclude: [])

    public init(include: [SelectorList] = [], exclude: [SelectorList] = []) {
        self.include = include
        self.exclude = exclude
    }

    /// For each element position of `document`, whether it is in scope.
    public func membership(in document: Document) -> [Bool] {
        var inScope = [Bool](repeating: include.isEmpty, count: document.elementCount)
        if include.isEmpty && exclude.isEmpty { return inScope }
        for element in document.elements {
            // Parents come before children in document order, so the inherited state is ready.
            let inherited = element.parent.map { inScope[$0.position] } ?? include.isEmpty
            if exclude.contains(where: { $0.matches(element) }) {
                inScope[element.position] = false
            } else if include.contains(where: { $0.matches(element) }) {
                inScope[element.position] = true
            } else {
                inScope[element.position] = inherited
            }
        }
        return inScope
    }
}
