import CanopyHTML

/// Accessible name computation (accname 1.2), in the shape axe-core computes it so that rules agree
/// with axe: `aria-labelledby`, `aria-label`, the host language's native text alternative, the value
/// of embedded controls, name from content, then `title`.
///
/// One computation walks one start element; `processed` is shared by its recursions so that an
/// element reached twice (label cycles, `aria-owns` loops) contributes text only once. Each
/// `aria-labelledby` reference starts with a fresh record, as in axe, so `"a a"` repeats a's text.
struct NameComputation {
    let model: AccessibilityModel
    /// The element being named; nil while the texts of labels shared by several controls are
    /// computed once for all of them (SharedLabels).
    let start: Element?
    private var processed = ProcessedElements()
    private var depth = 0
    /// When recording (SharedLabels), the elements passed to `text(of:)` and those newly marked
    /// processed: what a label's text could depend on, and what it leaves behind.
    private var visits: [Int]?
    private var marks: [Int]?
    /// When walking a shared label again for one control (SharedLabels): the elements the
    /// recorded walks before this one marked (by walk index), unless that walk was done again.
    private var earlierMarks: (markedBy: [Int: Int], before: Int, redone: [Bool])?
    /// The deepest `depth` a walk reached (ReferenceText: whether the depth cap cut it).
    private var deepest = 0

    /// Deeper recursion than this gives up on the branch: real pages never nest names this deep,
    /// and it keeps pathological documents from exhausting the stack.
    private static let maximumDepth = 200

    init(model: AccessibilityModel, start: Element?) {
        self.model = model
        self.start = start
    }

    /// A computation of label texts as a control's own computation reaches them (at depth 1,
    /// after marking the control processed), for no control in particular, recording visits.
    private init(sharedLabelsOf model: AccessibilityModel, processed: ProcessedElements, start: Element?) {
        self.model = model
        self.start = start
        self.processed = processed
        depth = 1
        visits = []
        marks = []
    }

    /// The traversal state that changes with where the computation is (axe's `context`).
    struct Context {
        var inLabelledByContext = false
        /// Inside a `<label>` that names a control: nested labels and `aria-labelledby` are ignored.
        var inControlContext = false
        /// Nil until a labelledby reference decides it: a hidden reference contributes all its text.
        var includeHidden: Bool?
        /// Nil until name-from-content starts; then whether descendants recurse regardless of role.
        var subtreeDescendant: Bool?
    }

    mutating func name() -> String {
        guard let start else { return "" }
        return TextNormalization.sanitize(text(of: start, context: Context()))
    }

    // MARK: Steps

    mutating func text(of element: Element, context incoming: Context) -> String {
        guard model.spendNameStep() else { return "" }
        visits?.append(element.position)
        var context = incoming
        if context.inLabelledByContext && context.includeHidden == nil {
            context.includeHidden = model.isHiddenFromAssistiveTechnology(element)
        }
        // Step 2A: hidden elements take no part, unless reached through a hidden labelledby target
        // (whose scripts, styles and templates still stay out).
        if model.isHiddenFromAssistiveTechnology(element)
            && !(context.includeHidden == true && !NativeNaming.isNeverText(element))
        {
            return ""
        }
        deepest = max(deepest, depth)
        guard depth < Self.maximumDepth else { return "" }
        depth += 1
        defer { depth -= 1 }

        let isStart = element == start
        var name = ""
        for step in Step.allCases {
            if isStart { name = TextNormalization.sanitize(name) }
            // A whitespace-only name from an inner step still ends the computation, as in axe.
            if !name.isEmpty { return name }
            switch step {
            case .labelledBy: name = labelledByText(of: element, context: context)
            case .ariaLabel: name = element.attribute("aria-label") ?? ""
            case .native: name = nativeText(of: element, context: context)
            case .controlValue: name = controlValue(of: element, context: context)
            case .content: name = subtreeText(of: element, context: context)
            case .title: name = titleText(of: element)
            }
        }
        return name
    }

    private enum Step: CaseIterable { case labelledBy, ariaLabel, native, controlValue, content, title }

    /// Step 2B: the referenced elements' text, joined by spaces; never followed a second time.
    mutating func labelledByText(of element: Element, context: Context) -> String {
        guard !context.inLabelledByContext, !context.inControlContext,
            let references = element.attribute("aria-labelledby")
        else { return "" }
        var result = ""
        for id in references.split(whereSeparator: \.isHTMLWhitespace) {
            guard let referenced = model.document.element(withID: String(id)) else { continue }
            var referenceContext = context
            referenceContext.inLabelledByContext = true
            referenceContext.includeHidden = nil
            let part = referenceText(of: referenced, context: referenceContext)
            result = result.isEmpty ? part : result + " " + part
        }
        return result
    }

