import CanopyHTML

/// `<meta name="viewport">` must not stop people from zooming: `user-scalable=no` or a
/// `maximum-scale` under 2 keeps people with low vision from enlarging text on mobile browsers.
public struct MetaViewportRule: Rule {
    public init() {}

    public let metadata = RuleMetadata(
        id: "meta-viewport",
        impact: .moderate,
        tags: [
            "cat.sensory-and-visual-cues", "wcag2aa", "wcag144", "EN-301-549", "EN-9.1.4.4", "ACT", "RGAAv4", "RGAA-10.4.2",
        ],
        description: "Checks that <meta name=\"viewport\"> does not disable zooming or limit it below 200%",
        help: "The viewport must let people zoom to at least 200%",
        howToFix: "Remove user-scalable=no (or set it to yes) and any maximum-scale below 2 from the viewport's content.",
        enabledByDefault: true,
        rationale: "Disabling zoom keeps low-vision users from enlarging text on mobile devices."
    )

    public let selector = try! SelectorList(#"meta[name="viewport"]"#)

    /// A frame's own document is not the page (axe's `is-initiator-matches`).
    public var topDocumentOnly: Bool { true }

    /// A `<meta>` is never rendered, yet the browser applies it.
    public var excludesHidden: Bool { false }

    /// The smallest acceptable maximum zoom (200%, WCAG 1.4.4).
    static let minimumMaximumScale = 2.0

    public func evaluate(_ element: Element, on page: PageContext) -> CheckOutcome {
        let content = (element.attribute("content") ?? "").lowercased()
        for item in content.split(whereSeparator: { $0 == ";" || $0 == "," }) {
            let pair = item.split(separator: "=", maxSplits: 2, omittingEmptySubsequences: false)
            guard pair.count >= 2 else { continue }
            let key = pair[0].trimmingHTMLSpace(), value = pair[1].trimmingHTMLSpace()
            guard !key.isEmpty, !value.isEmpty else { continue }
            let number = Self.leadingNumber(value)
            switch key {
            case "user-scalable":
                // Numbers between -1 and 1 (exclusive) mean "no"; words other than the known ones are treated as "no" too.
                let unknownWord = number == nil && !["yes", "device-width", "device-height"].contains(value)
                if unknownWord || number.map({ $0 > -1 && $0 < 1 }) == true {
                    return .violation("user-scalable=\(value) stops people from zooming the page.")
                }
            case "maximum-scale":
                if let number, number < 0 { continue }  // negative values are ignored by browsers
                let unknownWord = number == nil && !["device-width", "device-height"].contains(value)
                if unknownWord || number.map({ $0 < Self.minimumMaximumScale }) == true {
                    return .violation("maximum-scale=\(value) keeps people from zooming to 200%.")
                }
            default:
                continue
            }
        }
        return .pass
    }

    /// The number at the start of `text`, as JavaScript's parseFloat reads it ("1.5em" → 1.5,
    /// "-.5" → -0.5); nil when it starts with no number. Exponents are not read (nobody writes them here).
    static func leadingNumber(_ text: String) -> Double? {
        var number = ""
        var rest = Substring(text)
        if let sign = rest.first, sign == "-" || sign == "+" {
            number.append(sign)
            rest = rest.dropFirst()
        }
        let integer = rest.prefix { $0.isASCII && $0.isNumber }
        rest = rest.dropFirst(integer.count)
        var fraction = Substring("")
        if rest.first == "." { fraction = rest.dropFirst().prefix { $0.isASCII && $0.isNumber } }
        guard !integer.isEmpty || !fraction.isEmpty else { return nil }
        number += (integer.isEmpty ? "0" : integer) + "." + (fraction.isEmpty ? "0" : fraction)
        return Double(number)
    }

    public let examples = RuleExamples(
        passing: [
            #"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="viewport" content="width=device-width, initial-scale=1"></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="viewport" content="maximum-scale=2"></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="viewport" content="user-scalable=yes; maximum-scale=5"></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="viewport" content="maximum-scale=-1"></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="viewport" content=""></head><body></body></html>"#,
            #"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="viewport" content="user-scalable=1"></head><body></body></html>"#,
        ],
        violating: [
            RuleExample(#"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="viewport" content="width=device-width, user-scalable=no"></head><body></body></html>"#, at: #"[name="viewport"]"#),
            RuleExample(#"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="viewport" content="maximum-scale=1.5"></head><body></body></html>"#, at: #"[name="viewport"]"#),
            RuleExample(#"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="viewport" content="User-Scalable = NO; maximum-scale=2"></head><body></body></html>"#, at: #"[name="viewport"]"#),
            RuleExample(#"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="viewport" content="user-scalable=0"></head><body></body></html>"#, at: #"[name="viewport"]"#),
            RuleExample(#"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="viewport" content="maximum-scale=big"></head><body></body></html>"#, at: #"[name="viewport"]"#),
        ],
        inapplicable: [
            #"<!DOCTYPE html><html lang="en"><head><title>T</title><meta name="description" content="user-scalable=no"></head><body></body></html>"#
        ]
    )
}

extension Substring {
    /// Without leading and trailing HTML whitespace.
    fileprivate func trimmingHTMLSpace() -> String {
        // Moving the slice's ends: building the string back from a reversed view went character
        // by character.
        var slice = self[...]
        while let first = slice.first, first.isHTMLWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isHTMLWhitespace { slice = slice.dropLast() }
        return String(slice)
    }
}
