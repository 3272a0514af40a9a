import CanopyAccessibility
import CanopyHTML
import CanopyStyle
import Foundation

/// One document of an audited page (the page itself or a frame's), with what the auditor keeps
/// for it: its context, the part in scope, its target describer and where it sits.
final class AuditedDocument {
    let page: PageContext
    let describer: NodeDescriber
    /// In scope by element position: the page's context for the page, everything in a frame
    /// (as axe audits a frame's whole document).
    var inScope: [Bool]
    /// The frame elements' selectors from the page down to this document.
    let framePath: [String]
    /// Those frame elements.
    let hosts: [Element]
    /// The positions of those frame elements, each in its own document: sorts nodes of all
    /// documents in the order a reader meets them, a frame's content at its frame element.
    let order: [Int]
    /// The addresses of this document and the documents framing it, to refuse cycles.
    let addresses: [String]

    init(
        document: Document, styles: StyleEnvironment, nameStepBudget: Int?, readsStyles: Bool,
        framePath: [String] = [], hosts: [Element] = [], order: [Int] = [], addresses: [String] = []
    ) {
        let computed = styles.styles(for: document)
        // Not when a sheet failed: every rule that reads styles then stops at its first element.
        computed.matchesAllRulesAtOnce = readsStyles && computed.index.failures.isEmpty
        self.page = PageContext(document: document, styles: computed, nameStepBudget: nameStepBudget)
        self.describer = NodeDescriber(document: document)
        self.inScope = [Bool](repeating: true, count: document.elementCount)
        self.framePath = framePath
        self.hosts = hosts
        self.order = order
        self.addresses = addresses + (document.url.map { [$0] } ?? [])
    }

    func node(_ element: Element, _ outcome: CheckOutcome, evidence: [String: EvidenceValue] = [:]) -> NodeResult {
        NodeResult(element: element, outcome: outcome, evidence: evidence, describer: describer, framePath: framePath, frameHosts: hosts)
    }

    /// Where `element` of this document comes in reading order across the page's documents.
    func readingOrder(of element: Element) -> [Int] { order + [element.position] }
}

/// Finds and loads the frames of an audited document, depth first, so that documents come in
/// the order their frame elements do.
struct FrameTree {
    let loader: any FrameLoading
    let limits: FrameLimits
    let environment: StyleEnvironment
    let auditor: Auditor

    private static let frameElements = try! SelectorList("iframe, frame")

    /// `requested`: the addresses asked of the loader, in order, each once.
    func load(framesOf parent: AuditedDocument, into documents: inout [AuditedDocument], requested: inout [String]) {
        let depth = parent.framePath.count + 1
        for frame in parent.page.elements(matching: Self.frameElements) where parent.inScope[frame.position] && frame.isHTML {
            // axe skips frames hidden from screen readers: nobody meets their content.
            if parent.page.accessibility.isHiddenFromAssistiveTechnology(frame) { continue }
            guard let content = content(of: frame, in: parent, depth: depth, audited: documents.count - 1, requested: &requested) else { continue }
            switch content {
            case .unavailable(let reason):
                parent.page.frames[frame.position] = .unavailable(reason)
            case .document(let document):
                let child = AuditedDocument(
                    document: document, styles: environment, nameStepBudget: auditor.nameStepBudget, readsStyles: auditor.readsStyles,
                    framePath: parent.framePath + [parent.describer.target(for: frame)], hosts: parent.hosts + [frame],
                    order: parent.readingOrder(of: frame), addresses: parent.addresses
                )
                child.page.host = FrameHost(element: frame, page: parent.page)
                parent.page.frames[frame.position] = .audited
                documents.append(child)
                load(framesOf: child, into: &documents, requested: &requested)
            }
        }
    }