    /// One `aria-labelledby` (or `aria-describedby`) reference's text. Each is computed afresh, so
    /// `aria-labelledby="a a"` repeats a's text, and so it is the same for every element that
    /// points there, unless the walk met that element or was cut by the depth cap: many elements
    /// labelled by one large element cost one walk of it instead of one each.
    mutating func referenceText(of referenced: Element, context: Context) -> String {
        let key = ReferenceText.Key(position: referenced.position, subtreeDescendant: context.subtreeDescendant)
        if model.sharesWalks, let known = model.referenceTexts[key], depth + known.reach < Self.maximumDepth,
            !(start.map { known.visits.contains($0.position) } ?? false)
        {
            return known.text
        }
        var walk = NameComputation(model: model, start: start)
        walk.depth = depth
        walk.deepest = depth
        walk.visits = []
        let text = walk.text(of: referenced, context: context)
        let visits = Set(walk.visits ?? [])
        if model.sharesWalks, !model.isNameBudgetSpent, walk.deepest < Self.maximumDepth,
            !(start.map { visits.contains($0.position) } ?? false)
        {
            model.referenceTexts[key] = ReferenceText(text: text, visits: visits, reach: walk.deepest - depth)
        }
        return text
    }

    /// Step 2D: the host language's own labelling (alt, label, legend, caption, value...).
    mutating func nativeText(of element: Element, context: Context) -> String {
        let role = self.role(of: element)
        if role == "none" || role == "presentation" { return "" }
        for method in NativeNaming.methods(for: element) {
            let text: String
            switch method {
            case .subtree: text = subtreeText(of: element, context: context)
            case .alt: text = element.attribute("alt") ?? ""
            case .title: text = titleText(of: element)
            case .placeholder: text = element.attribute("placeholder") ?? ""
            case .tableSummary: text = element.attribute("summary") ?? ""
            case .value: text = element.attribute("value") ?? ""
            case .buttonDefault: text = NativeNaming.defaultButtonText(of: element)
            case .singleSpace: text = " "
            case .labels: text = labelText(of: element, context: context)
            case .descendant(let name): text = descendantText(of: element, named: name, context: context)
            }
            if !text.isEmpty { return text }
        }
        return ""
    }

    /// `<label for=id>` elements and the wrapping `<label>`, in document order, each computed as
    /// content with nested labels and `aria-labelledby` switched off.
    mutating func labelText(of element: Element, context: Context) -> String {
        guard !context.inControlContext, !context.inLabelledByContext, markProcessed(element) else { return "" }
        // A control's own name (not a control met inside another name) whose id other elements
        // share: the labels' texts are the same for all of them but where a control is inside
        // one, so they are computed once (SharedLabels), not once per control.
        if depth == 1, element == start, let id = element.id, let shared = model.sharedLabels(forID: id) {
            return shared.text(for: element, model: model)
        }
        var labels = model.explicitLabels(of: element)
        if let wrapping = model.wrappingLabel(of: element) {
            labels.append(wrapping)
            labels.sort { $0.position < $1.position }
        }
        var labelContext = context
        labelContext.inControlContext = true
        var texts: [String] = []
        for label in labels {
            let text = text(of: label, context: labelContext)
            if !text.isEmpty { texts.append(text) }
        }
        return texts.joined(separator: " ")
    }

    /// The first descendant named `name` (`legend`, `caption`, `figcaption`, svg `title`), unless an
    /// element of the same kind as `element` comes first (a nested fieldset's legend is not ours).
    mutating func descendantText(of element: Element, named name: String, context: Context) -> String {
        let candidate = element.descendants.first { $0.localName == name || $0.localName == element.localName }
        guard let candidate, candidate.localName == name else { return "" }
        return text(of: candidate, context: context)
    }

