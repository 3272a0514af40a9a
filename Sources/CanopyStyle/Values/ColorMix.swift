/// `color-mix(in <space> [<hue> hue], <color> [<p>%], <color> [<p>%])` (CSS Color 5), mixed
/// with premultiplied alpha in the given space.
enum ColorMix {
    static func parse(_ arguments: String) -> RGBA? {
        let parts = CSSValueParts.commaSeparated(arguments)
        guard parts.count == 3 else { return nil }
        let method = CSSValueParts.words(parts[0])
        guard method.count >= 2, method[0] == "in" else { return nil }
        let space = method[1]
        guard let first = colorAndPercentage(parts[1]), let second = colorAndPercentage(parts[2]) else { return nil }
        // Percentages: both missing mean 50/50; one missing is the rest of 100; a sum under 100
        // scales the result's alpha.
        var p1 = first.1, p2 = second.1
        switch (p1, p2) {
        case (nil, nil): (p1, p2) = (50, 50)
        case (let a?, nil): p2 = 100 - a
        case (nil, let b?): p1 = 100 - b
        default: break
        }
        guard var weight1 = p1, var weight2 = p2, weight1 >= 0, weight2 >= 0 else { return nil }
        let sum = weight1 + weight2
        guard sum > 0 else { return nil }
        let alphaScale = sum < 100 ? sum / 100 : 1
        weight1 /= sum
        weight2 /= sum
        guard var mixed = mix(first.0, second.0, weight1, weight2, in: space) else { return nil }
        mixed.alpha *= alphaScale
        return mixed
    }

    private static func colorAndPercentage(_ text: String) -> (RGBA, Double?)? {
        var words = CSSValueParts.words(text)
        var percentage: Double?
        if let index = words.firstIndex(where: { $0.hasSuffix("%") && Double($0.dropLast()) != nil }) {
            percentage = Double(words[index].dropLast())
            words.remove(at: index)
        }
        guard case .rgba(let color)? = CSSColor.parse(words.joined(separator: " ")) else { return nil }
        return (color, percentage)
    }

    private static func mix(_ a: RGBA, _ b: RGBA, _ wa: Double, _ wb: Double, in space: String) -> RGBA? {
        let alpha = a.alpha * wa + b.alpha * wb
        guard alpha > 0 else { return .transparent }
        /// Premultiplied interpolation of rectangular components.
        func blend(_ x: ColorSpaces.Vector, _ y: ColorSpaces.Vector) -> ColorSpaces.Vector {
            ((x.0 * a.alpha * wa + y.0 * b.alpha * wb) / alpha,
             (x.1 * a.alpha * wa + y.1 * b.alpha * wb) / alpha,
             (x.2 * a.alpha * wa + y.2 * b.alpha * wb) / alpha)
        }
        /// The shorter way round the hue circle; hues are not premultiplied.
        func hue(_ x: Double, _ y: Double) -> Double {
            var delta = y - x
            if delta > 180 { delta -= 360 }
            if delta < -180 { delta += 360 }
            return x + delta * wb
        }
        switch space {
        case "srgb":
            let v = blend((a.red / 255, a.green / 255, a.blue / 255), (b.red / 255, b.green / 255, b.blue / 255))
            return RGBA(unitRed: v.0, green: v.1, blue: v.2, alpha: alpha)
        case "srgb-linear":
            return ColorSpaces.fromLinearSRGB(blend(ColorSpaces.linearSRGB(a), ColorSpaces.linearSRGB(b)), alpha: alpha)
        case "xyz", "xyz-d65":
            return ColorSpaces.fromXYZD65(blend(ColorSpaces.xyzD65(a), ColorSpaces.xyzD65(b)), alpha: alpha)
        case "oklab":
            let v = blend(ColorSpaces.linearSRGBToOklab(ColorSpaces.linearSRGB(a)), ColorSpaces.linearSRGBToOklab(ColorSpaces.linearSRGB(b)))
            return ColorSpaces.oklab(v.0, v.1, v.2, alpha: alpha)
        case "lab":
            let v = blend(ColorSpaces.labComponents(a), ColorSpaces.labComponents(b))
            return ColorSpaces.lab(v.0, v.1, v.2, alpha: alpha)
        case "oklch", "lch":
            let isOk = space == "oklch"
            let x = isOk ? ColorSpaces.linearSRGBToOklab(ColorSpaces.linearSRGB(a)) : ColorSpaces.labComponents(a)
            let y = isOk ? ColorSpaces.linearSRGBToOklab(ColorSpaces.linearSRGB(b)) : ColorSpaces.labComponents(b)
            let (cx, hx) = ColorSpaces.rectangularToPolar(x.1, x.2)
            let (cy, hy) = ColorSpaces.rectangularToPolar(y.1, y.2)
            let v = blend((x.0, cx, 0), (y.0, cy, 0))
            let h = hue(hx, hy)
            return isOk ? ColorSpaces.oklch(v.0, v.1, h, alpha: alpha) : ColorSpaces.lch(v.0, v.1, h, alpha: alpha)
        case "hsl":
            let x = ColorSpaces.rgbToHSL((a.red / 255, a.green / 255, a.blue / 255))
            let y = ColorSpaces.rgbToHSL((b.red / 255, b.green / 255, b.blue / 255))
            let v = blend((0, x.1, x.2), (0, y.1, y.2))
            let (r, g, bl) = ColorSpaces.hslToRGB(hue(x.0, y.0), v.1, v.2)
            return RGBA(unitRed: r, green: g, blue: bl, alpha: alpha)
        default:
            return nil
        }
    }
}