    /// What the frame shows: its `srcdoc` (an iframe's, which wins over `src` as in browsers),
    /// or the document at its `src`; nil for a frame that shows nothing (no source, `about:blank`).
    private func content(of frame: Element, in parent: AuditedDocument, depth: Int, audited: Int, requested: inout [String]) -> FrameContent? {
        let srcdoc = frame.localName == "iframe" ? frame.attribute("srcdoc") : nil
        let source = frame.attribute("src")?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard srcdoc != nil || !(source.isEmpty || source.lowercased().hasPrefix("about:")) else { return nil }
        if depth > limits.maximumDepth { return .unavailable(reason: "nested more than \(limits.maximumDepth) frames deep") }
        if audited >= limits.maximumFrames { return .unavailable(reason: "the page has more than \(limits.maximumFrames) frames") }
        let base = parent.page.document.baseURL
        if let srcdoc {
            // The srcdoc's relative URLs resolve against its parent's base, as in browsers.
            return .document(HTMLParser().parse(html: srcdoc, url: base))
        }
        guard let url = URL(string: source, relativeTo: base.flatMap(URL.init(string:)))?.absoluteURL.absoluteString else {
            return .unavailable(reason: "its address \(source) is not a valid URL")
        }
        let scheme = url.prefix { $0 != ":" }.lowercased()
        guard ["http", "https", "file"].contains(scheme) else { return .unavailable(reason: "\(scheme): frames are not loaded") }
        let withoutFragment = url.split(separator: "#", maxSplits: 1).first.map(String.init) ?? url
        if parent.addresses.contains(withoutFragment) { return .unavailable(reason: "it frames a page that frames it") }
        if !requested.contains(withoutFragment) { requested.append(withoutFragment) }
        return loader.frameDocument(at: withoutFragment)
    }
}

/// How a rule's results over a page's documents become the page's (axe's `after` step).
enum FrameMerge {
    static func merge(_ perDocument: [[NodeResult]], of rule: any Rule, in documents: [AuditedDocument]) -> [NodeResult] {
        if let unique = rule as? any UniqueAcrossFramesRule { return mergeUnique(perDocument, by: unique, in: documents) }
        if rule is any SatisfiedByAnyFrameRule { return mergeSatisfied(perDocument, in: documents) }
        return perDocument.flatMap { $0 }
    }

    /// Groups the documents' first-of-a-kind elements across documents: in reading order the
    /// first of a group spanning documents takes the duplicate's outcome, later ones are dropped.
    private static func mergeUnique(_ perDocument: [[NodeResult]], by rule: any UniqueAcrossFramesRule, in documents: [AuditedDocument]) -> [NodeResult] {
        struct Entry {
            let document: Int
            let index: Int
            let key: String?
            let order: [Int]
        }
        var entries: [Entry] = []
        for (document, nodes) in perDocument.enumerated() {
            for (index, node) in nodes.enumerated() {
                let audited = documents[document]
                entries.append(Entry(
                    document: document, index: index, key: rule.uniquenessKey(of: node.element, on: audited.page),
                    order: audited.readingOrder(of: node.element)
                ))
            }
        }
        entries.sort { $0.order.lexicographicallyPrecedes($1.order) }
        var groups: [String: [Entry]] = [:]
        for entry in entries { if let key = entry.key { groups[key, default: []].append(entry) } }
        // Each document's nodes in place: the first of a group spanning documents takes the
        // duplicate's outcome, later members become nil and are dropped.
        var kept: [[NodeResult?]] = perDocument.map { $0.map(Optional.some) }
        for members in groups.values {
            guard Set(members.map(\.document)).count > 1, let first = members.first else { continue }
            let node = perDocument[first.document][first.index]
            let outcome = rule.duplicated(node.element, on: documents[first.document].page, twinsInOtherDocuments: members.count - 1)
            kept[first.document][first.index] = node.with(outcome)
            for later in members.dropFirst() { kept[later.document][later.index] = nil }
        }
        return kept.flatMap { $0.compactMap { $0 } }
    }

    /// A page passes when any of its documents does; when none does and a frame could not be
    /// loaded, what was missing may be in that frame, so the failures become reviews.
    private static func mergeSatisfied(_ perDocument: [[NodeResult]], in documents: [AuditedDocument]) -> [NodeResult] {
        let all = perDocument.flatMap { $0 }
        let satisfied = all.contains { $0.outcome == .pass }
        let unloaded = documents.lazy.flatMap { $0.page.frames.values }.first { if case .unavailable = $0 { true } else { false } }
        return all.map { node in
            guard case .violation = node.outcome else { return node }
            if satisfied { return node.with(.pass) }
            if case .unavailable(let reason)? = unloaded {
                return node.with(.incomplete("Not found on the page or in its frames, but a frame could not be audited (\(reason)) and may hold it."))
            }
            return node
        }
    }
}

extension NodeResult {
    /// The same node with another outcome.
    func with(_ outcome: CheckOutcome) -> NodeResult {
        NodeResult(element: element, outcome: outcome, evidence: evidence, describer: describer, framePath: framePath, frameHosts: frameHosts)
    }
}
