import CanopyHTML

/// `<meta http-equiv="refresh">` as a browser reads it (HTML's shared declarative refresh
/// steps): only the first such element whose content parses refreshes the page; its delay is the
/// leading whole number of seconds (a fraction is read and ignored), which must be followed by
/// nothing, whitespace, `;` or `,`. `-1`, `+5`, `; 30`, `0: url` and `soon` refresh nothing.
/// meta-refresh and meta-refresh-no-exceptions share it, with different delays allowed.
public protocol RefreshDelayRule: Rule {
    /// Delays above this many seconds are allowed (WCAG 2.2.1's 20-hour exception); nil: none is.
    var longestInterruptingDelay: Int? { get }
}

extension RefreshDelayRule {
    public var selector: SelectorList { MetaRefresh.selector }
    /// A `<meta>` is never rendered, yet its refresh still happens.
    public var excludesHidden: Bool { false }

    public func applies(to element: Element, on page: PageContext) -> Bool {
        MetaRefresh.effective(on: page)?.element == element
    }

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        guard let delay = MetaRefresh.delay(in: element.attribute("content") ?? "") else { return .pass }
        if delay == 0 { return .pass }
        if let longest = longestInterruptingDelay, delay > longest { return .pass }
        return .violation("The page refreshes or redirects after \(delay) second\(delay == 1 ? "" : "s").")
    }
}

public enum MetaRefresh {
    static let selector = try! SelectorList(#"meta[http-equiv="refresh" i][content]"#)

    /// The refresh the page performs: the first `<meta http-equiv=refresh>` whose content parses.
    static func effective(on page: PageContext) -> (element: Element, delay: Int)? {
        page.memo("meta-refresh.effective") { () -> EffectiveRefresh in
            for meta in page.elements(matching: selector) {
                if let delay = delay(in: meta.attribute("content") ?? "") { return EffectiveRefresh(found: (meta, delay)) }
            }
            return EffectiveRefresh(found: nil)
        }.found
    }

    private struct EffectiveRefresh {
        let found: (element: Element, delay: Int)?
    }

    /// The delay in whole seconds, nil when the content is not a refresh.
    public static func delay(in content: String) -> Int? {
        let bytes = Array(content.utf8)
        var index = 0
        func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D }
        func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
        while index < bytes.count, isWhitespace(bytes[index]) { index += 1 }
        let digitsStart = index
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        // No digits: only a fraction such as ".5" still reads, as zero.
        if index == digitsStart, index >= bytes.count || bytes[index] != UInt8(ascii: ".") { return nil }
        // Seconds beyond any real delay saturate rather than overflow.
        let seconds = bytes[digitsStart..<index].reduce(0) { min($0 * 10 + Int($1 - 0x30), Int(Int32.max)) }
        while index < bytes.count, isDigit(bytes[index]) || bytes[index] == UInt8(ascii: ".") { index += 1 }
        if index < bytes.count, !(isWhitespace(bytes[index]) || bytes[index] == UInt8(ascii: ";") || bytes[index] == UInt8(ascii: ",")) {
            return nil
        }
        return seconds
    }
}
