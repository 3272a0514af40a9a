import CanopyStore
import CanopyHTML

/// Computes `FindingIdentity`s and component candidates for one parsed page.
///
/// The scheme (docs/fingerprints.md tells it at length):
/// - an element's *own descriptor* is its tag, its identifying attributes (a stable `id`, `name`,
///   `type`, `role`, a stable `for`, `aria-label`, test ids, and the path of `href`/`src`/`action`
///   with variable segments collapsed) and its own direct text, normalized;
/// - its *context* is the descriptors of its identifying ancestors (landmarks, elements with a
///   stable id or a test id), nearest first — never positions, classes or sibling counts;
/// - its *signature* hashes descriptor and context, plus an occurrence index: how many elements
///   before it on the page have the same descriptor and context (true duplicates only);
/// - when the element lies in a *component candidate* (the outermost header, footer, nav, aside,
///   search, element with a stable id, or caller-given vendor root), it also gets a signature
///   computed the same way inside that subtree only, so the same footer link has the same
///   signature on every page wherever the footer sits.
///
/// One per page, used from one thread (it caches per-page work: elements by tag, descriptors,
/// component roots). Costs one pass over the document the first time it is asked, then little per
/// finding, so the crawler can call it for every violation and incomplete node.
public final class PageFingerprinter {
    public let document: Document
    private let pageHost: Substring?
    private let vendorRootPositions: Set<Int>

    private var elementsByTag: [String: [Element]] = [:]
    /// Hashes of descriptors by element position (allocated on first use). As text they were
    /// 4 MB of the peak of a 5 MB javadoc index page, and building them a tenth of the time.
    private var descriptorHashes = OptionalHashes(count: 0)
    /// What has been computed per scope, by scope (component root position, or -1 for the page).
    private var scopes: [Int: ScopeTables] = [:]
    private var rootsFound: [ComponentRoot]?

    /// A scope's signatures and context chain hashes, in arrays over the scope's elements: a page
    /// with hundreds of failing links asks for thousands of them, and hashing positions into
    /// dictionaries was a fifth of the fingerprinting.
    private final class ScopeTables {
        let start: Int
        /// Signatures of elements computed so far, as hashes: a walk computes those of every
        /// element of a tag up to the one asked, and most are never asked for as text.
        var signatures: OptionalHashes
        /// Context chain hashes of ancestors (the chain *including* the ancestor).
        var contexts: OptionalHashes
        /// How far the signatures of each tag's elements have been computed.
        var walks: [String: TagWalk] = [:]

        init(_ range: Range<Int>) {
            start = range.lowerBound
            signatures = OptionalHashes(count: range.count)
            contexts = OptionalHashes(count: range.count)
        }
    }

    /// The elements of one tag in a scope, in document order, with the signatures of those before
    /// `next` computed and how often each base occurred among them.
    private struct TagWalk {
        let elements: [Element]
        var next = 0
        /// By base (a `StableHasher` value, so looked up by its own bits): SipHashing it again
        /// for every element walked was a tenth of the signatures.
        var occurrences = PrehashedTable<UInt64>()
    }

    private func tables(of root: ComponentRoot?) -> ScopeTables {
        let scope = root?.element.position ?? -1
        if let known = scopes[scope] { return known }
        let made = ScopeTables(root.map { $0.element.position..<$0.end } ?? 0..<document.elementCount)
        scopes[scope] = made
        return made
    }

    private struct ComponentRoot {
        let element: Element
        let end: Int
        let candidate: ComponentCandidate
    }

    /// - Parameter componentRoots: elements the caller knows are widgets (matches of a vendor's
    ///   selector); each is a component candidate even without a landmark role or id.
    public init(document: Document, componentRoots: [Element] = []) {
        self.document = document
        self.pageHost = document.url.flatMap { URLParts($0).host }
        self.vendorRootPositions = Set(componentRoots.map(\.position))
    }

    /// The page's component candidates, in document order.
    public var components: [ComponentCandidate] { roots.map(\.candidate) }

    public func identity(of element: Element) -> FindingIdentity {
        let pageSignature = signature(of: element, within: nil)
        let placement = roots.last { $0.element.position <= element.position && element.position < $0.end }.map { root in
            ComponentPlacement(candidate: root.candidate, elementSignature: signature(of: element, within: root))
        }
        return FindingIdentity(elementSignature: pageSignature, component: placement)
    }

