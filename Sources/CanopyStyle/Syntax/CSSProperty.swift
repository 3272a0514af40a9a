/// The longhand properties Canopy's rules read. Declarations of any other property are dropped
/// when a sheet is parsed: nothing asks for them, so no page pays for them.
public enum CSSProperty: UInt8, CaseIterable, Sendable, Hashable {
    case display, visibility, contentVisibility, opacity
    case color, backgroundColor, backgroundImage
    case fontSize, fontWeight, fontStyle, lineHeight, letterSpacing, wordSpacing
    case position, float, transform, top, left, right, bottom, width, height
    case marginTop, marginRight, marginBottom, marginLeft
    case textShadow, mixBlendMode, filter, backdropFilter, clip, clipPath
    case overflowX, overflowY, textIndent, whiteSpace
    case textDecorationLine, textDecorationColor, textDecorationStyle
    case borderTopWidth, borderTopStyle, borderTopColor
    case borderBottomWidth, borderBottomStyle, borderBottomColor
    case outlineStyle, content, zIndex, textStrokeWidth
    case fontFamily, rotate, maxWidth
    case paddingTop, paddingRight, paddingBottom, paddingLeft, minWidth

    public init?(name: String) {
        guard let property = Self.byName[name] else { return nil }
        self = property
    }

    public var name: String { Self.names[Int(rawValue)] }

    /// Whether an element without a declaration takes its parent's value.
    public var inherits: Bool {
        switch self {
        case .visibility, .color, .fontSize, .fontWeight, .fontStyle, .lineHeight, .letterSpacing, .wordSpacing,
             .textShadow, .whiteSpace, .fontFamily:
            return true
        default:
            return false
        }
    }

    /// The initial value, as CSS text.
    public var initialValue: String {
        switch self {
        case .display: return "inline"
        case .visibility, .contentVisibility: return "visible"
        case .opacity: return "1"
        case .color: return "canvastext"
        case .backgroundColor: return "transparent"
        case .backgroundImage, .transform, .filter, .backdropFilter, .clipPath, .textShadow, .textDecorationLine,
             .borderTopStyle, .borderBottomStyle, .outlineStyle, .content, .float, .rotate, .maxWidth:
            return "none"
        case .fontSize: return "medium"
        case .fontWeight, .fontStyle, .lineHeight, .letterSpacing, .wordSpacing, .mixBlendMode, .whiteSpace: return "normal"
        case .position: return "static"
        case .top, .left, .right, .bottom, .width, .height, .clip, .zIndex: return "auto"
        case .textStrokeWidth: return "0"
        // What desktop browsers use when a page names no font.
        case .fontFamily: return "serif"
        case .marginTop, .marginRight, .marginBottom, .marginLeft, .textIndent: return "0"
        case .paddingTop, .paddingRight, .paddingBottom, .paddingLeft: return "0"
        case .minWidth: return "auto"
        case .overflowX, .overflowY: return "visible"
        case .textDecorationColor, .borderTopColor, .borderBottomColor: return "currentcolor"
        case .textDecorationStyle: return "solid"
        case .borderTopWidth, .borderBottomWidth: return "medium"
        }
    }

    private static let names: [String] = [
        "display", "visibility", "content-visibility", "opacity",
        "color", "background-color", "background-image",
        "font-size", "font-weight", "font-style", "line-height", "letter-spacing", "word-spacing",
        "position", "float", "transform", "top", "left", "right", "bottom", "width", "height",
        "margin-top", "margin-right", "margin-bottom", "margin-left",
        "text-shadow", "mix-blend-mode", "filter", "backdrop-filter", "clip", "clip-path",
        "overflow-x", "overflow-y", "text-indent", "white-space",
        "text-decoration-line", "text-decoration-color", "text-decoration-style",
        "border-top-width", "border-top-style", "border-top-color",
        "border-bottom-width", "border-bottom-style", "border-bottom-color",
        "outline-style", "content", "z-index", "-webkit-text-stroke-width",
        "font-family", "rotate", "max-width",
        "padding-top", "padding-right", "padding-bottom", "padding-left", "min-width",
    ]

    private static let byName: [String: CSSProperty] = {
        var table: [String: CSSProperty] = [:]
        for property in allCases { table[property.name] = property }
        // Aliases browsers still accept.
        table["-webkit-transform"] = .transform
        table["-webkit-filter"] = .filter
        table["-webkit-backdrop-filter"] = .backdropFilter
        table["text-decoration-skip"] = nil
        return table
    }()
}

/// A set of `CSSProperty` values as one 64-bit mask.
public struct PropertySet: Sendable, Hashable {
    public private(set) var mask: UInt64 = 0

    public init() {}

    public init(_ properties: [CSSProperty]) {
        for property in properties { insert(property) }
    }

    public mutating func insert(_ property: CSSProperty) { mask |= 1 << UInt64(property.rawValue) }
    public var isEmpty: Bool { mask == 0 }
    public func contains(_ property: CSSProperty) -> Bool { mask & (1 << UInt64(property.rawValue)) != 0 }
    public func intersects(_ other: PropertySet) -> Bool { mask & other.mask != 0 }
    public mutating func formUnion(_ other: PropertySet) { mask |= other.mask }
    public func union(_ other: PropertySet) -> PropertySet {
        var result = self
        result.formUnion(other)
        return result
    }
}
