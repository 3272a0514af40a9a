import Foundation

/// An sRGB colour with alpha: channels 0...255 (fractional, as browsers keep them), alpha 0...1.
public struct RGBA: Sendable, Hashable, CustomStringConvertible {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = Self.clamp(red, 255)
        self.green = Self.clamp(green, 255)
        self.blue = Self.clamp(blue, 255)
        self.alpha = Self.clamp(alpha, 1)
    }

    /// From 0...1 channels (the colour spaces' unit), clipped to the sRGB gamut.
    init(unitRed red: Double, green: Double, blue: Double, alpha: Double) {
        self.init(red: red * 255, green: green * 255, blue: blue * 255, alpha: alpha)
    }

    public static let black = RGBA(red: 0, green: 0, blue: 0)
    public static let white = RGBA(red: 255, green: 255, blue: 255)
    public static let transparent = RGBA(red: 0, green: 0, blue: 0, alpha: 0)

    private static func clamp(_ value: Double, _ maximum: Double) -> Double {
        value.isNaN ? 0 : min(max(value, 0), maximum)
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque.
    public var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = [UInt8(ascii: "#")]
        bytes.reserveCapacity(9)
        for channel in alpha >= 1 ? [red, green, blue] : [red, green, blue, alpha * 255] {
            let value = Int(channel.rounded())
            bytes.append(digits[value >> 4 & 15])
            bytes.append(digits[value & 15])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    public var description: String { hex }

    /// This colour painted over `backdrop` (source-over compositing).
    public func blended(over backdrop: RGBA) -> RGBA {
        let outAlpha = alpha + backdrop.alpha * (1 - alpha)
        guard outAlpha > 0 else { return .transparent }
        func channel(_ source: Double, _ below: Double) -> Double {
            (source * alpha + below * backdrop.alpha * (1 - alpha)) / outAlpha
        }
        return RGBA(red: channel(red, backdrop.red), green: channel(green, backdrop.green), blue: channel(blue, backdrop.blue), alpha: outAlpha)
    }

    /// WCAG 2 relative luminance, with the sRGB linearisation threshold 0.04045 that axe-core 4.11 uses.
    public var relativeLuminance: Double {
        // Whole channel values, nearly all of a page's colours, come from a table of the same
        // formula's results: three `pow` calls were 400 instructions a colour, asked twice per
        // text element checked.
        func linear(_ channel: Double) -> Double {
            if let whole = UInt8(exactly: channel) { return Self.linearChannels[Int(whole)] }
            return Self.linear(channel)
        }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// A channel (0...255) made linear, as WCAG 2 (with axe-core's sRGB threshold 0.04045) has it.
    static func linear(_ channel: Double) -> Double {
        let unit = channel / 255
        return unit <= 0.04045 ? unit / 12.92 : pow((unit + 0.055) / 1.055, 2.4)
    }

    static let linearChannels: [Double] = (0...255).map { linear(Double($0)) }

    /// WCAG 2 contrast ratio of two opaque colours, 1...21.
    public static func contrastRatio(_ first: RGBA, _ second: RGBA) -> Double {
        let (a, b) = (first.relativeLuminance, second.relativeLuminance)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }
}
