import CanopyAccessibility
import CanopyHTML

/// Where an element is drawn, as far as static HTML tells: axe-core's `is-on-screen` check and
/// `isOffscreen` read the layout, which Canopy does not have. Style attributes on the element and
/// its ancestors are the only positions known for sure; any style sheet may still move things.
enum ScreenPlacement: Equatable {
    /// Not drawn at all: `display:none`, `hidden`, `visibility:hidden` (and simple page style rules).
    case unrendered
    /// Drawn where it stands but invisible: `opacity:0`, or clipped to nothing.
    case invisible(String)
    /// Pushed so far outside the page (e.g. `left:-9999px`) that no part of it shows.
    case offScreen(String)
    /// Moved by an amount only layout can tell (small negative offsets, transforms, percentages).
    case displaced(String)
    /// Not moved by any style attribute; `styledByPage` says whether the page has style sheets
    /// that might still move or hide it.
    case inFlow(styledByPage: Bool)

    /// Where `element` is drawn on `page`.
    static func of(_ element: Element, on page: PageContext) -> ScreenPlacement {
        let model = page.accessibility
        if model.isNotRendered(element) || model.isVisibilityHidden(element) { return .unrendered }
        var displacement: String?
        for styled in [element] + Array(element.ancestors) {
            guard let style = styled.attribute("style"), !style.isEmpty else { continue }
            let declarations = StyleAttributeDeclarations(parsing: style)
            let owner = styled == element ? "its style" : "the style of its <\(styled.localName)> ancestor"
            if let opacity = declarations["opacity"].flatMap(Double.init), opacity <= 0 {
                return .invisible("\(owner) sets opacity:0")
            }
            if declarations.clipsToNothing {
                return .invisible("\(owner) clips it to nothing")
            }
            switch declarations.offset {
            case .far(let property): return .offScreen("\(owner) sets \(property), placing it outside the page")
            case .unknown(let property): displacement = displacement ?? "\(owner) moves it with \(property)"
            case .none: break
            }
        }
        if let displacement { return .displaced(displacement) }
        return .inFlow(styledByPage: hasStyleSheets(page))
    }

    /// Whether the page has style sheets (a `<style>` or `<link rel="stylesheet">`), whose rules
    /// Canopy does not lay out. Once per page.
    static func hasStyleSheets(_ page: PageContext) -> Bool {
        page.memo("optInB.hasStyleSheets") {
            page.document.elements.contains { element in
                guard element.isHTML else { return false }
                if element.localName == "style" { return true }
                guard element.localName == "link", let rel = element.attribute("rel") else { return false }
                return rel.lowercased().split(whereSeparator: \.isHTMLWhitespace).contains("stylesheet")
            }
        }
    }
}

/// The declarations of a style attribute, by lower-cased property (the last one wins, as in CSS;
/// `!important` dropped).
struct StyleAttributeDeclarations {
    private var values: [String: String] = [:]

    init(parsing text: String) {
        for declaration in text.split(separator: ";") {
            guard let colon = declaration.firstIndex(of: ":") else { continue }
            let property = PlacedText.trimmed(declaration[..<colon]).lowercased()
            var value = PlacedText.trimmed(declaration[declaration.index(after: colon)...]).lowercased()
            if let bang = value.firstIndex(of: "!") { value = PlacedText.trimmed(value[..<bang]) }
            guard !property.isEmpty, !value.isEmpty else { continue }
            values[property] = value
        }
    }

    subscript(property: String) -> String? { values[property] }

    /// Offsets (`left`, `top`) only apply to positioned boxes.
    var isPositioned: Bool {
        guard let position = values["position"] else { return false }
        return ["absolute", "fixed", "relative", "sticky"].contains(position)
    }

    /// `clip: rect(0 0 0 0)` (any zero-sized rectangle; `clip` applies to absolutely positioned
    /// boxes only) or `clip-path: inset(50%)` and beyond.
    var clipsToNothing: Bool {
        if let clip = values["clip"], clip.hasPrefix("rect("), ["absolute", "fixed"].contains(values["position"] ?? "") {
            let numbers = clip.dropFirst(5).split(whereSeparator: { " ,)".contains($0) }).map { StyleLength(String($0)) }
            if numbers.count == 4, let top = numbers[0].pixels, let right = numbers[1].pixels,
                let bottom = numbers[2].pixels, let left = numbers[3].pixels, right <= left || bottom <= top
            {
                return true
            }
        }
        if let clipPath = values["clip-path"], clipPath.hasPrefix("inset("),
            let first = clipPath.dropFirst(6).split(whereSeparator: { " )".contains($0) }).first,
            first.hasSuffix("%"), let percent = Double(first.dropLast()), percent >= 50
        {
            return true
        }
        return false
    }

