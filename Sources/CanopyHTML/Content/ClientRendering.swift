/// Whether a page's meaningful content depends on scripts: an application shell (an empty
/// `<div id="root">` and a bundle) whose real content only a browser running the scripts builds.
/// A static audit of such a shell audits the shell, not the page, so the crawl reports it as not
/// audited instead.
///
/// The detector is deliberately one-sided: a page is flagged only when it has almost no content
/// of its own (little text, no heading, no paragraph, hardly a link) *and* something says scripts
/// fill it in (an empty application root, a `<noscript>` asking for JavaScript, or a large script
/// payload). So a server-rendered page is never flagged, whatever scripts or framework markers it
/// carries: every javadoc page has `<noscript>JavaScript is disabled…</noscript>` and scripts, and a
/// Next.js or Nuxt page rendered on the server has its framework's markers, but both are full of
/// text. Framework markers are reported as signals and never decide alone.
public struct ClientRenderingDetector: Sendable {
    /// Pages with at least this many characters of visible text (whitespace not counted) have
    /// content of their own.
    public var textThreshold: Int
    /// Inline script this large (bytes) counts as a large payload on its own.
    public var inlineScriptThreshold: Int

    public init(textThreshold: Int = 150, inlineScriptThreshold: Int = 5_000) {
        self.textThreshold = textThreshold
        self.inlineScriptThreshold = inlineScriptThreshold
    }

    /// What the detector saw, and whether it makes the page client-rendered.
    public struct Verdict: Sendable, Equatable {
        public var isClientRendered: Bool
        /// Every signal that fired, in a fixed order, whether or not it decided.
        public var signals: [Signal]
        /// Characters of visible text outside scripts, styles, templates and `<noscript>`.
        public var textCharacters: Int

        /// The signals in words, for reports.
        public var descriptions: [String] { signals.map(\.description) }
    }

    public enum Signal: Sendable, Equatable, CustomStringConvertible {
        /// An element where a framework mounts its application, with nothing in it (`#root`, `<app-root>`).
        case emptyApplicationRoot(String)
        /// A `<noscript>` whose text asks the reader to enable JavaScript (its text, shortened).
        case noscriptAsksForJavaScript(String)
        /// Almost no text against the scripts the page loads.
        case littleTextManyScripts(textCharacters: Int, externalScripts: Int, inlineScriptBytes: Int)
        /// Markup a framework leaves (`__NEXT_DATA__`, `ng-version`, `data-reactroot`): a hint, never decisive.
        case frameworkMarker(String)

        public var description: String {
            switch self {
            case .emptyApplicationRoot(let root): "empty application root \(root)"
            case .noscriptAsksForJavaScript(let text): "<noscript> asks for JavaScript: \"\(text)\""
            case .littleTextManyScripts(let text, let external, let inline):
                "\(text) characters of text against \(external) external \(external == 1 ? "script" : "scripts") and \(inline) bytes of inline script"
            case .frameworkMarker(let marker): "framework marker: \(marker)"
            }
        }
    }

    /// The verdict of a page that may be a shell; nil, after a walk that stops at the page's first
    /// content (a heading, a paragraph, 150 characters of text), for a page with content of its
    /// own, which cannot be flagged whatever its scripts. Crawls ask this of every page: a full
    /// `verdict` of a long page costs as much as a good share of its audit.
    public func verdictIfBare(for document: Document) -> Verdict? {
        guard ContentMeasure(bareBody: document, textThreshold: textThreshold).isBare(textThreshold: textThreshold) else { return nil }
        return verdict(for: document)
    }

