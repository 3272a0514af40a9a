import Foundation
import CanopyStyle

/// What a `text-shadow` does to the contrast of text, read the way axe-core 4.11 reads it:
/// shadows blurred wider than a fifth of the font size are too faint to count; thin shadows on
/// all four sides make an outline (a stroke) around the letters; other shadows form a halo whose
/// strength falls with its blur. The contrast is then the best of text on background, halo on
/// background and text on halo.
enum TextShadows {
    /// Shadows blurred by a fifth of the font size or more count as part of the background
    /// (a halo wide enough to read the text on); thinner ones as part of the text's outline.
    static let backgroundBlurRatio = 0.2
    /// Blur below this share of the font size makes a thin shadow (part of an outline).
    static let thinBlurRatio = 0.001

    /// The shadows that outline or haze the letters themselves.
    static func aroundText(_ value: String, textColor: RGBA, fontSize: Double, context: LengthContext) -> Reading {
        read(value, textColor: textColor, fontSize: fontSize, context: context, thinBelow: thinBlurRatio, ignoredFrom: backgroundBlurRatio, anySides: false)
    }

    /// The wide shadows, which tint the background the text is read against.
    static func behindText(_ value: String, textColor: RGBA, fontSize: Double, context: LengthContext) -> Reading {
        read(value, textColor: textColor, fontSize: fontSize, context: context, thinBelow: backgroundBlurRatio, ignoredFrom: nil, anySides: true)
    }

    struct Shadow {
        var color: RGBA
        var colorKey: String
        var offsetX: Double
        var offsetY: Double
        var blur: Double
    }

    enum Reading {
        /// Colours the shadows paint behind the text, frontmost first (empty: no shadow counts).
        case colors([RGBA])
        /// Shadows on two or three sides, or a value Canopy cannot read.
        case tooComplex
    }

    private static func read(
        _ value: String, textColor: RGBA, fontSize: Double, context: LengthContext, thinBelow: Double, ignoredFrom: Double?, anySides: Bool
    ) -> Reading {
        // Nearly every element has the initial value, compared as written before lowercasing.
        guard value != "none", value.lowercased() != "none" else { return .colors([]) }
        var shadows: [Shadow] = []
        for part in CSSValueParts.commaSeparated(value) where !part.isEmpty {
            guard let shadow = parse(part, textColor: textColor, context: context) else { return .tooComplex }
            shadows.append(shadow)
        }
        var colors: [RGBA] = []
        var thin: [Shadow] = []
        for shadow in shadows {
            if let ignoredFrom, shadow.blur >= fontSize * ignoredFrom { continue }
            if shadow.blur < fontSize * thinBelow {
                thin.append(shadow)
                continue
            }
            if !thin.isEmpty {
                guard let strokes = strokeColors(thin, anySides: anySides) else { return .tooComplex }
                colors += strokes
                thin.removeAll()
            }
            colors.append(haloColor(shadow, fontSize: fontSize))
        }
        if !thin.isEmpty {
            guard let strokes = strokeColors(thin, anySides: anySides) else { return .tooComplex }
            colors += strokes
        }
        return .colors(colors)
    }

    private static func parse(_ text: String, textColor: RGBA, context: LengthContext) -> Shadow? {
        var lengths: [Double] = []
        var color: RGBA?
        var colorKey = "currentcolor"
        for word in CSSValueParts.words(text) {
            if let length = CSSLength.pixels(word, in: context) {
                lengths.append(length)
            } else if let parsed = CSSColor.parse(word) {
                guard color == nil else { return nil }
                color = parsed.resolved(currentColor: textColor)
                colorKey = word.lowercased()
            } else {
                return nil
            }
        }
        guard lengths.count == 2 || lengths.count == 3 else { return nil }
        return Shadow(color: color ?? textColor, colorKey: colorKey, offsetX: lengths[0], offsetY: lengths[1], blur: lengths.count == 3 ? lengths[2] : 0)
    }

    /// A blurred shadow that sits behind the letters (offset within its blur) shows as a halo.
    private static func haloColor(_ shadow: Shadow, fontSize: Double) -> RGBA {
        if shadow.offsetX > shadow.blur || shadow.offsetY > shadow.blur { return .transparent }
        var color = shadow.color
        if shadow.blur > 0 { color.alpha *= 0.185 / (shadow.blur / fontSize + 0.4) }
        return color
    }

    /// Thin shadows of one colour on all four sides outline the letters; on one side they are
    /// too slight to count; on two or three they make a shape no single colour stands for.
    private static func strokeColors(_ shadows: [Shadow], anySides: Bool) -> [RGBA]? {
        let visible = 0.5, solid = 1.5
        var groups: [(key: String, color: RGBA, sides: [[Double]])] = []
        for shadow in shadows {
            var index = groups.firstIndex { $0.key == shadow.colorKey }
            if index == nil {
                groups.append((shadow.colorKey, shadow.color, [[], [], [], []]))  // top, right, bottom, left
                index = groups.count - 1
            }
            if shadow.offsetX > visible { groups[index!].sides[1].append(shadow.offsetX) } else if -shadow.offsetX > visible { groups[index!].sides[3].append(-shadow.offsetX) }
            if shadow.offsetY > visible { groups[index!].sides[2].append(shadow.offsetY) } else if -shadow.offsetY > visible { groups[index!].sides[0].append(-shadow.offsetY) }
        }
        var colors: [RGBA] = []
        for group in groups {
            let edges = group.sides.filter { !$0.isEmpty }.count
            if !anySides, edges > 1 && edges < 4 { return nil }
            guard edges == 4 else { continue }
            var color = group.color
            let density = group.sides.reduce(0.0) { $0 + Double($1.count) / 4 }
            let isSolid = group.sides.allSatisfy { $0.allSatisfy { $0 > solid } }
            if !isSolid { color.alpha = 1 - pow(0.54, density) }
            colors.append(color)
        }
        return colors
    }

    /// The colours painted one over the other, frontmost first.
    static func flattened(_ layers: [RGBA]) -> RGBA {
        var layers = layers
        var result = layers.removeFirst()
        for below in layers {
            let alpha = result.alpha
            result = RGBA(
                red: (1 - alpha) * below.red + alpha * result.red, green: (1 - alpha) * below.green + alpha * result.green,
                blue: (1 - alpha) * below.blue + alpha * result.blue, alpha: result.alpha + below.alpha * (1 - result.alpha)
            )
        }
        return result
    }
}
