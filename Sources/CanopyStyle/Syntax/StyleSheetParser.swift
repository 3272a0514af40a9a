import CanopyHTML
import Foundation

/// A stylesheet as written, before any device or page is known: rules, conditional groups,
/// layers and imports in source order. Parsed once per stylesheet URL and crawl, then shared.
public struct ParsedStyleSheet: Sendable {
    public internal(set) var items: [SheetItem] = []
    /// Rules a browser would drop too: bad syntax, or selectors Canopy cannot match.
    public internal(set) var droppedRules = 0

    public init(parsing text: String) {
        var parser = StyleSheetParser(Array(text.utf8))
        self = parser.parseSheet()
    }

    /// The `@import` rules, in order, with the conditions they are written under.
    public var imports: [ImportRule] {
        items.compactMap { if case .importRule(let rule) = $0 { return rule } else { return nil } }
    }
}

public indirect enum SheetItem: Sendable {
    case style(StyleRule)
    /// `@media`, `@supports` and other conditional groups; the items apply when the condition holds.
    case conditional(GroupCondition, [SheetItem])
    /// `@layer name { ... }`; nil for an anonymous layer.
    case layerBlock(LayerName?, [SheetItem])
    /// `@layer a, b;`: fixes the order of layers before their rules appear.
    case layerStatement([LayerName])
    case importRule(ImportRule)
}

/// A dotted layer name, `framework.base` as ["framework", "base"].
public typealias LayerName = [String]

public enum GroupCondition: Sendable {
    case media(MediaQueryList)
    case supports(SupportsCondition)
    /// `@container`, `@scope`, `@starting-style`...: whether they apply depends on layout or
    /// state Canopy does not have.
    case undecidable(String)
}

public struct ImportRule: Sendable {
    public let url: String
    public let media: MediaQueryList?
    public let supports: SupportsCondition?
    /// `layer` alone gives an anonymous layer ([]); nil when not layered.
    public let layer: LayerName?
}

public struct StyleRule: Sendable {
    public let selectors: [StyleSelector]
    public let declarations: DeclarationBlock
}

/// The declarations of one rule or `style` attribute, shorthands already expanded to longhands.
public struct DeclarationBlock: Sendable {
    public internal(set) var declarations: [Declaration] = []
    /// Custom properties (`--name`), by name as written.
    public internal(set) var customProperties: [CustomPropertyDeclaration] = []
    /// Which properties the block declares, for a quick "does it say anything about X?".
    public internal(set) var declared = PropertySet()
    /// Whether any declaration is `!important`.
    public internal(set) var hasImportant = false

    public var isEmpty: Bool { declarations.isEmpty && customProperties.isEmpty }

    /// Parses the text of a `style` attribute.
    public init(parsing text: String) {
        var parser = StyleSheetParser(Array(text.utf8))
        self = parser.parseStyleAttribute()
    }

    init() {}

    mutating func append(_ declaration: Declaration) {
        declarations.append(declaration)
        declared.insert(declaration.property)
        if declaration.important { hasImportant = true }
    }
}

public struct Declaration: Sendable, Hashable {
    public let property: CSSProperty
    /// The value as written, comments removed and whitespace collapsed. When `shorthand` is set,
    /// this is the shorthand's whole value (it held a `var()`, so it can only be expanded once
    /// the variables are known).
    public let value: String
    public let important: Bool
    /// The shorthand this longhand was written as, when its value could not be split yet.
    public let pendingShorthand: CSSShorthand?
    /// The value holds `var()`: substitute before use.
    public let hasVariables: Bool
}

public struct CustomPropertyDeclaration: Sendable, Hashable {
    public let name: String
    public let value: String
    public let important: Bool
}

// MARK: -

