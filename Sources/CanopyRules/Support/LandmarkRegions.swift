import CanopyAccessibility
import CanopyHTML
import Foundation

/// Which content of the page lies outside every landmark (axe-core's `region` check).
///
/// axe walks the body: it stops at "region-like" elements (landmarks, live regions, dialogs,
/// buttons, frames, skip links, hidden content) and at elements with content of their own;
/// content found this way is outside landmarks. It then reports, for each such content element,
/// its outermost ancestor that shares no subtree with a region-like element, so that a `<div>`
/// wrapping only loose content is reported once rather than each of its paragraphs.
struct RegionScan {
    let page: PageContext
    /// Roles whose content is announced by itself (live regions), so it needs no landmark.
    private static let liveRoles: Set<String> = ["alert", "log", "status"]
    private static let regionLikeElements = try! SelectorList("dialog, [role=dialog], [role=alertdialog], svg")
    private static let visualContent: Set<String> = [
        "img", "iframe", "object", "video", "audio", "canvas", "svg", "math", "button", "select", "textarea", "keygen",
        "progress", "meter",
    ]
    /// Links to other pages: a same-page link before the first of them is a skip link.
    private static let pageLinks = try! SelectorList(##"a:not([href^="#"]):not([href^="/#"]):not([href^="javascript:"])"##)

    /// The elements reported as content outside landmarks, by position: one walk of the body.
    func regionlessPositions() -> Set<Int> {
        guard let body = page.document.body else { return [] }
        var hasRegionDescendant = Set<Int>()
        var looseContent: [Element] = []
        func walk(_ element: Element) {
            if endsWalk(element) {
                hasRegionDescendant.insert(element.position)
                for ancestor in element.ancestors {
                    guard hasRegionDescendant.insert(ancestor.position).inserted else { break }
                }
                return
            }
            // Text directly in the body is not reported: axe never reports the body itself.
            if element != body, hasOwnContent(element) {
                looseContent.append(element)
                return
            }
            for child in element.children { walk(child) }
        }
        walk(body)
        var reported = Set<Int>()
        for content in looseContent {
            // Climb to the outermost ancestor that holds no region-like element.
            var outermost = content
            while let parent = outermost.parent, parent != body, !hasRegionDescendant.contains(parent.position) {
                outermost = parent
            }
            reported.insert(outermost.position)
        }
        return reported
    }

    /// Elements the walk does not enter and that count as a region for their ancestors.
    private func endsWalk(_ element: Element) -> Bool {
        let model = page.accessibility
        if model.isHiddenFromAssistiveTechnology(element) { return true }
        let role = model.role(of: element, options: .axeDefault)
        if role == "button" { return true }
        if let role, Self.liveRoles.contains(role) || Landmarks.roleNames.contains(role) { return true }
        let live = element.attribute("aria-live")?.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        if live == "assertive" || live == "polite" { return true }
        if Self.regionLikeElements.matches(element) { return true }
        // A frame's content is judged inside the frame.
        if element.isHTML && (element.localName == "iframe" || element.localName == "frame") { return true }
        return isSkipLinkWithTarget(element)
    }

    /// Content of the element itself: its own text, a control or media element, or an ARIA label.
    private func hasOwnContent(_ element: Element) -> Bool {
        if element.isHTML {
            if Self.visualContent.contains(element.localName) { return true }
            if element.localName == "input" { return element.attribute("type")?.lowercased() != "hidden" }
        }
        let model = page.accessibility
        if model.ariaLabel(of: element) != nil || model.ariaLabelledByText(of: element) != nil { return true }
        if ["style", "script", "noscript", "template"].contains(element.localName) { return false }
        return element.childNodes.contains { node in
            node.kind == .text && !node.text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        }
    }

    /// A same-page link placed before any link to another page, whose target exists.
    private func isSkipLinkWithTarget(_ element: Element) -> Bool {
        guard let href = element.attribute("href"), href.hasPrefix("#"), href.count > 1 else { return false }
        let second = href[href.index(after: href.startIndex)]
        guard second != "/" && second != "!" else { return false }
        if let firstPageLink = page.elements(matching: Self.pageLinks).first, firstPageLink.position < element.position {
            return false
        }
        let fragment = String(href.dropFirst())
        let target = fragment.removingPercentEncoding ?? fragment
        return page.document.element(withID: target) != nil
            || page.document.elements.contains { $0.attribute("name") == target }
    }
}
