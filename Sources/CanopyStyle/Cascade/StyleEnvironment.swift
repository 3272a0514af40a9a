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
    private var indexes: [[StyleSheetReference]: StyleRuleIndex] = [:]
    private var indexOrder: [[StyleSheetReference]] = []
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

    /// The cascade for `document`, sharing the rule index with earlier pages that use the same sheets.
    public func styles(for document: Document) -> ComputedStyles {
        ComputedStyles(document: document, index: index(for: document), viewport: viewport)
    }

    public func index(for document: Document) -> StyleRuleIndex {
        let references = StyleSheetReference.references(in: document).map { reference -> StyleSheetReference in
            // Keyed by the URL the href stands for: the same href means different sheets in different folders.
            guard case .linked(let href) = reference.source, let loader else { return reference }
            return StyleSheetReference(source: .linked(href: loader.resolve(href, relativeTo: document.url)), media: reference.media)
        }
        lock.lock()
        if let known = indexes[references] {
            lock.unlock()
            return known
        }
        lock.unlock()
        // Built outside the lock: loading may wait on the network. Two workers may build the same
        // index at once; both results are equal, the second one stored is kept.
        // A sheet that failed stays failed for the rest of the run (the loader asks once per URL).
        let built = StyleRuleIndex(references: references, pageURL: document.url, viewport: viewport, loader: loader)
        lock.lock()
        defer { lock.unlock() }
        if indexes[references] == nil {
            if indexOrder.count >= capacity { indexes[indexOrder.removeFirst()] = nil }
            indexOrder.append(references)
        }
        indexes[references] = built
        return built
    }
}