    // MARK: Signatures

    private func signature(of element: Element, within root: ComponentRoot?) -> String {
        let tables = tables(of: root)
        if let known = tables.signatures[element.position - tables.start] { return StableHasher.hex(known) }
        // The elements of the same tag in the scope, in document order, each with its occurrence
        // among earlier ones of the same base: only true duplicates shift it. The walk goes on
        // from where the last question left it up to this element, so a page with hundreds of
        // failing links stays linear, and links after the last failing one are never described.
        let range = tables.start..<(tables.start + tables.signatures.count)
        let name = element.localName
        var walk = tables.walks[name] ?? TagWalk(elements: sameTag(as: element).filter { range.contains($0.position) })
        tables.walks[name] = nil
        while walk.next < walk.elements.count, walk.elements[walk.next].position <= element.position {
            let other = walk.elements[walk.next]
            walk.next += 1
            let base = self.base(of: other, within: root?.element, tables)
            var occurrence: UInt64 = 0
            walk.occurrences.update(base, default: 0) { count in
                occurrence = count
                count += 1
            }
            var hasher = StableHasher()
            hasher.combine(base)
            hasher.combine(occurrence)
            tables.signatures[other.position - tables.start] = hasher.value
        }
        tables.walks[name] = walk
        return tables.signatures[element.position - tables.start].map(StableHasher.hex) ?? ""
    }

    private func base(of element: Element, within scope: Element?, _ tables: ScopeTables) -> UInt64 {
        var hasher = StableHasher(continuingFrom: descriptorHash(of: element))
        hasher.combine(element == scope ? 0 : context(above: element, within: scope, tables))
        return hasher.value
    }

    /// The hash of the identifying ancestors of `element` up to (not including) `scope`. Each
    /// ancestor's chain is kept, so the walk up stops at the first ancestor already known.
    private func context(above element: Element, within scope: Element?, _ tables: ScopeTables) -> UInt64 {
        // A buffer kept across calls: an array for each element described was a seventh of this.
        var pending: [Int] = []
        swap(&pending, &pendingAncestors)
        defer {
            pending.removeAll(keepingCapacity: true)
            swap(&pending, &pendingAncestors)
        }
        var known: UInt64 = 0
        // By position, an `Element` made only for ancestors described: the nearest one is
        // nearly always known, and making it retained the document for each element (perf).
        let scopePosition = scope?.position
        var current = element.parentPosition
        while let ancestor = current, ancestor != scopePosition {
            if let cached = tables.contexts[ancestor - tables.start] {
                known = cached
                break
            }
            pending.append(ancestor)
            current = document.parentPosition(ofPosition: ancestor)
        }
        // From the outermost pending ancestor inwards; ancestors that identify nothing pass their chain on.
        for ancestor in pending.reversed() {
            if let descriptor = contextDescriptor(of: document.element(atPosition: ancestor)) {
                var hasher = StableHasher()
                hasher.combine(known)
                hasher.combine(descriptor)
                known = hasher.value
            }
            tables.contexts[ancestor - tables.start] = known
        }
        return known
    }

    private var pendingAncestors: [Int] = []

    /// Pages have a few failing tags at most: finding each tag's elements when first asked is
    /// cheaper than sorting the whole page by tag up front.
    private func sameTag(as element: Element) -> [Element] {
        let name = element.localName
        if let known = elementsByTag[name] { return known }
        let found = document.elements(named: name)
        elementsByTag[name] = found
        return found
    }