/// CSS Syntax Level 3 "consume a list of rules" and "consume a declaration list", with the
/// error recovery browsers use: a broken rule or declaration is dropped, the rest is kept.
struct StyleSheetParser {
    private let bytes: [UInt8]
    private let tokens: [CSSToken]
    private var index = 0
    private var dropped = 0
    /// Nested blocks deeper than this are skipped, so hostile input cannot exhaust the stack.
    private static let maximumDepth = 64
    private var depth = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.tokens = CSSTokenizer.tokenize(bytes)
    }

    mutating func parseSheet() -> ParsedStyleSheet {
        var sheet = ParsedStyleSheet(empty: ())
        sheet.items = parseRuleList(topLevel: true, parentSelector: nil)
        sheet.droppedRules = dropped
        return sheet
    }

    mutating func parseStyleAttribute() -> DeclarationBlock {
        var block = DeclarationBlock()
        var nested: [SheetItem] = []
        parseDeclarations(into: &block, nested: &nested, parentSelector: nil, until: nil)
        return block
    }

    // MARK: Rules

    private var current: CSSToken? { index < tokens.count ? tokens[index] : nil }

    private mutating func parseRuleList(topLevel: Bool, parentSelector: String?) -> [SheetItem] {
        var items: [SheetItem] = []
        while let token = current {
            switch token.kind {
            case .whitespace, .comment:
                index += 1
            case .cdo where topLevel, .cdc where topLevel:
                index += 1
            case .closeCurly where !topLevel:
                return items
            case .atKeyword:
                items += parseAtRule(parentSelector: parentSelector)
            default:
                if let rule = parseQualifiedRule(parentSelector: parentSelector) { items += rule }
            }
        }
        return items
    }

    /// A selector prelude and its block; nil when dropped.
    private mutating func parseQualifiedRule(parentSelector: String?) -> [SheetItem]? {
        let preludeStart = index
        while let token = current, token.kind != .openCurly {
            if token.kind == .semicolon && parentSelector != nil {
                // Inside a block, a stray statement ends at ";" (it was a broken declaration).
                index += 1
                dropped += 1
                return nil
            }
            skipComponentValue()
        }
        guard current != nil else {
            dropped += 1
            return nil
        }
        let preludeText = text(from: preludeStart, to: index)
        let selectorText = parentSelector.map { Self.nest(preludeText, inside: $0) } ?? preludeText
        index += 1  // "{"
        guard depth < Self.maximumDepth else {
            skipBlockContents()
            dropped += 1
            return nil
        }
        var block = DeclarationBlock()
        var nested: [SheetItem] = []
        enterBlock()
        parseDeclarations(into: &block, nested: &nested, parentSelector: selectorText, until: .closeCurly)
        leaveBlock()
        guard let selectors = try? StyleSelector.parseList(selectorText) else {
            dropped += 1
            return nil
        }
        var items: [SheetItem] = []
        if !block.isEmpty { items.append(.style(StyleRule(selectors: selectors, declarations: block))) }
        return items + nested
    }

    /// CSS Nesting: `&` stands for the parent's selector; without one the rule is a descendant.
    static func nest(_ selector: String, inside parent: String) -> String {
        selector.split(separator: ",", omittingEmptySubsequences: false).map { part -> String in
            let trimmed = part.trimmingASCIIWhitespace()
            if trimmed.contains("&") { return trimmed.replacingOccurrences(of: "&", with: ":is(\(parent))") }
            return ":is(\(parent)) \(trimmed)"
        }.joined(separator: ", ")
    }

    private mutating func parseAtRule(parentSelector: String?) -> [SheetItem] {
        let keyword = tokens[index]
        let name = lowercasedName(keyword)
        index += 1
        let preludeStart = index
        while let token = current, token.kind != .openCurly, token.kind != .semicolon {
            if token.kind == .closeCurly && parentSelector != nil { break }
            skipComponentValue()
        }
        let preludeEnd = index
        let prelude = text(from: preludeStart, to: preludeEnd)
        let hasBlock = current?.kind == .openCurly
        if current?.kind == .semicolon { index += 1 }
        guard hasBlock else {
            switch name {
            case "import" where parentSelector == nil:
                if let rule = parseImport(from: preludeStart, to: preludeEnd) { return [.importRule(rule)] }
                dropped += 1
            case "layer":
                let names = Self.layerNames(prelude)
                if !names.isEmpty { return [.layerStatement(names)] }
            default: break
            }
            return []
        }
        index += 1  // "{"
        guard depth < Self.maximumDepth else {
            skipBlockContents()
            dropped += 1
            return []
        }
        enterBlock()
        defer { leaveBlock() }
        switch name {
        case "media", "supports", "layer", "container", "scope", "starting-style", "document", "-moz-document":
            var contents: [SheetItem]
            if let parentSelector {
                // Nested in a style rule: bare declarations apply to the parent selector.
                var block = DeclarationBlock()
                var nested: [SheetItem] = []
                parseDeclarations(into: &block, nested: &nested, parentSelector: parentSelector, until: .closeCurly)
                contents = nested
                if !block.isEmpty, let selectors = try? StyleSelector.parseList(parentSelector) {
                    contents.insert(.style(StyleRule(selectors: selectors, declarations: block)), at: 0)
                }
            } else {
                contents = parseRuleList(topLevel: false, parentSelector: nil)
            }
            if current?.kind == .closeCurly { index += 1 }
            switch name {
            case "media": return [.conditional(.media(MediaQueryList(prelude)), contents)]
            case "supports": return [.conditional(.supports(SupportsCondition(prelude)), contents)]
            case "layer":
                let names = Self.layerNames(prelude)
                return [.layerBlock(names.first, contents)]
            default: return [.conditional(.undecidable("@" + name), contents)]
            }
        default:
            // @font-face, @keyframes, @page, @property, @counter-style...: nothing that styles elements.
            skipBlockContents()
            return []
        }
    }

    private mutating func parseImport(from start: Int, to end: Int) -> ImportRule? {
        var position = start
        func skipSpace() { while position < end, tokens[position].kind == .whitespace || tokens[position].kind == .comment { position += 1 } }
        skipSpace()
        guard position < end else { return nil }
        let url: String
        let first = tokens[position]
        switch first.kind {
        case .string: url = decodedString(first)
        case .url: url = String(decoding: bytes[first.nameStart..<first.nameEnd], as: UTF8.self)
        case .function where lowercasedName(first) == "url":
            position += 1
            skipSpace()
            guard position < end, tokens[position].kind == .string else { return nil }
            url = decodedString(tokens[position])
            while position < end, tokens[position].kind != .closeParen { position += 1 }
        default: return nil
        }
        position += 1
        skipSpace()
        var layer: LayerName?
        if position < end, tokens[position].kind == .ident, lowercasedName(tokens[position]) == "layer" {
            layer = []
            position += 1
        } else if position < end, tokens[position].kind == .function, lowercasedName(tokens[position]) == "layer" {
            let argumentStart = position + 1
            position = skipFunction(from: position)
            layer = Self.layerNames(text(from: argumentStart, to: position - 1)).first ?? []
        }
        skipSpace()
        var supports: SupportsCondition?
        if position < end, tokens[position].kind == .function, lowercasedName(tokens[position]) == "supports" {
            let argumentStart = position
            position = skipFunction(from: position)
            // `supports(display: grid)` takes a declaration or a condition, as `@supports` does.
            let argument = text(from: argumentStart + 1, to: position - 1)
            supports = SupportsCondition(argument.contains(":") && !argument.hasPrefix("(") ? "(" + argument + ")" : argument)
        }
        let mediaText = text(from: position, to: end)
        return ImportRule(url: url, media: mediaText.isEmpty ? nil : MediaQueryList(mediaText), supports: supports, layer: layer)
    }

    static func layerNames(_ prelude: String) -> [LayerName] {
        prelude.split(separator: ",").compactMap { part in
            let name = part.trimmingASCIIWhitespace()
            guard !name.isEmpty else { return nil }
            return name.split(separator: ".").map { $0.trimmingASCIIWhitespace() }
        }
    }

    // MARK: Declarations

    /// Declarations up to the closing `}` (or the end), with nested rules collected aside.
    private mutating func parseDeclarations(
        into block: inout DeclarationBlock, nested: inout [SheetItem], parentSelector: String?, until closing: CSSToken.Kind?
    ) {
        while let token = current {
            switch token.kind {
            case .whitespace, .comment, .semicolon:
                index += 1
            case .closeCurly where closing == .closeCurly:
                index += 1
                return
            case .atKeyword:
                if let parentSelector { nested += parseAtRule(parentSelector: parentSelector) } else { skipStatement() }
            case .ident where startsDeclaration():
                parseDeclaration(into: &block)
            default:
                // A nested style rule (`&:hover {}`, `.child {}`), or garbage to skip to the next ";".
                if let parentSelector, blockFollowsBeforeSemicolon() {
                    if let rule = parseQualifiedRule(parentSelector: parentSelector) { nested += rule }
                } else {
                    dropped += 1
                    skipStatement()
                }
            }
        }
    }

    /// An identifier, optional whitespace, then a colon, and no `{` before the next `;`: nested
    /// rules such as `a:hover { }` also start with an identifier and a colon.
    private func startsDeclaration() -> Bool {
        var position = index + 1
        while position < tokens.count, tokens[position].kind == .whitespace || tokens[position].kind == .comment { position += 1 }
        guard position < tokens.count, tokens[position].kind == .colon else { return false }
        return !blockFollowsBeforeSemicolon() || isCustomPropertyName(tokens[index])
    }

    private func blockFollowsBeforeSemicolon() -> Bool {
        var position = index
        var nesting = 0
        while position < tokens.count {
            switch tokens[position].kind {
            case .openParen, .openSquare, .function: nesting += 1
            case .closeParen, .closeSquare: nesting -= 1
            case .semicolon where nesting <= 0: return false
            case .closeCurly where nesting <= 0: return false
            case .openCurly where nesting <= 0: return true
            default: break
            }
            position += 1
        }
        return false
    }

    private func isCustomPropertyName(_ token: CSSToken) -> Bool {
        token.nameEnd - token.nameStart > 2 && bytes[token.nameStart] == UInt8(ascii: "-") && bytes[token.nameStart + 1] == UInt8(ascii: "-")
    }

    private mutating func parseDeclaration(into block: inout DeclarationBlock) {
        let nameToken = tokens[index]
        let isCustom = isCustomPropertyName(nameToken)
        let name = isCustom ? text(from: index, to: index + 1) : lowercasedName(nameToken)
        index += 1
        while let token = current, token.kind != .colon { index += 1 }
        index += 1  // ":"
        let valueStart = index
        var curlyDepth = 0
        while let token = current {
            if token.kind == .semicolon && curlyDepth == 0 { break }
            if token.kind == .closeCurly && curlyDepth == 0 { break }
            if token.kind == .openCurly { curlyDepth += 1 }
            if token.kind == .closeCurly { curlyDepth -= 1 }
            skipComponentValue()
        }
        var valueEnd = index
        if current?.kind == .semicolon { index += 1 }
        // `!important` at the end, with any whitespace or comments around the "!".
        var important = false
        var last = valueEnd - 1
        while last >= valueStart, tokens[last].kind == .whitespace || tokens[last].kind == .comment { last -= 1 }
        if last > valueStart, tokens[last].kind == .ident, lowercasedName(tokens[last]) == "important" {
            var bang = last - 1
            while bang >= valueStart, tokens[bang].kind == .whitespace || tokens[bang].kind == .comment { bang -= 1 }
            if bang >= valueStart, tokens[bang].kind == .delim, bytes[tokens[bang].start] == UInt8(ascii: "!") {
                important = true
                valueEnd = bang
            }
        }
        let value = text(from: valueStart, to: valueEnd)
        if isCustom {
            block.customProperties.append(CustomPropertyDeclaration(name: name, value: value, important: important))
            if important { block.hasImportant = true }
            return
        }
        guard !value.isEmpty else {
            dropped += 1
            return
        }
        let hasVariables = Self.containsVariable(value)
        if let property = CSSProperty(name: name) {
            block.append(Declaration(property: property, value: value, important: important, pendingShorthand: nil, hasVariables: hasVariables))
        } else if let shorthand = CSSShorthand(name: name) {
            if hasVariables {
                for longhand in shorthand.longhands {
                    block.append(Declaration(property: longhand, value: value, important: important, pendingShorthand: shorthand, hasVariables: true))
                }
            } else if let expanded = shorthand.expand(value) {
                for (longhand, longhandValue) in expanded {
                    block.append(Declaration(property: longhand, value: longhandValue, important: important, pendingShorthand: nil, hasVariables: false))
                }
            } else {
                dropped += 1
            }
        }
        // Any other property is one no rule reads: not kept, so no page pays for it.
    }

    static func containsVariable(_ value: String) -> Bool {
        value.utf8.count > 4 && value.containsASCIICaseInsensitive("var(")
    }

    // MARK: Skipping

    /// One component value: a token, or a whole `(...)`, `[...]`, `{...}` or function.
    private mutating func skipComponentValue() {
        guard let token = current else { return }
        switch token.kind {
        case .function, .openParen: index = skipFunction(from: index)
        case .openSquare: skipBlock(closing: .closeSquare)
        case .openCurly: skipBlock(closing: .closeCurly)
        default: index += 1
        }
    }

    /// Returns the index after the `)` that closes the function or parenthesis at `start`.
    private func skipFunction(from start: Int) -> Int {
        var position = start + 1
        var nesting = 1
        while position < tokens.count {
            switch tokens[position].kind {
            case .function, .openParen: nesting += 1
            case .closeParen:
                nesting -= 1
                if nesting == 0 { return position + 1 }
            default: break
            }
            position += 1
        }
        return position
    }

    private mutating func skipBlock(closing: CSSToken.Kind) {
        let opening = tokens[index].kind
        var nesting = 0
        while let token = current {
            index += 1
            if token.kind == opening { nesting += 1 }
            if token.kind == closing {
                nesting -= 1
                if nesting == 0 { return }
            }
        }
    }

    /// After `{` was consumed: skips to just past the matching `}`.
    private mutating func skipBlockContents() {
        var nesting = 1
        while let token = current {
            index += 1
            if token.kind == .openCurly { nesting += 1 }
            if token.kind == .closeCurly {
                nesting -= 1
                if nesting == 0 { return }
            }
        }
    }

    /// To just past the next `;` at this level, or up to the `}` that closes the block.
    private mutating func skipStatement() {
        while let token = current {
            if token.kind == .semicolon {
                index += 1
                return
            }
            if token.kind == .closeCurly { return }
            if token.kind == .openCurly {
                skipBlock(closing: .closeCurly)
                return
            }
            skipComponentValue()
        }
    }

    private mutating func enterBlock() { depth += 1 }
    private mutating func leaveBlock() { depth -= 1 }

    // MARK: Text

    /// The source text of tokens `start..<end`: comments dropped, whitespace runs as one space,
    /// trimmed.
    private func text(from start: Int, to end: Int) -> String {
        var output: [UInt8] = []
        var pendingSpace = false
        var position = start
        while position < end {
            let token = tokens[position]
            position += 1
            if token.kind == .whitespace || token.kind == .comment {
                pendingSpace = !output.isEmpty
                continue
            }
            if pendingSpace { output.append(0x20) }
            pendingSpace = false
            output.append(contentsOf: bytes[token.start..<token.end])
        }
        return String(decoding: output, as: UTF8.self)
    }

    private func lowercasedName(_ token: CSSToken) -> String {
        var name = [UInt8]()
        name.reserveCapacity(token.nameEnd - token.nameStart)
        for byte in bytes[token.nameStart..<token.nameEnd] { name.append(byte.asciiLowercased) }
        return String(decoding: name, as: UTF8.self)
    }

    private func decodedString(_ token: CSSToken) -> String {
        CSSEscapes.decode(bytes[token.nameStart..<token.nameEnd])
    }
}

extension ParsedStyleSheet {
    init(empty: ()) {}
}

/// Backslash escapes in CSS strings and names.
enum CSSEscapes {
    static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(UInt8(ascii: "\\")) else { return String(decoding: bytes, as: UTF8.self) }
        var scalars = String.UnicodeScalarView()
        let decoded = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
        var position = 0
        while position < decoded.count {
            let scalar = decoded[position]
            position += 1
            guard scalar == "\\", position < decoded.count else {
                scalars.append(scalar)
                continue
            }
            var hex = ""
            while hex.count < 6, position < decoded.count, decoded[position].properties.isASCIIHexDigit {
                hex.unicodeScalars.append(decoded[position])
                position += 1
            }
            if hex.isEmpty {
                if decoded[position] != "\n" { scalars.append(decoded[position]) }
                position += 1
                continue
            }
            if position < decoded.count, decoded[position] == " " || decoded[position] == "\n" || decoded[position] == "\t" { position += 1 }
            let value = UInt32(hex, radix: 16) ?? 0xFFFD
            scalars.append(Unicode.Scalar(value == 0 ? 0xFFFD : value) ?? "\u{FFFD}")
        }
        return String(scalars)
    }
}
