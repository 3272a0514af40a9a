/// The shorthands whose longhands Canopy reads, and how each value splits into them.
public enum CSSShorthand: String, Sendable, Hashable, CaseIterable {
    case background, font, margin, padding, border, borderTop = "border-top", borderBottom = "border-bottom"
    case borderWidth = "border-width", borderStyle = "border-style", borderColor = "border-color"
    case overflow, textDecoration = "text-decoration", inset, outline, textStroke = "-webkit-text-stroke"

    public init?(name: String) { self.init(rawValue: name) }

    public var longhands: [CSSProperty] {
        switch self {
        case .background: return [.backgroundColor, .backgroundImage]
        case .font: return [.fontStyle, .fontWeight, .fontSize, .lineHeight, .fontFamily]
        case .margin: return [.marginTop, .marginRight, .marginBottom, .marginLeft]
        case .padding: return [.paddingTop, .paddingRight, .paddingBottom, .paddingLeft]
        case .border: return Self.topBorder + Self.bottomBorder
        case .borderTop: return Self.topBorder
        case .borderBottom: return Self.bottomBorder
        case .borderWidth: return [.borderTopWidth, .borderBottomWidth]
        case .borderStyle: return [.borderTopStyle, .borderBottomStyle]
        case .borderColor: return [.borderTopColor, .borderBottomColor]
        case .overflow: return [.overflowX, .overflowY]
        case .textDecoration: return [.textDecorationLine, .textDecorationStyle, .textDecorationColor]
        case .inset: return [.top, .right, .bottom, .left]
        case .outline: return [.outlineStyle]
        case .textStroke: return [.textStrokeWidth]
        }
    }

    private static let topBorder: [CSSProperty] = [.borderTopWidth, .borderTopStyle, .borderTopColor]
    private static let bottomBorder: [CSSProperty] = [.borderBottomWidth, .borderBottomStyle, .borderBottomColor]

    /// The longhands' values, every longhand the shorthand sets (omitted parts get their initial
    /// value, as CSS says); nil when the value is not valid for the shorthand.
    public func expand(_ value: String) -> [(CSSProperty, String)]? {
        if let keyword = CSSWideKeyword(value) { return longhands.map { ($0, keyword.rawValue) } }
        let parts = CSSValueParts.words(value)
        guard !parts.isEmpty else { return nil }
        switch self {
        case .margin, .padding, .inset:
            guard let sides = Self.fourSides(parts) else { return nil }
            return zip(longhands, sides).map { ($0, $1) }
        case .borderWidth, .borderStyle, .borderColor:
            guard let sides = Self.fourSides(parts) else { return nil }
            return [(longhands[0], sides[0]), (longhands[1], sides[2])]
        case .overflow:
            guard parts.count <= 2 else { return nil }
            return [(.overflowX, parts[0]), (.overflowY, parts.count == 2 ? parts[1] : parts[0])]
        case .border, .borderTop, .borderBottom:
            guard let (width, style, color) = Self.borderParts(parts) else { return nil }
            var result: [(CSSProperty, String)] = []
            for (index, longhand) in longhands.enumerated() {
                switch index % 3 {
                case 0: result.append((longhand, width))
                case 1: result.append((longhand, style))
                default: result.append((longhand, color))
                }
            }
            return result
        case .textStroke:
            return [(.textStrokeWidth, parts.first { CSSValueParts.looksLikeLength($0) } ?? "0")]
        case .outline:
            let style = parts.first { Self.borderStyles.contains($0.lowercased()) } ?? "none"
            return [(.outlineStyle, style)]
        case .textDecoration:
            return Self.textDecoration(parts)
        case .background:
            return Self.background(value)
        case .font:
            return Self.font(parts)
        }
    }

    /// `a`, `a b`, `a b c`, `a b c d` as top, right, bottom, left.
    private static func fourSides(_ parts: [String]) -> [String]? {
        switch parts.count {
        case 1: return [parts[0], parts[0], parts[0], parts[0]]
        case 2: return [parts[0], parts[1], parts[0], parts[1]]
        case 3: return [parts[0], parts[1], parts[2], parts[1]]
        case 4: return parts
        default: return nil
        }
    }

