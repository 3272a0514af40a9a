import CanopyHTML
import Foundation

/// What styling a page needs besides the page: the viewport, where linked sheets come from, and
/// the rule indexes already built for the sets of sheets seen so far. One per crawl (or check),
/// shared by its workers.
public final class StyleEnvironment: @unchecked Sendable {
    public let viewport: Viewport
    public let loader: (any StyleSheetLoading)?
    private let lock = NSLock()
    /// Rule indexes by the page's list of sheets (URLs, or the text of `<style>` elements); most
    /// pages of a site share one.
    private var indexes: [IndexKey: StyleRuleIndex] = [:]
    private var indexOrder: [IndexKey] = []

    /// What decides a page's rule index: its sheets, and the base URL when a `<style>` element
    /// imports (pages in other folders importing the same relative URL import other sheets).
    private struct IndexKey: Hashable {
        let references: [StyleSheetReference]
        let importBase: String?
    }
    /// Distinct sets of sheets kept at once; a site rarely has more than a handful.
    private let capacity: Int

    public init(viewport: Viewport = .desktop, loader: (any StyleSheetLoading)?, capacity: Int = 64) {
        self.viewport = viewport
        self.loader = loader
        self.capacity = capacity
    }

    /// No linked sheets: `<style>` and `style=""` only; a linked sheet counts as failed.
    public static func embeddedOnly(viewport: Viewport = .desktop) -> StyleEnvironment {
        StyleEnvironment(viewport: viewport, loader: nil)
    }

    /// Node tables of the indexes kept, idle between pages.
    private let nodeTables = StyleNodeTablePool()

    /// The cascade for `document`, sharing the rule index, and the style nodes worked out so far,
    /// with earlier pages that use the same sheets. The nodes are lent to one page at a time:
    /// pages audited at once each get a table of their own.
    public func styles(for document: Document) -> ComputedStyles {
        let index = index(for: document)
        return ComputedStyles(document: document, viewport: viewport, table: nodeTables.take(for: index)) { [weak self] table in
            self?.giveBack(table)
        }
    }

    private func giveBack(_ table: StyleNodeTable) {
        lock.lock()
        defer { lock.unlock() }
        // Under the lock, so that an index dropped meanwhile cannot get a table back.
        nodeTables.giveBack(table, isCurrent: indexes.values.contains { $0 === table.index })
    }

    public func index(for document: Document) -> StyleRuleIndex {
        // Relative hrefs and a `<style>` element's imports resolve against `<base href>`, as in a browser.
        let base = document.baseURL
        let references = StyleSheetReference.references(in: document).map { reference -> StyleSheetReference in
            // Keyed by the URL the href stands for: the same href means different sheets in different folders.
            guard case .linked(let href) = reference.source, let loader else { return reference }
            return StyleSheetReference(source: .linked(href: loader.resolve(href, relativeTo: base)), media: reference.media)
        }
        let importsFromStyleElement = references.contains { reference in
            guard case .embedded(let text) = reference.source else { return false }
            return text.containsASCIICaseInsensitive("@import")
        }
        let key = IndexKey(references: references, importBase: importsFromStyleElement ? base : nil)
        lock.lock()
        if let known = indexes[key] {
            lock.unlock()
            return known
        }
        lock.unlock()
        // Built outside the lock: loading may wait on the network. Two workers may build the same
        // index at once; both results are equal, and the first one stored is kept, so that both
        // workers' pages share its style nodes.
        // A sheet that failed stays failed for the rest of the run (the loader asks once per URL).
        let built = StyleRuleIndex(references: references, pageURL: base, viewport: viewport, loader: loader)
        lock.lock()
        defer { lock.unlock() }
        if let stored = indexes[key] { return stored }
        if indexOrder.count >= capacity, let dropped = indexes.removeValue(forKey: indexOrder.removeFirst()) {
            nodeTables.drop(dropped)
        }
        indexOrder.append(key)
        indexes[key] = built
        return built
    }
}
