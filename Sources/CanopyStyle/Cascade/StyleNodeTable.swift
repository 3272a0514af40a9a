import CanopyHTML
import Foundation

/// Style nodes and everything worked out for them, for one rule index: what a page's cascade
/// keeps by node rather than by element (see `ComputedStyles`).
///
/// A node is decided by its name, namespace, `style` attribute, `SelectorInputs` signature,
/// matches among the rules that read surroundings, and its parent's node: nothing of the page it
/// was first seen on. So the pages of a crawl that share an index may share one table, and a
/// site whose pages repeat the same few hundred nodes matches and computes each once per worker,
/// not once per page. A table serves one page at a time (`StyleNodeTablePool`).
final class StyleNodeTable {
    let index: StyleRuleIndex

    // Node identity.
    /// By node: the next node with the same key (-1: none).
    var nextWithSameKey: [Int32] = []
    /// By node: its signature (selector inputs, then the rules that read surroundings it
    /// matches, as -1 - rule), a run in `signatures`.
    var signatureRuns: [Range<Int32>] = []
    var signatures: [Int32] = []
    /// By node: name, namespace and `style` attribute, checked on a hash hit.
    var localNames: [String] = []
    var namespaces: [Namespace] = []
    var styleTexts: [String?] = []
    /// By node: its parent's node (-1: none), checked on a hash hit.
    var parents: [Int32] = []
    /// The last node of each key (parent and signature hashed together), the others chained
    /// behind it through `nextWithSameKey`.
    var byKey = PrehashedTable<Int32>()

    /// A node's key: the hash of what it shares with its kind, folded with its parent's node.
    static func key(parent: Int32, hash: Int) -> UInt64 {
        UInt64(bitPattern: Int64(hash)) ^ (UInt64(UInt32(bitPattern: parent)) &* 0x9E37_79B9_7F4A_7C15)
    }

    var count: Int { localNames.count }

    func signature(of node: Int) -> ArraySlice<Int32> {
        let run = signatureRuns[node]
        return signatures[Int(run.lowerBound)..<Int(run.upperBound)]
    }

    // What each node matches and computes.
    /// Matched declaration blocks of each node (sorted by priority, highest first), for all
    /// properties and for the visibility properties: one flat buffer per kind, and per node
    /// where its run starts and how long it is. A page of a million elements must not cost a
    /// million small arrays.
    var allMatches = MatchTable()
    var visibilityMatches = MatchTable()
    /// Parsed `style` attributes by node (nil inside: none).
    var inlineStyles: [Int32: DeclarationBlock?] = [:]
    /// Computed values by property and node, as indices into `valueTexts` (-1: not computed
    /// yet); allocated when a property is first asked. Nodes are few, so every property is kept:
    /// a background is asked again for each text element above which it lies.
    var computedValues: [[Int32]] = Array(repeating: [], count: CSSProperty.allCases.count)
    var valueTexts: [String] = []
    /// `valueTexts` lowercased, each made when first asked.
    var lowercasedTexts: [String?] = []
    var valueIndices: [String: Int32] = [:]
    /// Custom properties by node and name (nil inside: guaranteed-invalid).
    var customValues: [Int32: [String: String?]] = [:]
    /// Whether a node may paint a background.
    var backgroundAnswers = NodeValues<Bool>()
    /// Whether rules style a pseudo-element of a node, by pseudo-element.
    var pseudoElementAnswers: [String: NodeValues<Bool>] = [:]
    /// Parsed colours by property and node.
    var parsedColors = Array(repeating: NodeValues<RGBA>(), count: CSSProperty.allCases.count)
    /// Resolved font sizes by node (nil inside: cannot be resolved), for the typed accessors.
    var fontSizes = NodeValues<Double>()
    /// Resolved font weights by node, the same way.
    var fontWeights = NodeValues<Double>()
    /// `opacity` as a number by node.
    var opacities = NodeValues<Double>()
    /// What `display` says by node (`ComputedStyles.displayKind`).
    var displayKinds = NodeValues<UInt8>()
    /// What hides a node (`ComputedStyles.concealment`).
    var concealments = NodeValues<UInt8>()
    /// What callers derive from a node's computed values alone, by the caller's key
    /// (`ComputedStyles.nodeFacts`).
    var callerFacts: [ObjectIdentifier: AnyObject] = [:]

    init(index: StyleRuleIndex) {
        self.index = index
    }

    struct MatchTable {
        /// Per node: start << 24 | count + 1 (0: not matched yet).
        var runs: [UInt64] = []
        var blocks: [MatchedBlock] = []

        func run(at node: Int) -> ArraySlice<MatchedBlock>? {
            guard node < runs.count else { return nil }
            let packed = runs[node]
            guard packed != 0 else { return nil }
            let start = Int(packed >> 24), count = Int(packed & 0xFF_FFFF) - 1
            return blocks[start..<(start + count)]
        }

        mutating func store(_ matched: [MatchedBlock], at node: Int) -> ArraySlice<MatchedBlock> {
            let start = blocks.count
            blocks.append(contentsOf: matched)
            runs.grow(toHold: node, with: 0)
            runs[node] = UInt64(start) << 24 | UInt64(min(matched.count, 0xFF_FFFE) + 1)
            return blocks[start..<blocks.count]
        }
    }

    struct MatchedBlock {
        let key: UInt64
        let block: Int32
        /// Inline style of the element itself (not in `index.blocks`).
        var isInline: Bool { block < 0 }
        var important: Bool { key >> 63 == 1 }
    }
}

/// Idle node tables of a crawl, by rule index: a page's cascade takes one when made and gives it
/// back when released, so each worker keeps reusing one while no two pages write to the same.
final class StyleNodeTablePool: @unchecked Sendable {
    private let lock = NSLock()
    private var idle: [ObjectIdentifier: [StyleNodeTable]] = [:]
    /// A table with more nodes than this is dropped rather than kept: a site whose pages share
    /// little would otherwise grow it with every page, and memory must stay flat in the pages.
    static let maximumNodes = 16_384

    func take(for index: StyleRuleIndex) -> StyleNodeTable {
        lock.lock()
        defer { lock.unlock() }
        return idle[ObjectIdentifier(index)]?.popLast() ?? StyleNodeTable(index: index)
    }

    /// `isCurrent` says whether the table's index is still in use: tables of an index the
    /// environment dropped are dropped too.
    func giveBack(_ table: StyleNodeTable, isCurrent: Bool) {
        guard isCurrent, table.count <= Self.maximumNodes else { return }
        lock.lock()
        defer { lock.unlock() }
        idle[ObjectIdentifier(table.index), default: []].append(table)
    }

    /// Forgets the tables of an index the environment no longer keeps.
    func drop(_ index: StyleRuleIndex) {
        lock.lock()
        defer { lock.unlock() }
        idle[ObjectIdentifier(index)] = nil
    }
}
