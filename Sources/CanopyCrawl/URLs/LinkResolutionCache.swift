import Foundation

/// Link references resolved by the pages of one crawl, by base folder and reference: the pages of
/// a folder repeat the same relative links (javadoc's navigation and type names: more than half of
/// java.base's 150,000 resolutions), and resolving a reference reads and rewrites its whole path.
/// Shared by the crawl's workers, so locked; bounded, so a crawl of any size holds at most
/// `limit` entries. Only references whose answer depends on nothing but the base's scheme,
/// authority and folder are kept (`URLNormalizer.resolve(_:in:)` decides).
public final class LinkResolutionCache: @unchecked Sendable {
    /// One page's base, with the number of its folder in the cache.
    public struct Scope: Sendable {
        public let base: CrawlURL
        let folder: Int
        let cache: LinkResolutionCache
    }

    private struct Key: Hashable {
        let folder: Int
        let reference: String
    }

    private let lock = NSLock()
    private var entries: [Key: Result<CrawlURL, URLRejection>] = [:]
    /// Folder texts (scheme, authority, path up to its last "/") by number. Numbers are never
    /// given twice, so a page still holding a scope from before the cache was emptied is only
    /// answered from scratch.
    private var folders: [String: Int] = [:]
    private var nextFolder = 0
    private let limit: Int

    public init(limit: Int = 20_000) {
        self.limit = limit
    }

    /// How many resolutions are kept (for tests).
    public var count: Int { lock.withLock { entries.count } }

    /// The scope of a page whose links are resolved against `base`.
    public func scope(for base: CrawlURL) -> Scope {
        let path = base.path.utf8
        let end = path.lastIndex(of: UInt8(ascii: "/")).map { path.index(after: $0) } ?? path.endIndex
        var folder = base.scheme + "://" + base.host
        if let port = base.port { folder += ":" + String(port) }
        folder += base.path[..<end]
        return lock.withLock {
            if let known = folders[folder] { return Scope(base: base, folder: known, cache: self) }
            nextFolder += 1
            folders[folder] = nextFolder
            return Scope(base: base, folder: nextFolder, cache: self)
        }
    }

    subscript(folder: Int, reference: String) -> Result<CrawlURL, URLRejection>? {
        get { lock.withLock { entries[Key(folder: folder, reference: reference)] } }
        set {
            lock.withLock {
                // Emptied when full rather than evicting one by one: sites whose pages share
                // their links fill it again within a few pages.
                if entries.count >= limit {
                    entries.removeAll(keepingCapacity: true)
                    folders.removeAll(keepingCapacity: true)
                }
                entries[Key(folder: folder, reference: reference)] = newValue
            }
        }
    }
}