    enum Offset: Equatable { case none, far(String), unknown(String) }

    /// How the declared offsets move the box up or left (the directions that leave the page;
    /// a page grows to the right and down to hold what moves there).
    var offset: Offset {
        var properties: [String] = ["margin-left", "margin-top"]
        if isPositioned { properties = ["left", "top"] + properties }
        var result = Offset.none
        for property in properties {
            guard let value = values[property] else { continue }
            let length = StyleLength(value)
            guard let pixels = length.pixels else {
                if length.isNegative { result = .unknown("\(property):\(value)") }
                continue
            }
            if pixels <= -StyleLength.farOffScreen { return .far("\(property):\(value)") }
            if pixels < 0, result == .none { result = .unknown("\(property):\(value)") }
        }
        if let transform = values["transform"], transform != "none", result == .none { result = .unknown("transform:\(transform)") }
        return result
    }
}

/// A CSS length, in CSS pixels when static HTML can tell (px, unitless zero, em/rem at the
/// default 16px font size).
struct StyleLength {
    /// An offset this far up or left hides any ordinary element: no link or paragraph is 1000px tall or wide.
    static let farOffScreen = 1000.0

    let pixels: Double?
    let isNegative: Bool

    init(_ text: String) {
        let trimmed = PlacedText.trimmed(text)
        isNegative = trimmed.hasPrefix("-")
        if let number = Double(trimmed) {
            pixels = number == 0 ? 0 : nil
        } else if trimmed.hasSuffix("rem"), let number = Double(trimmed.dropLast(3)) {
            pixels = number * 16
        } else if trimmed.hasSuffix("px") || trimmed.hasSuffix("em"), let number = Double(trimmed.dropLast(2)) {
            pixels = trimmed.hasSuffix("px") ? number : number * 16
        } else {
            pixels = nil
        }
    }
}

/// Small text helpers the opt-in rules (part B) share.
enum PlacedText {
    /// `text` without leading and trailing HTML whitespace.
    static func trimmed<Text: StringProtocol>(_ text: Text) -> String {
        var slice = Substring(text)
        while let first = slice.first, first.isHTMLWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isHTMLWhitespace { slice = slice.dropLast() }
        return String(slice)
    }

    /// The first family of a `font-family` value, lower-cased (quotes kept): the font the text
    /// is drawn in when it loads.
    static func firstFontFamily(_ value: String) -> String {
        // By bytes where each is a character: split by characters, the whole list was read to
        // take its first entry, 20,000 instructions a link in link-in-text-block.
        if value.isOneCharacterPerByte { return firstFontFamily(asciiBytes: value.utf8) }
        return firstFontFamilyByCharacters(value)
    }

    /// `firstFontFamily` by characters: the definition, and the path for other values.
    static func firstFontFamilyByCharacters(_ value: String) -> String {
        trimmed(value.split(whereSeparator: { $0 == "," || $0 == ";" }).first ?? Substring(value)).lowercased()
    }

    private static func firstFontFamily(asciiBytes bytes: String.UTF8View) -> String {
        let isSeparator = { (byte: UInt8) in byte == UInt8(ascii: ",") || byte == UInt8(ascii: ";") }
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C }
        // The first entry that is not empty, as `split` omits empty ones; the whole value when none is.
        var entry = bytes[...]
        if let start = bytes.firstIndex(where: { !isSeparator($0) }) {
            entry = bytes[start..<(bytes[start...].firstIndex(where: isSeparator) ?? bytes.endIndex)]
        }
        let first = entry.firstIndex(where: { !isSpace($0) }) ?? entry.endIndex
        let last = entry[first...].lastIndex(where: { !isSpace($0) }).map { bytes.index(after: $0) } ?? first
        return String(decoding: entry[first..<last].map(\.asciiLowercased), as: UTF8.self)
    }
}