    static let borderStyles: Set<String> = ["none", "hidden", "dotted", "dashed", "solid", "double", "groove", "ridge", "inset", "outset"]

    private static func borderParts(_ parts: [String]) -> (String, String, String)? {
        var width: String?
        var style: String?
        var color: String?
        for part in parts {
            let lowered = part.lowercased()
            if borderStyles.contains(lowered), style == nil {
                style = part
            } else if width == nil, ["thin", "medium", "thick"].contains(lowered) || CSSValueParts.looksLikeLength(part) {
                width = part
            } else if color == nil {
                color = part
            } else {
                return nil
            }
        }
        return (width ?? "medium", style ?? "none", color ?? "currentcolor")
    }

    private static let decorationLines: Set<String> = ["none", "underline", "overline", "line-through", "blink", "spelling-error", "grammar-error"]
    private static let decorationStyles: Set<String> = ["solid", "double", "dotted", "dashed", "wavy"]

    private static func textDecoration(_ parts: [String]) -> [(CSSProperty, String)]? {
        var lines: [String] = []
        var style = "solid"
        var color = "currentcolor"
        var sawColor = false
        for part in parts {
            let lowered = part.lowercased()
            if decorationLines.contains(lowered) {
                lines.append(lowered)
            } else if decorationStyles.contains(lowered) {
                style = lowered
            } else if lowered == "auto" || lowered == "from-font" || CSSValueParts.looksLikeLength(part) {
                continue  // thickness
            } else if !sawColor {
                color = part
                sawColor = true
            } else {
                return nil
            }
        }
        return [(.textDecorationLine, lines.isEmpty ? "none" : lines.joined(separator: " ")), (.textDecorationStyle, style), (.textDecorationColor, color)]
    }

    private static let backgroundKeywords: Set<String> = [
        "repeat", "repeat-x", "repeat-y", "no-repeat", "space", "round", "scroll", "fixed", "local", "border-box",
        "padding-box", "content-box", "text", "left", "right", "top", "bottom", "center", "auto", "cover", "contain", "/",
    ]

    /// Each comma-separated layer may hold an image; only the last may hold the colour.
    private static func background(_ value: String) -> [(CSSProperty, String)]? {
        let layers = CSSValueParts.commaSeparated(value)
        var images: [String] = []
        var color = "transparent"
        for (layerIndex, layer) in layers.enumerated() {
            var image = "none"
            for part in CSSValueParts.words(layer) {
                let lowered = part.lowercased()
                if CSSValueParts.isImage(lowered) || lowered == "none" {
                    image = part
                } else if backgroundKeywords.contains(lowered) || CSSValueParts.looksLikeLength(part) || lowered.hasPrefix("/") {
                    continue
                } else if layerIndex == layers.count - 1, color == "transparent" {
                    color = part
                } else {
                    return nil
                }
            }
            images.append(image)
        }
        let imageValue = images.allSatisfy { $0.lowercased() == "none" } ? "none" : images.joined(separator: ", ")
        return [(.backgroundColor, color), (.backgroundImage, imageValue)]
    }

    private static let fontStyleWords: Set<String> = ["italic", "oblique"]
    private static let fontWeightWords: Set<String> = ["bold", "bolder", "lighter"]
    private static let fontSizeWords: Set<String> = [
        "xx-small", "x-small", "small", "medium", "large", "x-large", "xx-large", "xxx-large", "smaller", "larger",
    ]
    private static let systemFonts: Set<String> = ["caption", "icon", "menu", "message-box", "small-caption", "status-bar"]