    public func verdict(for document: Document) -> Verdict {
        let content = ContentMeasure(document)
        var signals: [Signal] = []
        let roots = applicationRoots(in: document).filter(isEmptyRoot)
        signals += roots.prefix(1).map { .emptyApplicationRoot(Self.describe($0)) }
        if let message = content.noscriptTexts.lazy.compactMap(Self.javaScriptRequest).first {
            signals.append(.noscriptAsksForJavaScript(message))
        }
        let largePayload = content.externalScripts >= 2 || content.moduleScripts >= 1 || content.inlineScriptBytes >= inlineScriptThreshold
        if content.textCharacters < textThreshold && largePayload {
            signals.append(.littleTextManyScripts(
                textCharacters: content.textCharacters, externalScripts: content.externalScripts, inlineScriptBytes: content.inlineScriptBytes
            ))
        }
        signals += Self.frameworkMarkers(in: document, content: content).map(Signal.frameworkMarker)

        // The page must be nearly bare before any script signal counts.
        let bare = content.isBare(textThreshold: textThreshold)
        let scripted = content.externalScripts + content.moduleScripts > 0 || content.inlineScriptBytes > 0
        let strong = signals.contains {
            switch $0 {
            case .emptyApplicationRoot, .noscriptAsksForJavaScript, .littleTextManyScripts: true
            case .frameworkMarker: false
            }
        }
        return Verdict(isClientRendered: bare && scripted && strong, signals: signals, textCharacters: content.textCharacters)
    }

    // MARK: Application roots

    /// Ids frameworks mount into (React's create-react-app and Vite templates, Vue, Next.js, Nuxt, Gatsby, Svelte).
    static let rootIDs: Set<String> = ["root", "app", "__next", "__nuxt", "___gatsby", "svelte", "react-root", "app-root", "application", "main-app"]
    static let rootAttributes = ["data-reactroot", "ng-app", "data-ng-app", "ng-version", "data-v-app", "data-server-rendered"]

    private func applicationRoots(in document: Document) -> [Element] {
        guard let body = document.body else { return [] }
        return body.descendants.filter { element in
            if let id = element.id, Self.rootIDs.contains(id) { return true }
            if Self.rootAttributes.contains(where: element.hasAttribute) { return true }
            // Angular's and other custom-element shells: <app-root>, <my-app>.
            let name = element.localName
            return name.contains("-") && (name.hasSuffix("-root") || name.hasSuffix("-app") || name.hasPrefix("app-"))
        }
    }

    /// Nothing a reader could use inside: at most a short "Loading…" and no content elements.
    private func isEmptyRoot(_ root: Element) -> Bool {
        let inside = ContentMeasure(root: root)
        return inside.textCharacters <= 40 && inside.headings == 0 && inside.textBlocks == 0 && inside.links == 0 && inside.formControls == 0
    }

    private static func describe(_ element: Element) -> String {
        if let id = element.id { return "<\(element.localName) id=\"\(id)\">" }
        if let attribute = rootAttributes.first(where: element.hasAttribute) { return "<\(element.localName) \(attribute)>" }
        return "<\(element.localName)>"
    }

    // MARK: noscript

    /// The noscript text when it asks for JavaScript, cut to 80 characters; nil otherwise.
    static func javaScriptRequest(_ text: String) -> String? {
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        let lowered = words.lowercased()
        let asks = lowered.contains("javascript") || lowered.contains("enable js") || lowered.contains("js enabled")
            || lowered.contains("js is disabled") || lowered.contains("turn on js")
        guard asks else { return nil }
        return words.count > 80 ? String(words.prefix(79)) + "…" : words
    }

    // MARK: Framework markers

    private static func frameworkMarkers(in document: Document, content: ContentMeasure) -> [String] {
        var markers: [String] = []
        if document.element(withID: "__NEXT_DATA__") != nil || document.element(withID: "__next") != nil { markers.append("Next.js") }
        if document.element(withID: "__nuxt") != nil || content.inlineScriptMentions("__NUXT__") { markers.append("Nuxt") }
        if document.element(withID: "___gatsby") != nil { markers.append("Gatsby") }
        if !document.elements(withAttribute: "ng-version").isEmpty || !document.elements(named: "app-root").isEmpty { markers.append("Angular") }
        if !document.elements(withAttribute: "data-reactroot").isEmpty { markers.append("React") }
        if !document.elements(withAttribute: "data-v-app").isEmpty || !document.elements(withAttribute: "data-server-rendered").isEmpty {
            markers.append("Vue")
        }
        if !document.elements(withAttribute: "data-sveltekit-preload-data").isEmpty { markers.append("SvelteKit") }
        return markers
    }
}

