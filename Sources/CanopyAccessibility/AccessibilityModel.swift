import CanopyHTML
import CanopyStyle

/// What static HTML tells about a page's accessibility tree: which elements are hidden from
/// assistive technology, their roles, focusability, accessible names and descriptions.
///
/// One model per document and audit. Visibility and inertness are computed in one pass in
/// document order when the model is built; roles, names and table header grids are computed
/// lazily on first request and cached, so rules can ask freely. Not thread-safe: one audit
/// uses it from one thread.
public final class AccessibilityModel {
    public let document: Document
    /// The page's cascade: what its stylesheets and style attributes compute for each element.
    public let styles: ComputedStyles
    /// Indexed by element position: hidden from assistive technology (and so from most rules).
    private let hiddenFromAT: [Bool]
    /// Indexed by element position: not rendered at all (display:none and friends), regardless of ARIA.
    private let notRendered: [Bool]
    /// Indexed by element position: `visibility: hidden` (or collapse) applies, declared or inherited.
    private let visibilityHidden: [Bool]
    /// Indexed by element position: inside an `inert` subtree (no focus, no interaction).
    private let inert: [Bool]
    // The caches below are read and written for nearly every element by every rule. One audit
    // uses the model from one thread, and every value is computed before it is stored, so no two
    // accesses overlap: the runtime's exclusivity checks on them would only cost time.
    /// `<label for>` elements by the id they name; built on first use by name computation.
    @exclusivity(unchecked) var labelsByTargetID: [String: [Element]]?
    /// Texts of labelledby and describedby references, each computed once (ReferenceText).
    @exclusivity(unchecked) var referenceTexts: [ReferenceText.Key: ReferenceText] = [:]
    /// SharedLabels by id, built on first use (nil inside: the id is not shared).
    @exclusivity(unchecked) var sharedLabelsByID: [String: SharedLabels?] = [:]
    /// Accessible names already computed, by element position (nil: not computed yet), allocated
    /// on first use.
    @exclusivity(unchecked) var nameCache = NameSlots()
    /// Roles already resolved, by element position, one cache per option set.
    @exclusivity(unchecked) var roleCache: [RoleOptions: [Int: String?]] = [:]
    /// The same for the two option sets rules ask with for nearly every element, by position
    /// (nil: not resolved yet), allocated on first use.
    @exclusivity(unchecked) var standardRoles = RoleSlots()
    @exclusivity(unchecked) var axeDefaultRoles = RoleSlots()
    /// Explicit roles by element position, for the same two option sets (nil: not read yet).
    @exclusivity(unchecked) var standardExplicitRoles = RoleSlots()
    @exclusivity(unchecked) var axeDefaultExplicitRoles = RoleSlots()
    /// `hasARIAAttribute` by element position, for the whole page at once (empty: not built yet).
    @exclusivity(unchecked) var ariaAttributed: [Bool] = []
    @exclusivity(unchecked) var ariaAttributedElements: [Element]?
    /// `isNamedFromContent` by element position: -1 not known yet, 0 no, 1 yes.
    @exclusivity(unchecked) var namedFromContent: [Int8] = []
    /// Elements whose implicit role is being resolved right now: a `section` or `form` whose
    /// `aria-labelledby` text leads back to itself must not recurse forever.
    @exclusivity(unchecked) var resolvingImplicitRole: Set<Int> = []
    /// `inheritedDisabling` by element position (0xFF: not known yet), allocated on first use.
    @exclusivity(unchecked) var disabling: [UInt8] = []
    /// The ancestors `disabling(of:)` fills in, kept between calls: a new array for each call was
    /// a sixth of that climb's instructions (callgrind).
    @exclusivity(unchecked) private var disablingChain: [Element] = []
    /// Column/row header grids of tables, by table position, built on first use.
    @exclusivity(unchecked) var tableGrids: [Int: TableGrid] = [:]

    /// Whether name computations share the walks that come out the same for many elements
    /// (SharedLabels, ReferenceText); off only in tests that compare names with and without.
    let sharesWalks: Bool

    /// How many elements name computations may visit on this page in all. Real pages use a few
    /// per element; a hostile page can make names cost the square of its size (a thousand links
    /// inside the element that labels them all), which would hold a crawl's worker for minutes.
    public let nameStepBudget: Int
    @exclusivity(unchecked) var nameSteps = 0
    /// How many times a name computation was refused or cut short because the budget was spent:
    /// the auditor reports every result that asked for one as needing review.
    public private(set) var namesCutShort = 0

    /// The budget for a page of `elementCount` elements: far above what real pages use.
    public static func defaultNameStepBudget(elementCount: Int) -> Int { 250_000 + 50 * elementCount }

