import CanopyHTML
import CanopyStore
/// Groups a run's URLs into page types (templates) by collapsing the path segments that vary from
/// page to page: `/product/123-blue-shirt` and `/product/456-red-hat` are both `/product/*`.
///
/// Two rules collapse a segment to `*`:
/// - on its own: numbers, UUIDs and long hex ids, slugs carrying a number (`VolatileValues`);
/// - learned from the run: below a common prefix, a position with at least
///   `minimumDistinctValues` different values (`/docs/intro`, `/docs/install`, ...) is one
///   template. First segments are never learned: `/about`, `/contact`, `/blog` are sections.
///
/// Prefixes that collapsed in the previous run keep collapsing while they have two or more
/// values, so a section shrinking below the threshold for a week does not rename its pages' type
/// (which would make all their issues look fixed and new again).
///
/// The query string keeps only its parameter names (`/search?q=*`); the host appears only when a
/// run spans several hosts.
public struct PageTypeClassifier: Sendable {
    public var minimumDistinctValues: Int

    public init(minimumDistinctValues: Int = 5) {
        self.minimumDistinctValues = minimumDistinctValues
    }

    /// The page type of each URL.
    /// - Parameter stickyPrefixes: prefixes that collapsed in the previous run
    ///   (`collapsedPrefixes(of:)` of its page types).
    public func pageTypes(for urls: [String], stickyPrefixes: Set<String> = []) -> [String: String] {
        var learning = learning()
        for url in urls { learning.add(url) }
        let classification = learning.classification(stickyPrefixes: stickyPrefixes)
        var types: [String: String] = [:]
        for url in urls { types[url] = classification.pageType(of: url) }
        return types
    }

    /// Learns a run's templates from its URLs given one at a time, keeping only the tree of their
    /// path segments, so that a run of 100,000 pages need not hold its URLs: they are read once
    /// to learn and once to classify.
    public func learning() -> Learning { Learning(threshold: minimumDistinctValues) }

    public struct Learning {
        let threshold: Int
        /// One tree per host (nil: a URL without one): whether a host segment leads the page
        /// types depends on how many hosts there are, known only at the end.
        private var trees: [String?: Node] = [:]

        init(threshold: Int) {
            self.threshold = threshold
        }

        public mutating func add(_ url: String) {
            let parts = URLParts(url)
            let host = parts.host?.lowercased()
            let tree = trees[host] ?? Node()
            trees[host] = tree
            tree.insert(Classification.segments(of: parts)[...])
        }

        /// - Parameter stickyPrefixes: prefixes that collapsed in the previous run
        ///   (`collapsedPrefixes(of:)` of its page types).
        public func classification(stickyPrefixes: Set<String> = []) -> Classification {
            let byHost = trees.keys.compactMap { $0 }.count > 1
            let root = Node()
            for (host, tree) in trees {
                if byHost {
                    let segment = "//" + (host ?? "")
                    if let existing = root.children[segment] { existing.merge(tree) } else { root.children[segment] = tree }
                } else {
                    root.merge(tree)
                }
            }
            let collapsed = root.collapsingVariablePositions(
                depth: 0, prefix: "", firstLearnableDepth: byHost ? 2 : 1, threshold: threshold, sticky: stickyPrefixes
            )
            return Classification(tree: collapsed, byHost: byHost)
        }
    }

    /// What a run's URLs taught: the page type of any of them.
    public struct Classification {
        fileprivate let tree: Node
        let byHost: Bool

        static func segments(of parts: URLParts) -> [String] {
            let path = parts.path
            // Split by bytes where each is a character: split by characters, this was most of
            // learning and naming a page's type.
            guard path.isOneCharacterPerByte else { return segmentsByCharacters(of: path) }
            return path.utf8.split(separator: UInt8(ascii: "/")).map { VolatileValues.collapsedSegment(Substring($0)) }
        }

        /// `segments(of:)` by characters: the definition, and the path for other paths.
        static func segmentsByCharacters(of path: Substring) -> [String] {
            path.split(separator: "/", omittingEmptySubsequences: true).map(VolatileValues.collapsedSegment)
        }

        public func pageType(of url: String) -> String {
            let parts = URLParts(url)
            var segments = Self.segments(of: parts)
            if byHost { segments.insert("//" + (parts.host?.lowercased() ?? ""), at: 0) }
            var node = tree
            var pattern = ""
            for segment in segments {
                let step = node.children[segment] != nil ? segment : "*"
                guard let next = node.children[step] else { break }
                pattern += (step.hasPrefix("//") ? "" : "/") + step
                node = next
            }
            if pattern.isEmpty || pattern.hasPrefix("//") && !pattern.dropFirst(2).contains("/") { pattern += "/" }
            if let query = parts.query, !query.isEmpty {
                let names = Set(query.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).first.map(String.init) ?? "" })
                pattern += "?" + names.sorted().map { $0 + "=*" }.joined(separator: "&")
            }
            return pattern
        }
    }

    /// The prefixes at which a set of page types collapsed (`/docs/*` → `/docs/`), to pass as
    /// `stickyPrefixes` to the next run's classification.
    public static func collapsedPrefixes(of pageTypes: some Sequence<String>) -> Set<String> {
        var prefixes: Set<String> = []
        for pageType in pageTypes {
            let path = pageType.split(separator: "?", maxSplits: 1).first.map(String.init) ?? pageType
            var prefix = ""
            for (index, segment) in path.split(separator: "/", omittingEmptySubsequences: true).enumerated() {
                if segment == "*" { prefixes.insert(prefix + "/") }
                // A run over several hosts starts its page types with `//host`.
                prefix += (index == 0 && path.hasPrefix("//") ? "//" : "/") + segment
            }
        }
        return prefixes
    }

    /// A trie of path segments; collapsing produces a new trie where variable positions are `*`.
    fileprivate final class Node {
        var children: [String: Node] = [:]

        func insert(_ segments: ArraySlice<String>) {
            guard let first = segments.first else { return }
            let child = children[first] ?? Node()
            children[first] = child
            child.insert(segments.dropFirst())
        }

        func merge(_ other: Node) {
            for (segment, otherChild) in other.children {
                if let mine = children[segment] { mine.merge(otherChild) } else { children[segment] = otherChild.copy() }
            }
        }

        func copy() -> Node {
            let node = Node()
            for (segment, child) in children { node.children[segment] = child.copy() }
            return node
        }

        func collapsingVariablePositions(depth: Int, prefix: String, firstLearnableDepth: Int, threshold: Int, sticky: Set<String>) -> Node {
            let result = Node()
            let distinct = children.count
            let learned = depth >= firstLearnableDepth && (distinct >= threshold || (distinct >= 2 && sticky.contains(prefix + "/")))
            if learned {
                let merged = Node()
                for child in children.values { merged.merge(child) }
                result.children["*"] = merged.collapsingVariablePositions(
                    depth: depth + 1, prefix: prefix + "/*", firstLearnableDepth: firstLearnableDepth, threshold: threshold, sticky: sticky
                )
            } else {
                for (segment, child) in children {
                    let childPrefix = prefix + (segment.hasPrefix("//") ? segment : "/" + segment)
                    result.children[segment] = child.collapsingVariablePositions(
                        depth: depth + 1, prefix: childPrefix, firstLearnableDepth: firstLearnableDepth, threshold: threshold, sticky: sticky
                    )
                }
            }
            return result
        }
    }
}