    /// `[style || variant || weight || stretch]? size [/ line-height]? family`.
    private static func font(_ parts: [String]) -> [(CSSProperty, String)]? {
        if parts.count == 1, systemFonts.contains(parts[0].lowercased()) {
            // The platform's UI font: about 13px and normal weight in desktop browsers.
            return [(.fontStyle, "normal"), (.fontWeight, "normal"), (.fontSize, "13px"), (.lineHeight, "normal"), (.fontFamily, "system-ui")]
        }
        var style = "normal"
        var weight = "normal"
        var size: String?
        var lineHeight = "normal"
        var index = 0
        while index < parts.count, size == nil {
            let part = parts[index]
            let lowered = part.lowercased()
            index += 1
            if fontStyleWords.contains(lowered) {
                style = lowered
            } else if fontWeightWords.contains(lowered) {
                weight = lowered
            } else if let number = Double(part), number >= 1, number <= 1000, !part.contains("%") {
                weight = part
            } else if fontSizeWords.contains(lowered) || CSSValueParts.looksLikeLength(part) || lowered.contains("/") {
                // `16px/1.5` may be written without spaces around the slash.
                let pieces = part.split(separator: "/", maxSplits: 1).map(String.init)
                size = pieces.first
                if pieces.count == 2 {
                    lineHeight = pieces[1]
                } else if index < parts.count, parts[index].hasPrefix("/") {
                    let rest = String(parts[index].dropFirst())
                    index += 1
                    if rest.isEmpty, index < parts.count {
                        lineHeight = parts[index]
                        index += 1
                    } else {
                        lineHeight = rest
                    }
                }
            }
            // normal, small-caps, condensed... say nothing the rules read.
        }
        // A size and a family are both required.
        guard let size, !size.isEmpty, index < parts.count else { return nil }
        let family = parts[index...].joined(separator: " ")
        return [(.fontStyle, style), (.fontWeight, weight), (.fontSize, size), (.lineHeight, lineHeight), (.fontFamily, family)]
    }
}

/// `inherit`, `initial`, `unset`, `revert`, `revert-layer`.
public enum CSSWideKeyword: String, Sendable {
    case inherit, initial, unset, revert
    case revertLayer = "revert-layer"

    public init?(_ value: String) {
        guard value.utf8.count <= 12 else { return nil }
        self.init(rawValue: value.lowercased())
    }
}

/// Splitting values into their top-level parts, parentheses and strings kept whole.
public enum CSSValueParts {
    /// Space-separated parts; a `/` stands as a part of its own.
    public static func words(_ value: String) -> [String] {
        split(value) { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") || $0 == UInt8(ascii: "\n") }
    }

    public static func commaSeparated(_ value: String) -> [String] {
        split(value) { $0 == UInt8(ascii: ",") }.map { $0.trimmingASCIIWhitespace() }
    }

    private static func split(_ value: String, isSeparator: (UInt8) -> Bool) -> [String] {
        var parts: [String] = []
        var current: [UInt8] = []
        var depth = 0
        var quote: UInt8?
        for byte in value.utf8 {
            if let open = quote {
                current.append(byte)
                if byte == open { quote = nil }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "'"): quote = byte
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"): depth -= 1
            default: break
            }
            if depth == 0, isSeparator(byte) {
                if !current.isEmpty { parts.append(String(decoding: current, as: UTF8.self)) }
                current = []
            } else {
                current.append(byte)
            }
        }
        if !current.isEmpty { parts.append(String(decoding: current, as: UTF8.self)) }
        return parts
    }

    /// A number with or without a unit, or a math function: what a length may be written as.
    static func looksLikeLength(_ part: String) -> Bool {
        guard let first = part.utf8.first else { return false }
        if CSSTokenizer.isDigit(first) || first == UInt8(ascii: ".") { return true }
        if first == UInt8(ascii: "-") || first == UInt8(ascii: "+") {
            let second = part.utf8.dropFirst().first
            return second.map { CSSTokenizer.isDigit($0) || $0 == UInt8(ascii: ".") } ?? false
        }
        let lowered = part.lowercased()
        return lowered.hasPrefix("calc(") || lowered.hasPrefix("min(") || lowered.hasPrefix("max(") || lowered.hasPrefix("clamp(")
    }

    static func isImage(_ lowered: String) -> Bool {
        lowered.hasPrefix("url(") || lowered.contains("gradient(") || lowered.hasPrefix("image-set(")
            || lowered.hasPrefix("-webkit-image-set(") || lowered.hasPrefix("image(") || lowered.hasPrefix("cross-fade(")
            || lowered.hasPrefix("element(") || lowered.hasPrefix("paint(")
    }
}

extension StringProtocol {
    func trimmingASCIIWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.utf8.first, CSSTokenizer.isWhitespace(first) { slice = slice.dropFirst() }
        while let last = slice.utf8.last, CSSTokenizer.isWhitespace(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