    /// A model styled by the page's `<style>` elements and `style` attributes only.
    public convenience init(document: Document) {
        self.init(document: document, sharesWalks: true)
    }

    /// A model styled by `styles`, whose name computations stop after `nameStepBudget` visited
    /// elements (nil: the default budget).
    public convenience init(document: Document, styles: ComputedStyles, nameStepBudget: Int? = nil) {
        self.init(document: document, sharesWalks: true, nameStepBudget: nameStepBudget, styles: styles)
    }

    /// A model whose name computations stop after `nameStepBudget` visited elements.
    public convenience init(document: Document, nameStepBudget: Int) {
        self.init(document: document, sharesWalks: true, nameStepBudget: nameStepBudget)
    }

    init(document: Document, sharesWalks: Bool, nameStepBudget: Int? = nil, styles: ComputedStyles? = nil) {
        self.document = document
        let styles = styles ?? StyleEnvironment.embeddedOnly().styles(for: document)
        self.styles = styles
        self.sharesWalks = sharesWalks
        self.nameStepBudget = nameStepBudget ?? Self.defaultNameStepBudget(elementCount: document.elementCount)
        let count = document.elementCount
        var hiddenFromAT = [Bool](repeating: false, count: count)
        var notRendered = [Bool](repeating: false, count: count)
        var visibilityHidden = [Bool](repeating: false, count: count)
        var hiddenForGood = [Bool](repeating: false, count: count)
        var inert = [Bool](repeating: false, count: count)
        let attributeFlags = VisibilityAttributes.flags(in: document)
        // Without author rules for them, only style attributes can set the visibility properties.
        let sheetsMayHide = styles.index.authorDeclared.intersects(StyleRuleIndex.visibilityProperties)
        var contentSkipped = [Bool](repeating: false, count: count)
        for element in document.elements {
            let position = element.position
            // The parent itself only where it is read: making it retained the document.
            let parentPosition = element.parentPosition
            let attributes = VisibilityAttributes(attributeFlags[position])
            let styled = sheetsMayHide || attributes.style
            let parentNotRendered = parentPosition.map { notRendered[$0] || contentSkipped[$0] } ?? false
            let inheritedVisibility = parentPosition.map { visibilityHidden[$0] } ?? false
            // Unstyled elements whose parent is visible are not asked: nothing can hide them.
            let concealment: ComputedStyles.Concealment = styled || inheritedVisibility ? styles.concealment(of: element) : []
            let unrendered =
                parentNotRendered || (styled && concealment.contains(.displayNone))
                || Self.isNeverRendered(element, parentPosition: parentPosition, hasHiddenAttribute: attributes.hidden)
            // `content-visibility: hidden` keeps the element's box but skips its contents.
            contentSkipped[position] = styled && concealment.contains(.contentSkipped)
            let invisible = concealment.contains(.visibilityHidden)
            notRendered[position] = unrendered
            visibilityHidden[position] = invisible
            // visibility:hidden can be undone by a descendant; aria-hidden, inert and display:none cannot.
            let parentHidden = parentPosition.map { hiddenForGood[$0] } ?? false
            let ariaHidden = attributes.ariaHidden && element.attribute("aria-hidden") == "true"
            let hidden = parentHidden || unrendered || ariaHidden || attributes.inert
            hiddenForGood[position] = hidden
            inert[position] = (parentPosition.map { inert[$0] } ?? false) || attributes.inert
            hiddenFromAT[position] = hidden || invisible
        }
        self.hiddenFromAT = hiddenFromAT
        self.notRendered = notRendered
        self.visibilityHidden = visibilityHidden
        self.inert = inert
    }

    /// Which of the attributes that decide visibility an element has.
    private struct VisibilityAttributes {
        private static let names = ["style", "hidden", "aria-hidden", "inert"]
        let style: Bool
        let hidden: Bool
        let ariaHidden: Bool
        let inert: Bool

        init(_ flags: UInt8) {
            style = flags & 1 != 0
            hidden = flags & 2 != 0
            ariaHidden = flags & 4 != 0
            inert = flags & 8 != 0
        }

        /// Each element's flags, by position: one pass over the page's attribute names per
        /// attribute, rather than listing every element's attributes.
        static func flags(in document: Document) -> [UInt8] {
            var flags = [UInt8](repeating: 0, count: document.elementCount)
            for (bit, name) in names.enumerated() {
                for position in document.elementPositions(withAttribute: name) { flags[Int(position)] |= 1 << bit }
            }
            return flags
        }
    }

