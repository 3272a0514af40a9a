import CanopyStore
import CanopyHTML
import CanopyRules

extension FindingRecord {
    /// Every violation and incomplete node of an audit as findings, each fingerprinted.
    /// - Parameter owner: the vendor owning an element of the page (from the configured vendor
    ///   selectors), nil for first-party markup; a frame's content belongs to its frame element's owner.
    public static func findings(
        of audit: AuditResult, fingerprinter: PageFingerprinter, owner: (Element) -> String? = { _ in nil }
    ) -> [FindingRecord] {
        // Every finding with its target first, then the target selectors' tables let go: on a page
        // of thousands of findings, they and the fingerprints' tables held at once made a styled
        // crawl's peak (javadoc's uses of `String`: 4 MB and 8 MB).
        var described: [(node: NodeResult, finding: Finding)] = []
        // Room for every node listed (passes are listed only beside frames): grown by doubling,
        // this array was 4.1 MB for javadoc's index page of 8,241 findings, half of it unused,
        // and the largest part of what a styled crawl holds above an unstyled one's peak (massif).
        described.reserveCapacity(audit.rules.reduce(0) { $0 + $1.nodes.count })
        for rule in audit.rules {
            for node in rule.nodes {
                if let finding = node.finding(of: rule.metadata) { described.append((node, finding)) }
            }
        }
        audit.releaseTargetSelectorTables()
        var findings: [FindingRecord] = []
        findings.reserveCapacity(described.count)
        var frameFingerprinters: [ObjectIdentifier: PageFingerprinter] = [:]
        for (node, finding) in described {
            guard let outermost = node.frameHosts.first else {
                findings.append(FindingRecord(finding, owner: owner(node.element), identity: fingerprinter.identity(of: node.element)))
                continue
            }
            // A frame's finding is the frame element's on the page, refined by where it sits in
            // each framed document: as stable as the frame element's own identity.
            var chain = [fingerprinter.identity(of: outermost)]
            for element in node.frameHosts.dropFirst() + [node.element] {
                let document = element.document
                let inner = frameFingerprinters[ObjectIdentifier(document)] ?? PageFingerprinter(document: document)
                frameFingerprinters[ObjectIdentifier(document)] = inner
                chain.append(inner.identity(of: element))
            }
            findings.append(FindingRecord(finding, owner: owner(outermost), identity: FindingIdentity(framed: chain)))
        }
        return findings
    }
}

extension PageRecord {
    /// Passing nodes per rule of an audit, as `PageRecord.passCounts` keeps them.
    public static func passCounts(of audit: AuditResult) -> [String: Int] {
        var counts: [String: Int] = [:]
        for rule in audit.rules {
            let passes = rule.passCount
            if passes > 0 { counts[rule.metadata.id, default: 0] += passes }
        }
        return counts
    }
}

extension FindingIdentity {
    /// One identity for an element inside frames, from the identities of the frame elements that
    /// lead to it and its own: placed in the component that holds the outermost frame element.
    init(framed chain: [FindingIdentity]) {
        func combined(_ first: String) -> String {
            var hasher = StableHasher()
            hasher.combine(first)
            for identity in chain.dropFirst() { hasher.combine(identity.elementSignature) }
            return hasher.hex
        }
        let outer = chain[0]
        self.init(
            elementSignature: combined(outer.elementSignature),
            component: outer.component.map { ComponentPlacement(candidate: $0.candidate, elementSignature: combined($0.elementSignature)) }
        )
    }
}