    /// The hash of the element's own descriptor (tag, identifying attributes, own text): its
    /// parts joined by "|", as one field of a `StableHasher`, fed piece by piece.
    private func descriptorHash(of element: Element) -> UInt64 {
        if descriptorHashes.count == 0 { descriptorHashes = OptionalHashes(count: document.elementCount) }
        if let known = descriptorHashes[element.position] { return known }
        // The values of plain ASCII and their reductions are hashed from bytes, in a buffer kept
        // across elements: a string for each value and each reduction was a third of this (perf).
        var descriptor = DescriptorHasher(element)
        let string = { (bytes: ArraySlice<UInt8>) in String(decoding: bytes, as: UTF8.self) }
        // Every attribute the descriptor reads, in one pass over the element's attributes.
        var values: [ArraySlice<UInt8>?] = []
        swap(&values, &describedValues)
        defer { swap(&values, &describedValues) }
        element.attributeBytes(Self.describedAttributes, into: &values)
        if let id = values[0].map(string), !VolatileValues.isGeneratedIdentifier(id) { descriptor.part("", "#", id) }
        for (offset, name) in Self.identifyingAttributes.enumerated() {
            if let value = values[1 + offset].map(string) { descriptor.part(name, "=", value) }
        }
        let afterIdentifying = 1 + Self.identifyingAttributes.count
        if let target = values[afterIdentifying].map(string), !VolatileValues.isGeneratedIdentifier(target) { descriptor.part("for", "=", target) }
        if let label = values[afterIdentifying + 1].map(string) { descriptor.part("label", "=", VolatileValues.normalizedText(label)) }
        for (offset, name) in Self.referenceAttributes.enumerated() {
            guard let value = values[afterIdentifying + 2 + offset] else { continue }
            scratch.removeAll(keepingCapacity: true)
            if value.withUnsafeBufferPointer({ VolatileValues.appendNormalizedASCIIURLReference($0, pageHost: pageHost, to: &scratch) }) {
                descriptor.part(name, "=", scratch[...])
            } else {
                descriptor.part(name, "=", VolatileValues.normalizedURLReference(string(value), pageHost: pageHost))
            }
        }
        // Only the element's own text: a list's items or a section's paragraphs are other
        // elements, and their text changes without this one changing.
        textScratch.removeAll(keepingCapacity: true)
        element.appendUTF8OfTextChildren(to: &textScratch)
        scratch.removeAll(keepingCapacity: true)
        if textScratch.withUnsafeBufferPointer({ VolatileValues.appendNormalizedASCIIText($0, to: &scratch) }) {
            if !scratch.isEmpty { descriptor.part("text", "=", scratch[...]) }
        } else {
            let text = VolatileValues.normalizedText(element.textOfTextChildren)
            if !text.isEmpty { descriptor.part("text", "=", text) }
        }
        let hash = descriptor.finish()
        descriptorHashes[element.position] = hash
        return hash
    }

    /// Buffers `descriptorHash` writes values and their reductions into, reused across elements.
    private var describedValues: [ArraySlice<UInt8>?] = []
    private var scratch: [UInt8] = []
    private var textScratch: [UInt8] = []

    /// The hash `descriptorHash` computes, from strings as it was first written: the definition
    /// the byte-level version is held to.
    func descriptorHashByDefinition(of element: Element) -> UInt64 {
        var descriptor = DescriptorHasher(element)
        let values = element.attributeValues(Self.describedAttributes)
        if let id = values[0], !VolatileValues.isGeneratedIdentifier(id) { descriptor.part("", "#", id) }
        for (offset, name) in Self.identifyingAttributes.enumerated() {
            if let value = values[1 + offset] { descriptor.part(name, "=", value) }
        }
        let afterIdentifying = 1 + Self.identifyingAttributes.count
        if let target = values[afterIdentifying], !VolatileValues.isGeneratedIdentifier(target) { descriptor.part("for", "=", target) }
        if let label = values[afterIdentifying + 1] { descriptor.part("label", "=", VolatileValues.normalizedText(label)) }
        for (offset, name) in Self.referenceAttributes.enumerated() {
            if let value = values[afterIdentifying + 2 + offset] {
                descriptor.part(name, "=", VolatileValues.normalizedURLReference(value, pageHost: pageHost))
            }
        }
        let text = VolatileValues.normalizedText(element.textOfTextChildren)
        if !text.isEmpty { descriptor.part("text", "=", text) }
        return descriptor.finish()
    }

    /// A descriptor's parts fed to one field of a `StableHasher`: the tag, then `|label=value`
    /// for each part, as the text joined by "|" would be hashed, without making it.
    private struct DescriptorHasher {
        private var hasher = StableHasher()

        init(_ element: Element) {
            hasher.combine(piece: element.isHTML ? element.localName : "\(element.namespace):\(element.localName)")
        }

        mutating func part(_ label: String, _ separator: String, _ value: String) {
            open(label, separator)
            hasher.combine(piece: value)
        }