    /// Elements a browser does not render, from the UA style sheet and the `hidden` attribute.
    private static func isNeverRendered(_ element: Element, parentPosition: Int?, hasHiddenAttribute: Bool) -> Bool {
        guard element.isHTML else { return false }
        let name = element.localName
        if isNeverRenderedName(name) { return true }
        if hasHiddenAttribute { return true }
        if name == "input" { return element.attribute("type")?.lowercased() == "hidden" }
        // The content of a closed <details>, except its first <summary>, is not rendered.
        guard let parentPosition, element.document.localName(atPosition: parentPosition) == "details" else { return false }
        let parent = element.document.element(atPosition: parentPosition)
        return !parent.hasAttribute("open") && !(name == "summary" && parent.children.first { $0.localName == "summary" } == element)
    }

    /// head, script, style, template, noscript, datalist, title, meta, link, base: by length first,
    /// as hashing every element's name cost more than the rest of the model's pass.
    private static func isNeverRenderedName(_ name: String) -> Bool {
        switch name.utf8.count {
        case 4: return name == "head" || name == "meta" || name == "link" || name == "base"
        case 5: return name == "style" || name == "title"
        case 6: return name == "script"
        case 8: return name == "template" || name == "noscript" || name == "datalist"
        default: return false
        }
    }

    /// Hidden from assistive technology: `hidden`, `aria-hidden="true"`, `inert`,
    /// `display:none`/`visibility:hidden` (inline or from a simple page style rule), or never
    /// rendered; on the element or an ancestor.
    public func isHiddenFromAssistiveTechnology(_ element: Element) -> Bool { hiddenFromAT[element.position] }

    /// Not rendered for anyone (no layout box), whatever its ARIA attributes say.
    public func isNotRendered(_ element: Element) -> Bool { notRendered[element.position] }

    /// Rendered but invisible through `visibility: hidden`/`collapse` (a descendant may undo it).
    public func isVisibilityHidden(_ element: Element) -> Bool { visibilityHidden[element.position] }

    // MARK: Focus

    /// Whether the element can receive focus (by keyboard or script), as static HTML tells:
    /// natively focusable and enabled, or with a `tabindex` that parses as an integer; never when
    /// hidden for everyone (unrendered or `visibility:hidden`; `<area>` excepted, as in axe) or inert.
    public func isFocusable(_ element: Element) -> Bool {
        if inert[element.position] { return false }
        if element.localName != "area" && (isNotRendered(element) || isVisibilityHidden(element)) { return false }
        if isDisabledControl(element) { return false }
        if tabIndex(of: element) != nil { return true }
        return Focusability.isNativelyFocusable(element)
    }

    /// Disabled for users: a disabled form control (or inside a disabled fieldset), or
    /// `aria-disabled="true"` on the element or an ancestor, as axe-core's isDisabled reads it.
    public func isDisabled(_ element: Element) -> Bool {
        isDisabledControl(element) || disabling(of: element) & Self.ariaDisabled != 0
    }

    /// Disabled by markup (`Focusability.isDisabled`), from the per-element table.
    func isDisabledControl(_ element: Element) -> Bool {
        if Focusability.hasDisabledAttribute(element) { return true }
        // The parent is made only on pages where something can disable it: it retains the document.
        guard mayDisableDescendants, let parent = element.parent else { return false }
        return disabling(of: parent) & Self.fieldsetDisabled != 0
    }

    /// Whether anything on the page can disable an element: a `disabled` or `aria-disabled`
    /// attribute somewhere. Without one, no element is disabled, nor labelled by a disabled control.
    public private(set) lazy var mayDisable = hasARIADisabled || document.containsAttribute(.disabled)

    /// Whether anything on the page can disable what it holds: an `aria-disabled` attribute or
    /// a disabled `<fieldset>`. The contrast rules ask about every text element, and without
    /// either no chain of ancestors needs to be read (javadoc's pages disable one control, and
    /// reading the chains was 1% of a styled crawl).
    private lazy var mayDisableDescendants = hasARIADisabled
        || document.elements(named: "fieldset").contains { Focusability.fieldsetDisabling(by: $0) == true }

    /// An `aria-disabled` attribute anywhere on the page, looked for once for both questions above.
    private lazy var hasARIADisabled = document.containsAttribute(.ariaDisabled)

    /// `aria-disabled="true"` on the element or an ancestor.
    private static let ariaDisabled: UInt8 = 1
    /// Climbing from the element itself, a disabled `<fieldset>` comes before any `<legend>`
    /// (axe stops at any legend): what disables the element's children.
    private static let fieldsetDisabled: UInt8 = 2

