import Foundation

/// Conversions between the colour spaces of CSS Color 4 and sRGB, with the matrices the
/// specification gives. Out-of-gamut results are clipped to sRGB, as browsers display them.
enum ColorSpaces {
    typealias Vector = (Double, Double, Double)

    static func hslToRGB(_ hue: Double, _ saturation: Double, _ lightness: Double) -> Vector {
        let hue = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        func channel(_ n: Double) -> Double {
            let k = (n + hue / 30).truncatingRemainder(dividingBy: 12)
            let a = saturation * min(lightness, 1 - lightness)
            return lightness - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return (channel(0), channel(8), channel(4))
    }

    static func rgbToHSL(_ rgb: Vector) -> Vector {
        let (r, g, b) = rgb
        let maximum = max(r, g, b), minimum = min(r, g, b)
        let lightness = (maximum + minimum) / 2
        let delta = maximum - minimum
        guard delta > 0 else { return (0, 0, lightness) }
        let saturation = lightness == 0 || lightness == 1 ? 0 : (maximum - lightness) / min(lightness, 1 - lightness)
        var hue: Double
        switch maximum {
        case r: hue = (g - b) / delta + (g < b ? 6 : 0)
        case g: hue = (b - r) / delta + 2
        default: hue = (r - g) / delta + 4
        }
        hue *= 60
        return (hue, saturation, lightness)
    }

    // MARK: Transfer functions

    static func linear(_ channel: Double) -> Double {
        let magnitude = abs(channel)
        let value = magnitude <= 0.04045 ? magnitude / 12.92 : pow((magnitude + 0.055) / 1.055, 2.4)
        return channel < 0 ? -value : value
    }

    static func gamma(_ channel: Double) -> Double {
        let magnitude = abs(channel)
        let value = magnitude > 0.0031308 ? 1.055 * pow(magnitude, 1 / 2.4) - 0.055 : 12.92 * magnitude
        return channel < 0 ? -value : value
    }

    private static func multiply(_ m: [[Double]], _ v: Vector) -> Vector {
        (m[0][0] * v.0 + m[0][1] * v.1 + m[0][2] * v.2,
         m[1][0] * v.0 + m[1][1] * v.1 + m[1][2] * v.2,
         m[2][0] * v.0 + m[2][1] * v.1 + m[2][2] * v.2)
    }

    // MARK: Matrices (CSS Color 4, section 18)

    private static let xyzD65ToLinearSRGB: [[Double]] = [
        [3.2409699419045226, -1.537383177570094, -0.4986107602930034],
        [-0.9692436362808796, 1.8759675015077202, 0.04155505740717559],
        [0.05563007969699366, -0.20397695888897652, 1.0569715142428786],
    ]
    private static let linearSRGBToXYZD65: [[Double]] = [
        [0.41239079926595934, 0.357584339383878, 0.1804807884018343],
        [0.21263900587151027, 0.715168678767756, 0.07219231536073371],
        [0.01933081871559182, 0.11919477979462598, 0.9505321522496607],
    ]
    private static let d50ToD65: [[Double]] = [
        [0.955473421488075, -0.02309845494876471, 0.06325924320057072],
        [-0.0283697093338637, 1.0099953980813041, 0.021041441191917323],
        [0.012314014864481998, -0.020507649298898964, 1.330365926242124],
    ]
    private static let d65ToD50: [[Double]] = [
        [1.0479297925449969, 0.022946870601609652, -0.05019226628920524],
        [0.02962780877005599, 0.9904344267538799, -0.017073799063418826],
        [-0.009243040646204504, 0.015055191490298152, 0.7518742814281371],
    ]
    private static let linearP3ToXYZD65: [[Double]] = [
        [0.4865709486482162, 0.26566769316909306, 0.1982172852343625],
        [0.2289745640697488, 0.6917385218365064, 0.079286914093745],
        [0.0, 0.04511338185890264, 1.043944368900976],
    ]
    private static let d50White: Vector = (0.3457 / 0.3585, 1, (1 - 0.3457 - 0.3585) / 0.3585)

    // MARK: To sRGB

    static func fromLinearSRGB(_ v: Vector, alpha: Double) -> RGBA {
        RGBA(unitRed: gamma(v.0), green: gamma(v.1), blue: gamma(v.2), alpha: alpha)
    }

    static func fromXYZD65(_ v: Vector, alpha: Double) -> RGBA { fromLinearSRGB(multiply(xyzD65ToLinearSRGB, v), alpha: alpha) }

    static func lab(_ l: Double, _ a: Double, _ b: Double, alpha: Double) -> RGBA {
        fromXYZD65(multiply(d50ToD65, labToXYZD50((l, a, b))), alpha: alpha)
    }

    static func lch(_ l: Double, _ c: Double, _ h: Double, alpha: Double) -> RGBA {
        let (a, b) = polarToRectangular(c, h)
        return lab(l, a, b, alpha: alpha)
    }

    static func oklab(_ l: Double, _ a: Double, _ b: Double, alpha: Double) -> RGBA {
        fromLinearSRGB(oklabToLinearSRGB((l, a, b)), alpha: alpha)
    }

    static func oklch(_ l: Double, _ c: Double, _ h: Double, alpha: Double) -> RGBA {
        let (a, b) = polarToRectangular(c, h)
        return oklab(l, a, b, alpha: alpha)
    }

    static func polarToRectangular(_ chroma: Double, _ hue: Double) -> (Double, Double) {
        let radians = hue * .pi / 180
        return (max(chroma, 0) * cos(radians), max(chroma, 0) * sin(radians))
    }

    static func labToXYZD50(_ lab: Vector) -> Vector {
        let kappa = 24389.0 / 27, epsilon = 216.0 / 24389
        let fy = (lab.0 + 16) / 116
        let fx = lab.1 / 500 + fy
        let fz = fy - lab.2 / 200
        let x = pow(fx, 3) > epsilon ? pow(fx, 3) : (116 * fx - 16) / kappa
        let y = lab.0 > kappa * epsilon ? pow(fy, 3) : lab.0 / kappa
        let z = pow(fz, 3) > epsilon ? pow(fz, 3) : (116 * fz - 16) / kappa
        return (x * d50White.0, y * d50White.1, z * d50White.2)
    }

    static func xyzD50ToLab(_ xyz: Vector) -> Vector {
        let kappa = 24389.0 / 27, epsilon = 216.0 / 24389
        func f(_ value: Double) -> Double { value > epsilon ? cbrt(value) : (kappa * value + 16) / 116 }
        let fx = f(xyz.0 / d50White.0), fy = f(xyz.1 / d50White.1), fz = f(xyz.2 / d50White.2)
        return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))
    }

    static func oklabToLinearSRGB(_ lab: Vector) -> Vector {
        let l = pow(lab.0 + 0.3963377773761749 * lab.1 + 0.2158037573099136 * lab.2, 3)
        let m = pow(lab.0 - 0.1055613458156586 * lab.1 - 0.0638541728258133 * lab.2, 3)
        let s = pow(lab.0 - 0.0894841775298119 * lab.1 - 1.2914855480194092 * lab.2, 3)
        return (4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
                -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
                -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s)
    }

    static func linearSRGBToOklab(_ rgb: Vector) -> Vector {
        let l = cbrt(0.4122214708 * rgb.0 + 0.5363325363 * rgb.1 + 0.0514459929 * rgb.2)
        let m = cbrt(0.2119034982 * rgb.0 + 0.6806995451 * rgb.1 + 0.1073969566 * rgb.2)
        let s = cbrt(0.0883024619 * rgb.0 + 0.2817188376 * rgb.1 + 0.6299787005 * rgb.2)
        return (0.2104542553 * l + 0.7936177850 * m - 0.0040720468 * s,
                1.9779984951 * l - 2.4285922050 * m + 0.4505937099 * s,
                0.0259040371 * l + 0.7827717662 * m - 0.8086757660 * s)
    }

    /// `color(<space> ...)` for the predefined spaces.
    static func fromPredefined(_ space: String, _ a: Double, _ b: Double, _ c: Double, alpha: Double) -> RGBA? {
        switch space {
        case "srgb": return RGBA(unitRed: a, green: b, blue: c, alpha: alpha)
        case "srgb-linear": return fromLinearSRGB((a, b, c), alpha: alpha)
        case "display-p3":
            return fromXYZD65(multiply(linearP3ToXYZD65, (linear(a), linear(b), linear(c))), alpha: alpha)
        case "xyz", "xyz-d65": return fromXYZD65((a, b, c), alpha: alpha)
        case "xyz-d50": return fromXYZD65(multiply(d50ToD65, (a, b, c)), alpha: alpha)
        default: return nil
        }
    }

    // MARK: From sRGB (for color-mix)

    static func linearSRGB(_ color: RGBA) -> Vector {
        (linear(color.red / 255), linear(color.green / 255), linear(color.blue / 255))
    }

    static func labComponents(_ color: RGBA) -> Vector {
        xyzD50ToLab(multiply(d65ToD50, multiply(linearSRGBToXYZD65, linearSRGB(color))))
    }

    static func xyzD65(_ color: RGBA) -> Vector { multiply(linearSRGBToXYZD65, linearSRGB(color)) }

    static func rectangularToPolar(_ a: Double, _ b: Double) -> (Double, Double) {
        let chroma = (a * a + b * b).squareRoot()
        var hue = atan2(b, a) * 180 / .pi
        if hue < 0 { hue += 360 }
        return (chroma, hue)
    }
}
