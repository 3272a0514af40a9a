import CanopyAccessibility
import CanopyHTML
import CanopyStyle
import Foundation

/// A page that turns its content a quarter turn when the device is held the other way keeps it
/// in one orientation, whatever the reader does; people whose device is fixed to a wheelchair or
/// a stand cannot turn it to suit (WCAG 1.3.4 Orientation).
public struct CSSOrientationLockRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "css-orientation-lock",
        impact: .serious,
        tags: ["cat.structure", "wcag134", "wcag21aa", "EN-301-549", "EN-9.1.3.4", "RGAAv4", "RGAA-13.9.1", "experimental"],
        description: "Checks that no orientation media query rotates the page's content to hold it in one orientation",
        help: "Styles must not lock the page to portrait or landscape",
        howToFix: "Remove the rotation (transform or rotate) from the rules under @media (orientation: ...), and let the layout adapt to both orientations instead.",
        enabledByDefault: true,
        rationale: "Content turned a quarter turn under an orientation query cannot be read the way the reader holds the device, which some cannot change."
    )

    /// The page once: the root element.
    public let selector = try! SelectorList("html")

    public func applies(to element: Element, on page: PageContext) -> Bool { element.parent == nil }

    public var stylesRead: PropertySet { PropertySet([.transform, .rotate]) }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let index = page.styles.index
        // A page without stylesheets passes: axe-core answers "review" there because a browser may
        // hide cross-origin sheets from it, while Canopy reads every sheet or reports it failed
        // (above), and a style attribute cannot hold a media query.
        for rule in index.orientationRules {
            let degrees = Self.degrees(ofTransform: rule.transform ?? "") + Self.degrees(ofRotate: rule.rotate ?? "")
            guard degrees.isFinite, degrees != 0, Self.locks(abs(degrees)) else { continue }
            let turned = page.document.elements.filter { element in rule.selectors.contains { $0.matches(element) } }.count
            return .violation(
                "@media \(rule.media) turns \(turned == 1 ? "an element" : "\(turned) elements") by \(ColorContrast.number(degrees)) degrees, holding the content in one orientation."
            )
        }
        return .pass
    }

    /// Within two degrees of a quarter or three-quarter turn, and not of a half or whole turn,
    /// as axe-core reckons it (the asymmetry past 180 degrees is axe's, kept for equal results).
    static func locks(_ degrees: Double) -> Bool {
        let threshold = 2.0
        if abs(degrees - 180).truncatingRemainder(dividingBy: 180) <= threshold { return false }
        return abs(degrees - 90).truncatingRemainder(dividingBy: 90) <= threshold
    }

    /// The rotation of the last rotating function of a `transform` value, in degrees (0: none).
    static func degrees(ofTransform value: String) -> Double {
        let lowered = value.lowercased()
        let names = ["rotate3d(", "matrix3d(", "rotatez(", "rotate(", "matrix("]
        var last: (name: String, start: String.Index)?
        for name in names {
            guard let range = lowered.range(of: name, options: .backwards) else { continue }
            if last == nil || range.lowerBound > last!.start { last = (name, range.lowerBound) }
        }
        guard let (name, start) = last else { return 0 }
        // A later rotateX/rotateY (or any rotate-named function) hides the match, as in axe.
        let after = lowered[lowered.index(start, offsetBy: name.count)...]
        if after.contains("rotate") || after.contains("matrix") { return 0 }
        guard let close = after.firstIndex(of: ")") else { return 0 }
        let arguments = after[..<close].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        switch name {
        case "rotate(", "rotatez(":
            return arguments.count == 1 ? angle(arguments[0]) : 0
        case "rotate3d(":
            guard arguments.count == 4 else { return 0 }
            // No turn about the z axis: nothing to lock (axe reads the axis as a whole number).
            guard let z = Double(arguments[2]), z.rounded(.towardZero) != 0 else { return .nan }
            return angle(arguments[3])
        case "matrix(":
            guard arguments.count == 6, let a = Double(arguments[0]), let b = Double(arguments[1]) else { return 0 }
            return (atan2(b, a) * 180 / .pi).rounded()
        default:  // matrix3d
            guard arguments.count == 16, let first = Double(arguments[0]), let ninth = Double(arguments[8]) else { return 0 }
            let beta = asin(ninth)
            return (acos(first / cos(beta)) * 180 / .pi).rounded()
        }
    }

    /// The `rotate` property: an angle, or an axis and an angle (a turn about z counts).
    static func degrees(ofRotate value: String) -> Double {
        let parts = value.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        switch parts.count {
        case 1: return parts[0] == "none" ? 0 : angle(parts[0])
        case 2: return parts[0] == "z" ? angle(parts[1]) : (parts[0] == "x" || parts[0] == "y" ? .nan : 0)
        case 4:
            let axis = parts[0..<3].compactMap(Double.init)
            return axis == [0, 0, 1] || (axis.count == 3 && axis[0] == 0 && axis[1] == 0 && axis[2] != 0) ? angle(parts[3]) : .nan
        default: return 0
        }
    }

    /// An angle in degrees: degrees truncated to whole ones, other units rounded (axe's reading).
    static func angle(_ text: String) -> Double {
        let value = text.lowercased()
        for unit in ["grad", "deg", "rad", "turn"] where value.hasSuffix(unit) {
            guard let number = Double(value.dropLast(unit.count)) else { return 0 }
            switch unit {
            case "deg": return number.rounded(.towardZero)
            case "rad": return (number * 180 / .pi).rounded()
            case "grad":
                let reduced = number.truncatingRemainder(dividingBy: 400)
                return ((reduced < 0 ? reduced + 400 : reduced) / 400 * 360).rounded()
            default: return (number * 360).rounded()
            }
        }
        return 0
    }

    public let examples = RuleExamples(
        passing: [
            #"<main>No stylesheet at all</main>"#,
            #"<style>@media (orientation: portrait) { main { font-size: 90% } }</style><main>Text</main>"#,
            #"<style>@media (min-width: 600px) { main { transform: rotate(90deg) } }</style><main>Text</main>"#,
            #"<style>@media (orientation: landscape) { main { transform: rotate(180deg) } }</style><main>Text</main>"#,
        ],
        violating: [
            RuleExample(#"<style>@media (orientation: portrait) { main { transform: rotate(90deg) } }</style><main>Text</main>"#, at: "html"),
            RuleExample(#"<style>@media (orientation: landscape) { body { rotate: 0 0 1 1.5708rad } }</style><main>Text</main>"#, at: "html"),
            RuleExample(
                #"<style>@media screen and (orientation: portrait) { .app { transform: matrix(0, 1, -1, 0, 0, 0) } }</style><div class="app">Text</div>"#,
                at: "html"
            ),
        ],
        incomplete: [
            RuleExample(#"<link rel="stylesheet" href="/unreachable.css"><main>A sheet that could not be loaded</main>"#, at: "html")
        ]
    )
}
