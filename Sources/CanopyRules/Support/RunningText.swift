import CanopyAccessibility
import CanopyHTML
import CanopyStyle

/// Text as it runs on screen: whitespace folded as a reader sees it, and whether an element sits
/// inside a line of ordinary text, as axe-core's `isInTextBlock` decides it for
/// link-in-text-block. (The text a reader sees of an element is the accessibility model's
/// `visibleText(of:)`.)
enum RunningText {
    /// Whitespace runs folded to one space (no-break spaces included), trimmed. Text is folded on
    /// its bytes whenever its scalars cannot join into characters around whitespace (`isSimple`),
    /// nearly all the web's: Unicode's grapheme rules per character cost more than the rule that asks.
    static func sanitized(_ text: String) -> String {
        var text = text
        return text.withUTF8 { sanitized(utf8: $0) } ?? sanitizedByCharacters(text)
    }

    /// `sanitized` of text given as UTF-8 bytes.
    static func sanitized(utf8 bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer { sanitized(utf8: $0) } ?? sanitizedByCharacters(String(decoding: bytes, as: UTF8.self))
    }

    /// The folded text written straight into a string (never longer than the bytes), or nil
    /// when the bytes do not fold on their own.
    private static func sanitized(utf8 bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var folds = true
        let folded = String(unsafeUninitializedCapacity: bytes.count) { output in
            var length = 0
            folds = foldOnBytes(bytes) { byte in
                output[length] = byte
                length += 1
            }
            return folds ? length : 0
        }
        return folds ? folded : nil
    }

    /// `sanitized(text).count` of text given as UTF-8 bytes, counted without building the text
    /// when it folds on bytes (one character a scalar there: its lead byte is counted).
    static func sanitizedLength(utf8 bytes: [UInt8]) -> Int {
        var length = 0
        let folds = bytes.withUnsafeBufferPointer { buffer in foldOnBytes(buffer) { byte in if byte & 0xC0 != 0x80 { length += 1 } } }
        return folds ? length : sanitizedByCharacters(String(decoding: bytes, as: UTF8.self)).count
    }

