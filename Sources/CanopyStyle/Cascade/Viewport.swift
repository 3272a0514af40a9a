/// The screen a page is styled for: media queries and viewport units are evaluated against it.
/// Canopy has no layout, so this is the one device fact a static cascade needs.
public struct Viewport: Sendable, Hashable, CustomStringConvertible {
    /// CSS pixels.
    public var width: Double
    public var height: Double

    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A desktop screen, the one most audits mean by "the page".
    public static let desktop = Viewport(width: 1280, height: 1024)

    /// Reads `WIDTHxHEIGHT` (`1280x1024`, `390×844`); nil for anything else.
    public init?(parsing text: String) {
        let parts = text.split(whereSeparator: { $0 == "x" || $0 == "X" || $0 == "×" })
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]),
              width > 0, height > 0, width.isFinite, height.isFinite
        else { return nil }
        self.init(width: width, height: height)
    }

    public var description: String { "\(Self.format(width))x\(Self.format(height))" }

    private static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
