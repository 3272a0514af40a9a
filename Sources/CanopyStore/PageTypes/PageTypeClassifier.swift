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
        let parsed = urls.map { URLParts($0) }
        let hosts = Set(parsed.compactMap { $0.host?.lowercased() })
        let root = Node()
        var paths: [[String]] = []
        paths.reserveCapacity(urls.count)
        for parts in parsed {
            var segments = parts.path.split(separator: "/", omittingEmptySubsequences: true).map(VolatileValues.collapsedSegment)
            if hosts.count > 1 { segments.insert("//" + (parts.host?.lowercased() ?? ""), at: 0) }
            paths.append(segments)
            root.insert(segments[...])
        }
        let firstLearnableDepth = hosts.count > 1 ? 2 : 1
        let collapsed = root.collapsingVariablePositions(
            depth: 0, prefix: "", firstLearnableDepth: firstLearnableDepth, threshold: minimumDistinctValues, sticky: stickyPrefixes
        )
        var types: [String: String] = [:]
        for (index, url) in urls.enumerated() {
            var node = collapsed
            var pattern = ""
            for segment in paths[index] {
                let step = node.children[segment] != nil ? segment : "*"
                guard let next = node.children[step] else { break }
                pattern += (step.hasPrefix("//") ? "" : "/") + step
                node = next
            }
            if pattern.isEmpty || pattern.hasPrefix("//") && !pattern.dropFirst(2).contains("/") { pattern += "/" }
            if let query = parsed[index].query, !query.isEmpty {
                let names = Set(query.split(separator: "&").map { $0.split(separator: "=", maxSplits: 1).first.map(String.init) ?? "" })
                pattern += "?" + names.sorted().map { $0 + "=*" }.joined(separator: "&")
            }
            types[url] = pattern
        }
        return types
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
    private final class Node {
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