    /// The definition: the runs of characters that are not whitespace, joined by one space.
    /// Characters decide what whitespace is (a space carrying a combining mark is one whitespace
    /// character), so text whose scalars might join around a space is folded by this.
    static func sanitizedByCharacters(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace || $0 == "\u{00A0}" }).joined(separator: " ")
    }

    /// Calls `body` with each byte of the folded text and returns true when the text folds scalar
    /// by scalar: each scalar its own character as far as whitespace goes, so that a whitespace
    /// scalar is a whitespace character and every other scalar is kept (`isSimple`). False, with
    /// some bytes already given, for any other text. One pass over the contiguous bytes, ASCII
    /// without a look at Unicode's tables; a code listing with an arrow in it had gone the way
    /// of the definition, 800 instructions a character.
    @inline(__always)
    private static func foldOnBytes(_ bytes: UnsafeBufferPointer<UInt8>, _ body: (UInt8) -> Void) -> Bool {
        var pendingSpace = false
        var wroteAny = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 0x80 {
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
                guard index + length <= bytes.count else { return false }
                var value = UInt32(byte) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
                for offset in 1..<length { value = value << 6 | (UInt32(bytes[index + offset]) & 0x3F) }
                guard let scalar = Unicode.Scalar(value), isSimple(scalar) else { return false }
                if scalar.properties.isWhitespace {
                    pendingSpace = wroteAny
                } else {
                    if pendingSpace { body(0x20) }
                    pendingSpace = false
                    wroteAny = true
                    for offset in 0..<length { body(bytes[index + offset]) }
                }
                index += length
                continue
            }
            if byte == 0x20 || (0x09...0x0D).contains(byte) {
                pendingSpace = wroteAny
            } else {
                if pendingSpace { body(0x20) }
                pendingSpace = false
                wroteAny = true
                body(byte)
            }
            index += 1
        }
        return true
    }

    /// A non-ASCII scalar that can join no whitespace scalar into one character, on either side:
    /// letters, digits, punctuation, most symbols and separators. Not marks and format characters
    /// (they extend what precedes them), modifier symbols and letters (emoji skin tones, the
    /// halfwidth voicing marks extend too), nor the few letters that are spacing marks or prepend
    /// to what follows. Leaving out more than needed only sends text the definition's way.
    private static func isSimple(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0E33, 0x0EB3, 0x0D4E, 0x111C2, 0x111C3, 0x1193F, 0x11941, 0x11A3A, 0x11A84...0x11A89, 0x11D46, 0x11F02: return false
        // Hangul jamo and regional indicators, which join one another: the count would be off.
        case 0x1100...0x11FF, 0xA960...0xA97F, 0xD7B0...0xD7FF, 0x1F1E6...0x1F1FF: return false
        default: break
        }
        let properties = scalar.properties
        if properties.isGraphemeExtend || properties.isEmojiModifier { return false }
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .otherLetter, .decimalNumber, .letterNumber, .otherNumber,
             .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation, .finalPunctuation,
             .otherPunctuation, .mathSymbol, .currencySymbol, .otherSymbol, .spaceSeparator, .lineSeparator, .paragraphSeparator:
            return true
        default:
            return false
        }
    }

    /// Whether `element` is an inline part of a line of text that holds more ordinary words than
    /// words of links and other controls: only the line holding the element counts, from the
    /// last line break (a `<br>`, `<hr>` or block) before it to the first one after it.
    static func isInTextBlock(_ element: Element, on page: PageContext) -> Bool {
        let styles = page.styles
        if styles.startsBlock(element) || styles.isInlineBlock(element) { return false }
        let cache = page.memo("running-text.lines") { LineCache() }
        guard let block = cache.nearestBlock(above: element, styles) else { return false }
        let lines = cache.lines(of: block, on: page)
        // An element inside a control is not walked: its answer is the block's last line, as
        // when a walk looking for it reaches the end.
        let lineIndex = cache.lineOf[element.position]
        let line = cache.line(lineIndex >= 0 ? lines.lowerBound + Int(lineIndex) : lines.upperBound - 1)
        return line.plainLength > line.widgetLength
    }

    /// The lines of each block asked about, walked once per page: a block of text with a
    /// hundred links is walked once, not once per link.
    private final class LineCache {
        /// The lines of every block walked, block after block, and where each block's are. Most
        /// blocks asked about hold a line or two (javadoc's cells): an array of lines for each
        /// and a pair of byte arrays for each line were most of what a walk cost.
        private var allLines: [Line] = []
        private var byBlock: [Int: Range<Int>] = [:]
        /// The line being gathered, in buffers kept across walks.
        private var plain: [UInt8] = []
        private var widget: [UInt8] = []
        /// The line each walked element lies on among its block's lines, by position (-1: not
        /// walked), for the whole page: a walk records only the elements whose nearest block is
        /// the one walked, so no two walks write the same entry. A dictionary per block was the
        /// walks' largest cost and 2.7 MB of the largest page's peak.
        private(set) var lineOf: [Int32] = []
        /// Each element's nearest ancestor that starts a block, by position (-2: not known yet,
        /// -1: none), so that links deep in a page do not each climb all their ancestors.
        private var blockAbove: [Int32] = []

        func line(_ index: Int) -> Line { allLines[index] }

        func nearestBlock(above element: Element, _ styles: ComputedStyles) -> Element? {
            if blockAbove.isEmpty { blockAbove = Array(repeating: -2, count: element.document.elementCount) }
            // Climb (without recursion: pages nest deep) to a block or to an element already
            // answered, then record the answer for every element passed on the way.
            var passed: [Int] = []
            var current = element
            var answer: Int32 = -1
            while true {
                let known = blockAbove[current.position]
                if known != -2 {
                    answer = known
                    break
                }
                passed.append(current.position)
                guard let parent = current.parent else { break }
                if styles.startsBlock(parent) {
                    answer = Int32(parent.position)
                    break
                }
                current = parent
            }
            for position in passed { blockAbove[position] = answer }
            return answer < 0 ? nil : element.document.element(atPosition: Int(answer))
        }

        /// Where the block's lines are among `allLines` (never empty: a block has a line).
        func lines(of block: Element, on page: PageContext) -> Range<Int> {
            if let known = byBlock[block.position] { return known }
            if lineOf.isEmpty { lineOf = Array(repeating: -1, count: block.document.elementCount) }
            let first = allLines.count
            var walk = LineWalk(page: page, firstLine: first)
            // The page's tables and the buffers are lent to the walk, so that they are written in
            // place, not copied.
            swap(&walk.lineOf, &lineOf)
            swap(&walk.lines, &allLines)
            swap(&walk.plain, &plain)
            swap(&walk.widget, &widget)
            walk.visitChildren(of: block)
            walk.endLine()
            swap(&walk.lineOf, &lineOf)
            swap(&walk.lines, &allLines)
            swap(&walk.plain, &plain)
            swap(&walk.widget, &widget)
            let lines = first..<allLines.count
            byBlock[block.position] = lines
            return lines
        }
    }

    struct Line {
        let plainLength: Int
        let widgetLength: Int
    }

    /// A block's content split at line breaks, each line's ordinary text apart from the text of
    /// its links and controls, measured as each line ends. Gathered as bytes: a string per text
    /// node and per link, appended to the line's, was most of the walk.
    private struct LineWalk {
        let page: PageContext
        let firstLine: Int
        var lines: [Line] = []
        var plain: [UInt8] = []
        var widget: [UInt8] = []
        var lineOf: [Int32] = []

        init(page: PageContext, firstLine: Int) {
            self.page = page
            self.firstLine = firstLine
        }

        /// Measures the line gathered so far and starts the next.
        mutating func endLine() {
            lines.append(Line(plainLength: RunningText.sanitizedLength(utf8: plain), widgetLength: RunningText.sanitizedLength(utf8: widget)))
            plain.removeAll(keepingCapacity: true)
            widget.removeAll(keepingCapacity: true)
        }

        mutating func visitChildren(of element: Element) {
            for node in element.childNodes {
                if node.kind == .text {
                    node.appendText(to: &plain)
                } else if let child = node.element {
                    visit(child)
                }
            }
        }

        private mutating func visit(_ element: Element) {
            let styles = page.styles
            if styles.startsBlock(element) || (element.isHTML && Self.breaksTheLine(element.localName)) {
                endLine()
                return
            }
            lineOf[element.position] = Int32(lines.count - firstLine)
            // Boxes taken out of the line by their own style attribute are not part of it.
            if let style = element.attribute("style"), Self.leavesTheLine(StyleAttributeDeclarations(parsing: style)) { return }
            if let role = page.accessibility.role(of: element), ARIARoles.role(named: role)?.type == "widget" {
                element.appendTextContent(to: &widget)
                return
            }
            visitChildren(of: element)
        }

        private static func breaksTheLine(_ name: String) -> Bool { name == "br" || name == "hr" }

        private static func leavesTheLine(_ style: StyleAttributeDeclarations) -> Bool {
            if style["display"] == "none" || style["overflow"] == "hidden" { return true }
            if let float = style["float"], float != "none" { return true }
            if let position = style["position"], position != "relative", position != "static" { return true }
            return false
        }
    }
}