    /// Step 2E: an embedded control contributes its value, never the control being named.
    mutating func controlValue(of element: Element, context: Context) -> String {
        guard element != start, let role = self.role(of: element),
            NativeNaming.isControlValueRole(role),
            role != "progressbar"  // axe treats progressbar values as unsupported in names
        else { return "" }
        let textbox = NativeNaming.nativeTextboxValue(of: element)
        if !textbox.isEmpty { return textbox }
        let select = nativeSelectValue(of: element)
        if !select.isEmpty { return select }
        // The ARIA widgets below count only with an explicit role, as in axe.
        let explicit = model.explicitRole(of: element, options: .axeDefault)
        switch explicit {
        case "textbox":
            // Its text as assistive technology reads it; all of it when hidden for everyone.
            return model.isNotRendered(element) ? element.textContent : model.screenReaderText(of: element)
        case "listbox":
            return listboxValue(of: element, context: context)
        case "combobox":
            // The selected option of the first listbox it owns.
            guard let listbox = model.ownedElements(of: element).first(where: { self.role(of: $0) == "listbox" })
            else { return "" }
            return listboxValue(of: listbox, context: context)
        case let range? where NativeNaming.rangeRoles.contains(range):
            guard let valueNow = element.attribute("aria-valuenow") else { return "" }
            return NativeNaming.javaScriptNumberText(valueNow)
        default:
            return ""
        }
    }

    /// A native select's selected options' text (the first option when none is marked selected).
    private func nativeSelectValue(of element: Element) -> String {
        guard element.isHTML, element.localName == "select" else { return "" }
        let options = element.descendants.filter { $0.isHTML && $0.localName == "option" }
        var selected = options.filter { $0.hasAttribute("selected") }
        if selected.isEmpty, let first = options.first { selected = [first] }
        return selected.map { model.optionText(of: $0) }.joined(separator: " ")
    }

    /// Only the first selected option counts, even in a multi-select listbox (as browsers do).
    private mutating func listboxValue(of listbox: Element, context: Context) -> String {
        guard model.explicitRole(of: listbox, options: .axeDefault) == "listbox" else { return "" }
        let selected = model.ownedElements(of: listbox).first {
            role(of: $0) == "option" && $0.attribute("aria-selected") == "true"
        }
        guard let selected else { return "" }
        return text(of: selected, context: context)
    }

    /// Steps 2F/2G: the text of the element's content, when its role allows naming from content
    /// (or when already recursing through content or a labelledby target).
    mutating func subtreeText(of element: Element, context incoming: Context) -> String {
        guard markProcessed(element), !NativeNaming.isEmbeddedContent(element) else { return "" }
        let role = self.role(of: element)
        if let role, NativeNaming.isControlValueRole(role) { return "" }
        if incoming.subtreeDescendant != true && !incoming.inLabelledByContext && !model.isNamedFromContent(element) {
            return ""
        }
        var context = incoming
        if context.subtreeDescendant == nil {
            context.subtreeDescendant = !context.inControlContext && !context.inLabelledByContext
        }
        var result = ""
        // aria-owns moves the owned elements after the element's other children.
        let owned = model.ownedByReference(element)
        let ownedPositions = Set(owned.map(\.position))
        for child in element.childNodes {
            switch child.kind {
            case .text:
                result += child.text
            case .element:
                guard let childElement = child.element, !ownedPositions.contains(childElement.position) else { continue }
                Self.append(text(of: childElement, context: context), from: childElement, to: &result)
            default:
                continue
            }
        }
        for ownedElement in owned {
            Self.append(text(of: ownedElement, context: context), from: ownedElement, to: &result)
        }
        return result
    }

    /// Block-level children are separated from their neighbours by spaces; phrasing ones are not.
    /// Static: calling an instance method with `text(of:)` as its argument kept a copy of the
    /// computation (and so of its processed set) alive during the walk, and every element the
    /// walk marked copied the whole set.
    private static func append(_ addition: String, from element: Element, to result: inout String) {
        guard !addition.isEmpty else { return }
        var addition = addition
        if !NativeNaming.isPhrasing(element) {
            if addition.first != " " { addition += " " }
            if let last = result.last, last != " " { addition = " " + addition }
        }
        result += addition
    }

    /// `title`, except on presentational elements (iframes keep theirs).
    private func titleText(of element: Element) -> String {
        guard let title = element.attribute("title") else { return "" }
        if element.isHTML && element.localName == "iframe" { return title }
        let role = role(of: element)
        return role == "none" || role == "presentation" ? "" : title
    }

    /// Roles as axe's name computation reads them: one whole `role` value, no DPUB roles.
    private func role(of element: Element) -> String? { model.role(of: element, options: .axeDefault) }

    /// True the first time an element is seen in this computation.
    private mutating func markProcessed(_ element: Element) -> Bool {
        if let earlier = earlierMarks, let walk = earlier.markedBy[element.position], walk < earlier.before,
            !earlier.redone[walk]
        {
            return false
        }
        let inserted = processed.insert(element.position)
        if inserted { marks?.append(element.position) }
        return inserted
    }