        mutating func part(_ label: String, _ separator: String, _ value: ArraySlice<UInt8>) {
            open(label, separator)
            hasher.combine(piece: value)
        }

        private mutating func open(_ label: String, _ separator: String) {
            hasher.combine(piece: "|")
            hasher.combine(piece: label)
            hasher.combine(piece: separator)
        }

        mutating func finish() -> UInt64 {
            hasher.endField()
            return hasher.value
        }
    }

    /// `descriptorHash` as the crawl computes it, for tests that hold it to the definition.
    func descriptorHashForTesting(of element: Element) -> UInt64 { descriptorHash(of: element) }

    private static let identifyingAttributes = ["name", "type", "role", "data-testid", "data-test", "data-qa", "data-cy"]
    private static let referenceAttributes = ["href", "src", "action", "data"]
    /// What `descriptorHash` reads: `id`, the identifying attributes, `for`, `aria-label`, the references.
    private static let describedAttributes = AttributeNameList(["id"] + identifyingAttributes + ["for", "aria-label"] + referenceAttributes)

    /// By the name's key word: asked of every ancestor of every element described, where a switch
    /// compared each name with nine strings.
    private static let landmarkTags = ElementNameTable(
        Dictionary(uniqueKeysWithValues: ["header", "footer", "nav", "main", "aside", "form", "section", "search", "dialog"].map { ($0, true) })
    )
    private static let landmarkRoles: Set<String> = [
        "banner", "contentinfo", "navigation", "main", "complementary", "form", "region", "search", "dialog", "alertdialog",
    ]

    /// An ancestor's descriptor when it identifies a part of the page (landmark, stable id, test id).
    private func contextDescriptor(of ancestor: Element) -> String? {
        let isLandmarkTag = ancestor.isHTML && Self.landmarkTags[ancestor] != nil
        // Most ancestors have none of what identifies: told without making a string.
        if !isLandmarkTag, !ancestor.hasAttribute(.role), !ancestor.hasAttribute(.id), !ancestor.hasAttribute(.dataTestID) { return nil }
        let role = ancestor.attribute(.role).map { $0.lowercased() }
        let isLandmark = isLandmarkTag || role.map(Self.landmarkRoles.contains) == true
        let stableID = ancestor.id.flatMap { VolatileValues.isGeneratedIdentifier($0) ? nil : $0 }
        let testID = ancestor.attribute(.dataTestID)
        guard isLandmark || stableID != nil || testID != nil else { return nil }
        var parts = [ancestor.localName]
        if let role { parts.append("role=" + role) }
        if let stableID { parts.append("#" + stableID) }
        if let testID { parts.append("testid=" + testID) }
        if let label = ancestor.attribute(.ariaLabel) { parts.append("label=" + VolatileValues.normalizedText(label)) }
        return parts.joined(separator: "|")
    }

    // MARK: Components

    /// A switch, not a Set: asked of every element of every page, and comparing short names is
    /// cheaper than hashing them.
    private static func isComponentTag(_ name: String) -> Bool {
        switch name {
        case "header", "footer", "nav", "aside", "search": return true
        default: return false
        }
    }
    private static let componentRoles: Set<String> = ["banner", "contentinfo", "navigation", "complementary", "search"]

    private var roots: [ComponentRoot] {
        if let rootsFound { return rootsFound }
        let found = findRoots()
        rootsFound = found
        return found
    }

