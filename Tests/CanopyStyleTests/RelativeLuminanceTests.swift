import Foundation
import Testing
@testable import CanopyStyle

/// Luminance read from the table of whole channel values must be the formula's, to the last bit:
/// a ratio of 4.4999 against 4.5 decides a finding.
struct RelativeLuminanceTests {
    static func byFormula(_ color: RGBA) -> Double {
        func linear(_ channel: Double) -> Double {
            let unit = channel / 255
            return unit <= 0.04045 ? unit / 12.92 : pow((unit + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * linear(color.red) + 0.7152 * linear(color.green) + 0.0722 * linear(color.blue)
    }

    @Test func tableAgreesWithTheFormula() {
        var channels = (0...255).map(Double.init)
        channels += [0.5, 10.3149, 10.315, 127.999, 254.5, 1e-9]
        for value in channels {
            for color in [RGBA(red: value, green: 0, blue: 0), RGBA(red: 0, green: value, blue: 255), RGBA(red: value, green: value, blue: value)] {
                #expect(color.relativeLuminance.bitPattern == Self.byFormula(color).bitPattern, "\(color)")
            }
        }
        #expect(RGBA.contrastRatio(RGBA(red: 0, green: 0, blue: 0), RGBA(red: 255, green: 255, blue: 255)) == 21)
    }
}