    /// The label texts of SharedLabels: each label in turn, as `labelText` computes them.
    static func sharedLabelPieces(
        _ labels: [Element], model: AccessibilityModel
    ) -> (texts: [String], visits: [[Int]], marks: [[Int]]) {
        var computation = NameComputation(sharedLabelsOf: model, processed: ProcessedElements(), start: nil)
        var context = Context()
        context.inControlContext = true
        var result: (texts: [String], visits: [[Int]], marks: [[Int]]) = ([], [], [])
        for label in labels {
            computation.visits = []
            computation.marks = []
            result.texts.append(computation.text(of: label, context: context))
            result.visits.append(computation.visits ?? [])
            result.marks.append(computation.marks ?? [])
        }
        return result
    }

    /// One label's text for `start`, walked again with what the control's own computation would
    /// have processed there: `processed`, and what the recorded walks before `before` marked
    /// (unless redone). Returns the text and the elements it marked.
    static func sharedLabelWalk(
        _ label: Element, for start: Element, processed: ProcessedElements,
        earlierMarks: (markedBy: [Int: Int], before: Int, redone: [Bool]), model: AccessibilityModel
    ) -> (text: String, marks: [Int]) {
        var computation = NameComputation(sharedLabelsOf: model, processed: processed, start: start)
        computation.visits = nil
        computation.earlierMarks = earlierMarks
        var context = Context()
        context.inControlContext = true
        let text = computation.text(of: label, context: context)
        return (text, computation.marks ?? [])
    }
}

/// A labelledby or describedby reference's text as computed once (NameComputation.referenceText).
struct ReferenceText {
    struct Key: Hashable {
        let position: Int
        let subtreeDescendant: Bool?
    }

    let text: String
    /// The elements the walk reached: for one of them the walk would differ.
    let visits: Set<Int>
    /// How much deeper than where it started the walk went.
    let reach: Int
}

/// The `<label for>` texts of an id that several elements carry. axe (and so Canopy) gives every
/// element with the id all the labels naming it, so a page of n such controls and n labels cost
/// n² label walks (3,000 of each took minutes). Here the labels are walked once, in order, for no
/// control in particular, recording which elements each walk reached and marked. A control no
/// walk reached, and that no label wraps, gets the joined text as it is. For another, only the
/// walks that could differ are done again: those that reached it, then, in order, those that
/// reached an element whose processed state the walks done again (or its wrapping label's walk)
/// changed.
struct SharedLabels {
    let labels: [Element]
    let texts: [String]
    let joined: String
    /// Element position → the labels (by index, ascending) whose walks reached it.
    let visitors: [Int: [Int]]
    /// Per label, the elements its walk marked processed.
    let marks: [[Int]]
    /// Element position → the label whose walk marked it processed.
    let markedBy: [Int: Int]
    /// Label position → index in `labels`.
    let indexes: [Int: Int]

