import CanopyAccessibility
import CanopyHTML

/// A frame taken out of the tab order (`tabindex="-1"`) takes its content with it in some
/// browsers: links and buttons inside it can no longer be reached with Tab.
///
/// Judged inside the frame's document, on its root element, as axe does; a frame whose document
/// could not be loaded is left for review on the frame element itself.
public struct FrameFocusableContentRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "frame-focusable-content",
        impact: .serious,
        tags: ["cat.keyboard", "wcag2a", "wcag211", "TTv5", "TT4.a", "EN-301-549", "EN-9.2.1.1", "RGAAv4", "RGAA-7.3.2"],
        description: "Checks that frames with content keyboard users can tab to are not taken out of the tab order",
        help: "A frame with focusable content must not have tabindex=-1",
        howToFix: "Remove the negative tabindex from the frame, or take the links and controls inside it out of the tab order too if they are not meant to be used.",
        enabledByDefault: true,
        rationale: "Content inside a frame removed from the tab order cannot be reached with the keyboard."
    )

    public let selector = try! SelectorList("html:root, iframe, frame")

    public func applies(to element: Element, on page: PageContext) -> Bool {
        if element.localName == "html" {
            guard let host = page.host else { return false }
            return !host.isInTabOrder && Self.isLargerThanAPixel(host)
        }
        // A frame whose document the audit tried and failed to load: its content is unknown.
        guard case .unavailable? = page.frames[element.position] else { return false }
        let host = FrameHost(element: element, page: page)
        return !host.isInTabOrder && Self.isLargerThanAPixel(host)
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        guard element.localName == "html" else {
            let reason = if case .unavailable(let reason)? = page.frames[element.position] { reason } else { "not loaded" }
            return .incomplete("The frame is out of the tab order, and its document could not be audited (\(reason)): check that it holds nothing to tab to.")
        }
        let tabbable = page.document.elements.count { $0 != element && page.accessibility.isTabbable($0) }
        guard tabbable > 0 else { return .pass }
        return .violation(
            "The frame showing this document is out of the tab order (negative tabindex), yet the document has \(tabbable) element\(tabbable == 1 ? "" : "s") keyboard users would tab to."
        )
    }

    /// axe leaves alone frames of a pixel or less (tracking frames): width × height above 1.
    /// An unknown dimension counts as large: a frame sized by a percentage is rarely a pixel.
    private static func isLargerThanAPixel(_ host: FrameHost) -> Bool {
        let size = host.size
        return (size.width ?? 2) * (size.height ?? 2) > 1
    }

    public let examples = RuleExamples(
        passing: [
            #"<iframe title="Map" tabindex="-1" srcdoc="<p>Store locations</p>"></iframe>"#,
            #"<iframe title="Map" tabindex="-1" srcdoc="<button tabindex=-1>Zoom</button>"></iframe>"#,
        ],
        violating: [
            RuleExample(#"<iframe id="map" title="Map" tabindex="-1" srcdoc="<button>Zoom</button>"></iframe>"#, at: "#map >>> html"),
            RuleExample(
                #"<iframe id="pay" title="Payment" tabindex="-1" width="2" height="1" srcdoc="<a href=/pay>Pay</a>"></iframe>"#, at: "#pay >>> html"
            ),
        ],
        inapplicable: [
            // In the tab order: its content is reached.
            #"<iframe title="Map" srcdoc="<button>Zoom</button>"></iframe>"#,
            #"<iframe title="Map" tabindex="0" srcdoc="<button>Zoom</button>"></iframe>"#,
            // A pixel: a tracking frame nobody is meant to use.
            #"<iframe title="Pixel" tabindex="-1" width="1" height="1" srcdoc="<button>Zoom</button>"></iframe>"#,
            #"<iframe title="Map" tabindex="-1" inert srcdoc="<button>Zoom</button>"></iframe>"#,
        ]
    )
}