/// How much content of its own a page (or a subtree) has, and what scripts it loads, in one walk.
struct ContentMeasure {
    var textCharacters = 0
    var headings = 0
    /// Paragraphs, list items, cells, quotes with text.
    var textBlocks = 0
    var links = 0
    var formControls = 0
    var images = 0
    var externalScripts = 0
    var moduleScripts = 0
    var inlineScriptBytes = 0
    var noscriptTexts: [String] = []
    private var inlineScripts: [String] = []

    /// The document's body (or the whole document when it has none).
    init(_ document: Document) {
        // Scripts in <head> load the application too.
        for script in document.head?.descendants.filter({ $0.localName == "script" }) ?? [] { countScript(script) }
        if let root = document.body ?? document.documentElement { walk(root) }
    }

    init(root: Element) {
        walk(root)
    }

    /// The body's measure as far as needed to know whether the page is bare: the walk stops at
    /// the first sign of content of its own.
    init(bareBody document: Document, textThreshold: Int) {
        stopTextThreshold = textThreshold
        if let root = document.body ?? document.documentElement { walk(root) }
    }

    /// Nearly nothing of its own: too little text, and no heading, text block, form control,
    /// more than two links or more than one image.
    func isBare(textThreshold: Int) -> Bool {
        textCharacters < textThreshold && headings == 0 && textBlocks == 0 && links <= 2 && formControls == 0 && images <= 1
    }

    /// Set for a walk that stops as soon as the page is not bare (by this text threshold).
    private var stopTextThreshold: Int?

    func inlineScriptMentions(_ text: String) -> Bool { inlineScripts.contains { $0.contains(text) } }

    private static let blockNames: Set<String> = ["p", "li", "td", "th", "dd", "dt", "blockquote", "pre", "figcaption", "caption"]
    private static let headingNames: Set<String> = ["h1", "h2", "h3", "h4", "h5", "h6"]
    private static let controlNames: Set<String> = ["input", "select", "textarea", "button"]

    private mutating func countScript(_ script: Element) {
        if script.hasAttribute("src") {
            externalScripts += 1
        } else {
            let text = script.textContent
            inlineScriptBytes += text.utf8.count
            if inlineScripts.count < 20 { inlineScripts.append(text) }
        }
        if script.attribute("type")?.lowercased() == "module" { moduleScripts += 1 }
    }

    private mutating func walk(_ root: Element) {
        var stack: [Node] = root.childNodes.reversed()
        while let node = stack.popLast() {
            if let threshold = stopTextThreshold, !isBare(textThreshold: threshold) { return }
            switch node.kind {
            case .text:
                textCharacters += node.text.unicodeScalars.count { !$0.properties.isWhitespace }
            case .element:
                guard let element = node.element else { continue }
                switch element.localName {
                case "script":
                    countScript(element)
                    continue
                case "noscript":
                    noscriptTexts.append(element.textContent)
                    continue
                case "style", "template":
                    continue
                default:
                    break
                }
                if element.hasAttribute("hidden") { continue }
                let name = element.localName
                if Self.headingNames.contains(name), Self.hasText(element) { headings += 1 }
                if Self.blockNames.contains(name), Self.hasText(element) { textBlocks += 1 }
                if name == "a", element.hasAttribute("href") { links += 1 }
                if Self.controlNames.contains(name) { formControls += 1 }
                if name == "img" || name == "video" || name == "canvas" { images += 1 }
                stack.append(contentsOf: element.childNodes.reversed())
            default:
                break
            }
        }
    }

    private static func hasText(_ element: Element) -> Bool {
        element.textContent.unicodeScalars.contains { !$0.properties.isWhitespace }
    }
}
