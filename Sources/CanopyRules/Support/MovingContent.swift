import CanopyAccessibility
import CanopyHTML

/// What blink and marquee share: the element fails wherever it is seen, so the only question is
/// whether it is drawn on screen (axe-core's `is-on-screen`).
enum MovingContent {
    static func outcome(for element: Element, on page: PageContext, named name: String) -> CheckOutcome {
        switch ScreenPlacement.of(element, on: page) {
        case .unrendered, .invisible, .offScreen:
            return .pass
        case .displaced(let how):
            return .incomplete("The \(name) element may be off screen: \(how); check whether it shows.")
        case .inFlow:
            return .violation("The \(name) element is shown on the page, and its content moves or flashes without a way to stop it.")
        }
    }
}
