import CanopyAccessibility
import CanopyHTML
import CanopyStyle
import Foundation

/// What a frame's `src` gave, as the crawl or check loading it found it.
public enum FrameContent: Sendable {
    case document(Document)
    /// Not loaded: outside the crawl's origins, failed, not HTML, ... The reason is shown on the
    /// verdicts the frame's content could have changed.
    case unavailable(reason: String)
}

/// Loads the documents a page's `<iframe src>` and `<frame src>` show. Each crawl or check
/// brings its own (fetched with the crawl's settings, read from disk beside a checked file, or
/// from a test's folder), so the engine never reaches the network itself.
public protocol FrameLoading: Sendable {
    /// The document at `url`, an absolute URL resolved by the auditor.
    func frameDocument(at url: String) -> FrameContent
}

/// How far frames are followed, so that a page framing itself, or a thousand frames, cost a
/// bounded amount of work.
public struct FrameLimits: Sendable, Hashable {
    /// Frames inside frames inside the page: the page's own frames are depth 1.
    public var maximumDepth: Int
    /// Frame documents audited per page, all depths together.
    public var maximumFrames: Int

    public init(maximumDepth: Int = 5, maximumFrames: Int = 50) {
        self.maximumDepth = maximumDepth
        self.maximumFrames = maximumFrames
    }
}

/// The frame element a document is shown in, for rules that judge a frame's content through its
/// host: whether the host is in the tab order (frame-focusable-content), whether it sits in a
/// landmark (region).
public struct FrameHost {
    /// The `<iframe>` or `<frame>` element, in the parent document.
    public let element: Element
    /// The parent document's context.
    public let page: PageContext

    /// Whether keyboard users can reach the frame: every frame on the way up keeps its
    /// `tabindex` unset or not negative (axe's frame context `focusable`).
    public var isInTabOrder: Bool {
        if let tabIndex = page.accessibility.tabIndex(of: element), tabIndex < 0 { return false }
        return page.host?.isInTabOrder ?? true
    }

    /// The frame's box, from its `width`/`height` attributes, then its computed `width`/`height`
    /// in pixels, then the size browsers give a frame without either (300×150). Nil for a
    /// dimension the static styles cannot tell (a percentage, `calc()`).
    public var size: (width: Double?, height: Double?) {
        (dimension(.width, default: 300), dimension(.height, default: 150))
    }

    private func dimension(_ property: CSSProperty, default fallback: Double) -> Double? {
        // As axe reads it: parseInt of the attribute, so "2px" and "2.9" are 2.
        if let attribute = element.attribute(property.name), let value = JavaScriptNumbers.parseInt(attribute) { return Double(value) }
        guard let declared = page.styles.declaredValue(property, of: element)?.trimmingCharacters(in: .whitespaces).lowercased(),
            !declared.isEmpty, declared != "auto"
        else { return fallback }
        if declared.hasSuffix("px"), let pixels = Double(declared.dropLast(2)) { return pixels }
        if let number = Double(declared), number == 0 { return 0 }
        return nil
    }
}

/// What became of a frame element of an audited document.
public enum FrameOutcome: Sendable, Equatable {
    case audited
    /// Not audited; the reason says why (cross-origin, failed, too deep, hidden frames are not
    /// counted here: axe skips them too).
    case unavailable(String)
}

/// How many frames a page's audit loaded and how many it could not, for coverage.
public struct FrameCounts: Sendable, Hashable, Codable {
    public var audited = 0
    public var unavailable = 0

    public init(audited: Int = 0, unavailable: Int = 0) {
        self.audited = audited
        self.unavailable = unavailable
    }
}

/// A rule whose elements must differ across the page and all its frames, not only within one
/// document (axe's `after` step for landmark-unique and accesskeys): the first element of each
/// group, in the order a screen reader meets them, carries the result; later ones are dropped.
public protocol UniqueAcrossFramesRule: Rule {
    /// What makes two elements indistinguishable (role and name, a key); nil: not grouped.
    func uniquenessKey(of element: Element, on page: PageContext) -> String?
    /// The outcome of the first element of a group that has `twins` more members in the other
    /// documents of the page.
    func duplicated(_ element: Element, on page: PageContext, twinsInOtherDocuments twins: Int) -> CheckOutcome
}

/// A rule about the page as a whole that a frame can satisfy (page-has-heading-one,
/// landmark-one-main): when any document of the page passes, every document does.
public protocol SatisfiedByAnyFrameRule: Rule {}