    /// The outermost candidates under `<body>`: landmark-ish elements and vendor roots that hold no
    /// `main`, and elements with a stable id that hold no main, landmark or `h1` (those are page
    /// wrappers, whose content is the page's own).
    private func findRoots() -> [ComponentRoot] {
        guard let body = document.body else { return [] }
        let contents = SubtreeContents(document: document)
        var roots: [ComponentRoot] = []
        var keyCounts: [String: Int] = [:]
        var position = body.position + 1
        let bodyEnd = body.descendants.endIndex
        while position < bodyEnd {
            let element = document.element(atPosition: position)
            let role = element.attribute(.role).map { $0.lowercased() }
            let isLandmark = (element.isHTML && Self.isComponentTag(element.localName)) || role.map(Self.componentRoles.contains) == true
            let stableID = element.id.flatMap { VolatileValues.isGeneratedIdentifier($0) ? nil : $0 }
            let isRoot: Bool
            if vendorRootPositions.contains(position) || isLandmark {
                isRoot = !contents.holdsMain[position]
            } else {
                // A widget has content: an id on a lone input or image names an element, not a part of the page.
                isRoot = stableID != nil && element.firstElementChild != nil && !contents.holdsMain[position]
                    && !contents.holdsLandmarkOrTopHeading[position]
            }
            guard isRoot else {
                position += 1
                continue
            }
            var name = element.localName
            if isLandmark, let role, Self.componentRoles.contains(role) { name += "[role=\(role)]" }
            if let stableID { name += "#" + stableID }
            if let label = element.attribute(.ariaLabel) { name += "[aria-label=\"\(VolatileValues.normalizedText(label))\"]" }
            let seen = keyCounts[name, default: 0] + 1
            keyCounts[name] = seen
            let key = seen == 1 ? name : "\(name) (\(seen))"
            let end = element.descendants.endIndex
            roots.append(ComponentRoot(element: element, end: end, candidate: ComponentCandidate(key: key, structureHash: structureHash(of: element, end: end))))
            position = end
        }
        return roots
    }

    /// The subtree's shape, bottom-up: each element hashes its tag, role and type with its
    /// children's hashes, where a run of children with equal hashes counts once (a menu with 7 or 8
    /// same-shaped items is the same menu).
    private func structureHash(of root: Element, end: Int) -> String {
        // By position within the subtree; nil for elements that do not count.
        var hashes = [UInt64?](repeating: nil, count: end - root.position)
        for position in stride(from: end - 1, through: root.position, by: -1) {
            let element = document.element(atPosition: position)
            guard Self.unstructuralTags[element] == nil else { continue }
            var hasher = StableHasher()
            hasher.combine(element.localName)
            hasher.combine(element.attribute(.role) ?? "")
            hasher.combine(element.attribute(.type) ?? "")
            var previous: UInt64?
            // Sibling links rather than `children`, which made an array for each element; by
            // position, as an `Element` for each child retained the document (perf).
            var next = document.firstChildPosition(ofPosition: position)
            while let child = next {
                next = document.nextSiblingPosition(ofPosition: child)
                guard let childHash = hashes[child - root.position], childHash != previous else { continue }
                hasher.combine(childHash)
                previous = childHash
            }
            hashes[position - root.position] = hasher.value
        }
        return StableHasher.hex(hashes[0] ?? 0)
    }

    /// Elements whose content is per-page data (script configs, nonces) rather than structure; by
    /// the name's key word, asked of every element of every component.
    private static let unstructuralTags = ElementNameTable(
        Dictionary(uniqueKeysWithValues: ["script", "style", "noscript", "template", "link", "meta"].map { ($0, true) })
    )
}

/// For each element, whether its subtree (itself included) holds a `main`, or a landmark or `h1`:
/// one bottom-up pass, so finding component roots stays linear in the page size.
private struct SubtreeContents {
    private static let sectionRoles: Set<String> = ["banner", "contentinfo", "navigation", "complementary", "main"]

    var holdsMain: [Bool]
    var holdsLandmarkOrTopHeading: [Bool]

    /// Only the elements that set a flag are visited (found by name and by `role`), each marking
    /// itself and its ancestors up to the first one already marked: visiting every element of
    /// every page for the few that matter cost more than the rest of the fingerprinting.
    init(document: Document) {
        let count = document.elementCount
        holdsMain = [Bool](repeating: false, count: count)
        holdsLandmarkOrTopHeading = [Bool](repeating: false, count: count)
        var main = document.elements(named: "main")
        var sections = ["header", "footer", "nav", "aside", "main", "h1"].flatMap(document.elements(named:))
        for element in document.elements(withAttribute: "role") {
            guard let role = element.attribute(.role)?.lowercased() else { continue }
            if role == "main" { main.append(element) }
            if Self.sectionRoles.contains(role) { sections.append(element) }
        }
        Self.mark(main, andAncestorsIn: &holdsMain)
        Self.mark(sections, andAncestorsIn: &holdsLandmarkOrTopHeading)
    }

    private static func mark(_ elements: [Element], andAncestorsIn flags: inout [Bool]) {
        for element in elements {
            var current: Element? = element
            while let marking = current, !flags[marking.position] {
                flags[marking.position] = true
                current = marking.parent
            }
        }
    }
}