    /// Both facts for an element, from its parent's, once per element: asked for every text
    /// element of a page 250 levels deep, climbing all ancestors each time cost the square of
    /// the depth.
    private func disabling(of element: Element) -> UInt8 {
        guard mayDisableDescendants else { return 0 }
        if disabling.isEmpty { disabling = Array(repeating: 0xFF, count: document.elementCount) }
        // Asked of every text element by the contrast rules: an answered element needs no chain.
        let known = disabling[element.position]
        if known != 0xFF { return known }
        // Climb (without recursion: pages nest deep) to an answered ancestor or the root, then fill in downwards.
        disablingChain.removeAll(keepingCapacity: true)
        var current: Element? = element
        while let node = current, disabling[node.position] == 0xFF {
            disablingChain.append(node)
            current = node.parent
        }
        var above = current.map { disabling[$0.position] } ?? 0
        for node in disablingChain.reversed() {
            var own: UInt8 = 0
            if above & Self.ariaDisabled != 0 || node.attribute(.ariaDisabled)?.lowercased() == "true" { own |= Self.ariaDisabled }
            if let disables = Focusability.fieldsetDisabling(by: node) {
                if disables { own |= Self.fieldsetDisabled }
            } else {
                own |= above & Self.fieldsetDisabled
            }
            disabling[node.position] = own
            above = own
        }
        return disabling[element.position]
    }

    /// Whether keyboard users reach the element with Tab: focusable and not taken out of the tab
    /// order by a negative `tabindex`.
    public func isTabbable(_ element: Element) -> Bool {
        if let tabIndex = tabIndex(of: element), tabIndex < 0 { return false }
        return isFocusable(element)
    }

    /// `tabindex` read as browsers read it (JavaScript's parseInt): nil when absent or not a number.
    public func tabIndex(of element: Element) -> Int? {
        element.attribute("tabindex").flatMap(JavaScriptNumbers.parseInt)
    }

    /// Whether the name budget is spent: then nothing computed from names is kept.
    var isNameBudgetSpent: Bool { nameSteps > nameStepBudget }

    /// Counts one element visited by a name computation; false once the budget is spent. The
    /// step that spends it drops everything cached from names (it may be partial), so that each
    /// later request is refused and counted instead of answered from a cut computation.
    func spendNameStep() -> Bool {
        nameSteps += 1
        guard nameSteps > nameStepBudget else { return true }
        if nameSteps == nameStepBudget + 1 {
            nameCache.removeAll()
            referenceTexts = [:]
            sharedLabelsByID = [:]
            roleCache = [:]
            standardRoles.removeAll()
            axeDefaultRoles.removeAll()
            namedFromContent = []
        }
        namesCutShort += 1
        return false
    }

    /// Whether the element has an attribute in the `aria-` namespace (any case). Several rules
    /// ask it of every element, so the page's answers are found in one pass and kept.
    public func hasARIAAttribute(_ element: Element) -> Bool {
        if ariaAttributed.isEmpty {
            var found = [Bool](repeating: false, count: document.elementCount)
            for candidate in elementsWithARIAAttributes { found[candidate.position] = true }
            ariaAttributed = found
        }
        return ariaAttributed[element.position]
    }

    /// The elements that have an attribute in the `aria-` namespace, in document order: the only
    /// candidates of the rules about ARIA attributes, found in one pass over the attribute names.
    public var elementsWithARIAAttributes: [Element] {
        if let known = ariaAttributedElements { return known }
        let found = document.elements(withAttributeNamed: ARIAAttributes.isARIAName)
        ariaAttributedElements = found
        return found
    }

    /// Whether the element is inert itself or inside an `inert` subtree.
    public func isInert(_ element: Element) -> Bool { inert[element.position] }

    // MARK: Names from ARIA

    /// `aria-label`, trimmed; nil when absent or blank.
    public func ariaLabel(of element: Element) -> String? {
        guard let label = element.attribute("aria-label")?.trimmingWhitespace(), !label.isEmpty else { return nil }
        return label
    }

    /// The text that `aria-labelledby` points to: each referenced element's name as accname
    /// computes it inside a labelledby reference (hidden targets count, nested `aria-labelledby`
    /// is not followed), joined by spaces and whitespace-normalized. Nil when it gives no text.
    public func ariaLabelledByText(of element: Element) -> String? {
        guard element.hasAttribute("aria-labelledby") else { return nil }
        var computation = NameComputation(model: self, start: element)
        let text = TextNormalization.sanitize(computation.labelledByText(of: element, context: .init()))
        return text.isEmpty ? nil : text
    }

    /// `title`, trimmed; nil when absent or blank.
    public func title(of element: Element) -> String? {
        guard let title = element.attribute("title")?.trimmingWhitespace(), !title.isEmpty else { return nil }
        return title
    }
}