    init(labels: [Element], model: AccessibilityModel) {
        self.labels = labels
        let visits: [[Int]]
        (texts, visits, marks) = NameComputation.sharedLabelPieces(labels, model: model)
        joined = texts.filter { !$0.isEmpty }.joined(separator: " ")
        var visitors: [Int: [Int]] = [:]
        for (index, reached) in visits.enumerated() {
            for position in reached where visitors[position]?.last != index { visitors[position, default: []].append(index) }
        }
        self.visitors = visitors
        var markedBy: [Int: Int] = [:]
        for (index, marked) in marks.enumerated() {
            for position in marked { markedBy[position] = index }
        }
        self.markedBy = markedBy
        indexes = Dictionary(labels.enumerated().map { ($1.position, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// `labelText` of `control` at the start of its own name computation.
    func text(for control: Element, model: AccessibilityModel) -> String {
        let wrapping = model.wrappingLabel(of: control)
        if visitors[control.position] == nil && wrapping == nil { return joined }
        // The wrapping label's walk comes among the others in document order: right after its
        // own when it is one of them (it is walked twice, as labelText does), else before the
        // first label after it.
        let extraBefore = wrapping.map { wrapping in
            indexes[wrapping.position].map { $0 + 1 } ?? firstLabel(after: wrapping.position)
        }
        var redo = [Bool](repeating: false, count: labels.count)
        var redone = redo
        var processed = ProcessedElements()
        _ = processed.insert(control.position)
        // Walks from `index` on that reached an element whose processed state changed.
        func changed(_ positions: some Sequence<Int>, from index: Int) {
            for position in positions {
                for walk in visitors[position] ?? [] where walk >= index { redo[walk] = true }
            }
        }
        changed([control.position], from: 0)
        var pieces = texts
        var extra = ""
        for index in 0...labels.count {
            if index == extraBefore, let wrapping {
                let walk = NameComputation.sharedLabelWalk(
                    wrapping, for: control, processed: processed, earlierMarks: (markedBy, index, redone), model: model)
                extra = walk.text
                for position in walk.marks { _ = processed.insert(position) }
                changed(walk.marks, from: index)
            }
            guard index < labels.count, redo[index] else { continue }
            let walk = NameComputation.sharedLabelWalk(
                labels[index], for: control, processed: processed, earlierMarks: (markedBy, index, redone), model: model)
            pieces[index] = walk.text
            redone[index] = true
            for position in walk.marks { _ = processed.insert(position) }
            changed(Set(marks[index]).symmetricDifference(walk.marks), from: index + 1)
        }
        var result: [String] = []
        for (index, piece) in pieces.enumerated() {
            if index == extraBefore, !extra.isEmpty { result.append(extra) }
            if !piece.isEmpty { result.append(piece) }
        }
        if extraBefore == labels.count, !extra.isEmpty { result.append(extra) }
        return result.joined(separator: " ")
    }

    /// The index of the first label after `position` in document order (labels are in order).
    private func firstLabel(after position: Int) -> Int {
        var low = 0, high = labels.count
        while low < high {
            let middle = (low + high) / 2
            if labels[middle].position > position { high = middle } else { low = middle + 1 }
        }
        return low
    }
}

/// The elements a name computation has visited: most names visit a handful, which a short array
/// holds without the hashing and allocation of a set; large subtrees move on to a set.
struct ProcessedElements {
    private var few: [Int] = []
    private var many: Set<Int>?

    /// True when `position` was not there yet.
    mutating func insert(_ position: Int) -> Bool {
        if many != nil { return many!.insert(position).inserted }
        if few.contains(position) { return false }
        if few.count < 16 {
            few.append(position)
        } else {
            many = Set(few + [position])
        }
        return true
    }
}

/// axe's whitespace clean-up of names: non-breaking spaces become spaces, runs of two or more
/// whitespace characters collapse to one space, and the ends are trimmed.
public enum TextNormalization {
    static func sanitize(_ text: String) -> String {
        if text.isEmpty { return "" }
        if isAlreadyClean(text) { return text }
        var output = String.UnicodeScalarView()
        var pending: [Unicode.Scalar] = []
        var previousWasCarriageReturn = false
        for scalar in text.unicodeScalars {
            // axe first turns "\r\n" into "\n" and no-break spaces into spaces.
            if scalar == "\n" && previousWasCarriageReturn {
                previousWasCarriageReturn = false
                pending[pending.count - 1] = "\n"
                continue
            }
            previousWasCarriageReturn = scalar == "\r"
            let normalized: Unicode.Scalar = scalar == "\u{00A0}" ? " " : scalar
            if isJavaScriptWhitespace(normalized) {
                pending.append(normalized)
                continue
            }
            if !pending.isEmpty {
                if !output.isEmpty {
                    if pending.count >= 2 { output.append(" ") } else { output.append(pending[0]) }
                }
                pending.removeAll(keepingCapacity: true)
            }
            output.append(normalized)
        }
        return String(output)
    }

    /// ASCII text whose only whitespace is single spaces between other characters: most names,
    /// which then need no rebuilding.
    private static func isAlreadyClean(_ text: String) -> Bool {
        if let clean = text.utf8.withContiguousStorageIfAvailable(isAlreadyClean) { return clean }
        return isAlreadyClean(text.utf8)
    }

    private static func isAlreadyClean<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> Bool {
        var previousWasSpace = true  // a leading space is not clean
        for byte in bytes {
            if byte == 0x20 {
                if previousWasSpace { return false }
                previousWasSpace = true
            } else if byte < 0x20 || byte >= 0x7F {
                // Control characters include \t, \n, \v, \f, \r; non-ASCII may be a no-break or other space.
                return false
            } else {
                previousWasSpace = false
            }
        }
        return !previousWasSpace
    }

    /// JavaScript's `\s` (and what `trim()` removes): what axe's regular expressions treat as whitespace.
    public static func isJavaScriptWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF:
            return true
        default:
            return false
        }
    }
}
