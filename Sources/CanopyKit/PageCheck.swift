import CanopyDiagnostics
import CanopyCrawl
import CanopyHTML
import CanopyHistory
import CanopyReports
import CanopyRules
import CanopyStyle
import Foundation

/// What `canopy check` does: load each page (file or URL), audit it, and render the findings.
public struct PageCheck: Sendable {
    public enum Format: String, Sendable, CaseIterable {
        case text, json
    }

    /// canopy.yml's `client-rendered`, named where the command line reads it.
    public typealias ClientRendered = ClientRenderedPages

    public struct Options: Sendable {
        /// canopy.yml: its rule set, rules and excluded elements apply, under the flags.
        public var configPath: String?
        /// Resolves `${NAME}` in the configuration.
        public var environment: [String: String] = [:]
        /// Rule ids to run, from the rule set; empty means every rule of the set.
        public var ruleIDs: [String]
        /// A rule set file (`Rules/*.yml`); nil means Canopy's default rule set.
        public var ruleSetPath: String?
        public var include: [String]
        public var exclude: [String]
        public var format: Format
        /// `--viewport`, `--no-styles`: over canopy.yml's `styles`.
        public var styleOverrides = CrawlOverrides()
        /// `--client-rendered`: over canopy.yml's `client-rendered` (default `fail`).
        public var clientRendered: ClientRenderedPages?

        public init(
            ruleIDs: [String] = [], ruleSetPath: String? = nil, include: [String] = [], exclude: [String] = [],
            format: Format = .text
        ) {
            self.ruleIDs = ruleIDs
            self.ruleSetPath = ruleSetPath
            self.include = include
            self.exclude = exclude
            self.format = format
        }
    }

    /// The result of a whole `check`: what to print and the exit status.
    public struct Outcome: Sendable {
        public var output: String
        public var diagnostics: [Diagnostic]
        public var exitStatus: ExitStatus
    }

    private let fetcher: Fetcher
    private let parser: HTMLParser
    private let now: @Sendable () -> Date

    public init(fetcher: Fetcher = Fetcher(), parser: HTMLParser = HTMLParser(), now: @escaping @Sendable () -> Date = Date.init) {
        self.fetcher = fetcher
        self.parser = parser
        self.now = now
    }

    /// Checks each source: a path to an HTML file or an http(s) URL.
    public func run(sources: [PageSource], options: Options) -> Outcome {
        var auditor: Auditor, scope: AuditScope
        var styleSettings = CrawlConfiguration.Styles()
        var clientRendered = options.clientRendered ?? .fail
        var auditsFrames = true
        do throws(Diagnostic) {
            var ruleSetPath = options.ruleSetPath, ruleIDs = options.ruleIDs, configured: [SelectorList] = []
            if let path = options.configPath {
                // The same configuration layer as `canopy crawl`, flags over the file.
                let configuration = try CrawlConfiguration.load(contentsOf: path, environment: options.environment)
                ruleSetPath = ruleSetPath ?? configuration.rules.set
                if ruleIDs.isEmpty { ruleIDs = configuration.rules.only }
                configured = configuration.exclude
                styleSettings = configuration.styles
                clientRendered = options.clientRendered ?? configuration.clientRendered
                auditsFrames = configuration.frames
            }
            if let frames = options.styleOverrides.frames { auditsFrames = frames }
            if let viewport = options.styleOverrides.viewport { styleSettings.viewport = viewport }
            if let enabled = options.styleOverrides.stylesEnabled { styleSettings.enabled = enabled }
            auditor = Auditor(rules: try Self.rules(withIDs: ruleIDs, from: try Self.ruleSet(at: ruleSetPath)))
            scope = AuditScope(
                include: try options.include.map(Self.selector), exclude: configured + (try options.exclude.map(Self.selector))
            )
        } catch {
            return Outcome(output: "", diagnostics: [error], exitStatus: error.exitStatus)
        }
        // The text report counts passing rules and lists only what failed or needs review; axe's
        // JSON lists every passing node. (javadoc's uses of String: 22 MB of passing nodes.)
        auditor.listsPassingNodes = options.format == .json

        // Sheets of a checked page come from wherever it links them: next to the file, or any host.
        let loader = StyleSheetFetcher(fetcher: fetcher, readsFiles: true) { FetchRequest(url: $0) }
        let styles = StyleEnvironment(viewport: styleSettings.viewport, loader: styleSettings.enabled ? loader : nil)
        var reports: [String] = []
        var jsonReports: [AxeJSONReport] = []
        var diagnostics: [Diagnostic] = []
        var status = ExitStatus.passed
        for source in sources {
            let document: Document
            do {
                document = try load(source)
            } catch {
                diagnostics.append(error)
                status = status.combined(with: error.exitStatus)
                continue
            }
            if clientRendered != .audit, let verdict = ClientRenderingDetector().verdictIfBare(for: document), verdict.isClientRendered {
                // Its shell's findings would describe the shell, not the page a browser builds.
                let message = "\(source.label): not audited: its content depends on scripts (client-rendered: \(verdict.descriptions.joined(separator: "; "))); "
                    + "audit the HTML a browser rendered (`canopy check --stdin --url URL`), or `--client-rendered audit` to audit the shell"
                if clientRendered == .fail {
                    diagnostics.append(Diagnostic(.pageNotAudited, message))
                    status = status.combined(with: .couldNotAudit)
                } else if options.format == .text {
                    reports.append(message + "\n")
                }
                continue
            }
            let result = auditor.audit(document, styles: styles, scope: scope, frames: auditsFrames ? frameLoader(for: document) : nil, at: now())
            if !result.violations.isEmpty { status = status.combined(with: .violationsFound) }
            switch options.format {
            case .text: reports.append(TextReport().render(result, source: source.label))
            case .json: jsonReports.append(AxeJSONReport(result: result, url: source.label))
            }
        }
        let output: String
        switch options.format {
        case .text:
            output = reports.joined(separator: "\n")
        case .json:
            output = Self.json(jsonReports, asArray: sources.count != 1)
        }
        return Outcome(output: output, diagnostics: diagnostics, exitStatus: status)
    }

    /// Frames of a checked page: files beside a file, documents on the page's own origin for a
    /// URL (the origin the user asked to check; robots.txt is for crawlers).
    private func frameLoader(for document: Document) -> FrameFetcher {
        let pageURL = document.url.flatMap { try? URLNormalizer().normalize($0) }
        var plan = CrawlPlan(startURLs: pageURL.map { [$0] } ?? [])
        plan.honoursRobots = false
        return FrameFetcher(crawl: plan, fetcher: fetcher, readsFiles: true)
    }

    /// Loads and parses one page.
    public func load(_ source: PageSource) throws(Diagnostic) -> Document {
        switch source {
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                let reason = FileManager.default.fileExists(atPath: path) ? "it cannot be read" : "no such file"
                throw Diagnostic(.unreadableFile, "cannot read \(path): \(reason)")
            }
            return parser.parse(bytes: [UInt8](data), contentType: nil, url: URL(fileURLWithPath: path).absoluteString)
        case .url(let url):
            let response: FetchResponse
            do {
                response = try fetcher.fetch(FetchRequest(url: url))
            } catch {
                throw Diagnostic(.pageNotAudited, "cannot audit \(url): \(error.description)")
            }
            guard (200..<300).contains(response.status) else {
                throw Diagnostic(.pageNotAudited, "cannot audit \(url): the server answered HTTP \(response.status)")
            }
            if let contentType = response.contentType, !Self.isHTML(contentType) {
                throw Diagnostic(.pageNotAudited, "cannot audit \(url): the content type is \(contentType), not HTML")
            }
            return parser.parse(bytes: response.body, contentType: response.contentType, url: response.finalURL)
        case .bundledSample:
            guard let url = Bundle.module.url(forResource: "sample", withExtension: "html"),
                let data = FileManager.default.contents(atPath: url.path)
            else { throw Diagnostic(.unreadableFile, "cannot read sample.html: the bundled sample is missing from this build") }
            return parser.parse(bytes: [UInt8](data), contentType: "text/html; charset=utf-8", url: "canopy:sample.html")
        case .markup(let bytes, let url):
            return parser.parse(bytes: bytes, contentType: nil, url: url)
        }
    }

    static func isHTML(_ contentType: String) -> Bool {
        let mediaType = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return mediaType == "text/html" || mediaType == "application/xhtml+xml"
    }

    /// The rule set at `path`, or Canopy's default set.
    public static func ruleSet(at path: String?) throws(Diagnostic) -> RuleSet {
        if let path { return try RuleSet.load(contentsOf: path) }
        return RuleSet.standard()
    }

    /// The rules of `ruleSet` named by `ids` (all of them when `ids` is empty), with the set's
    /// impact overrides. Every id must belong to the set.
    static func rules(withIDs ids: [String], from ruleSet: RuleSet) throws(Diagnostic) -> [any Rule] {
        guard !ids.isEmpty else { return ruleSet.rules }
        let unknown = ids.filter { id in !ruleSet.rules.contains { $0.metadata.id == id } }
        guard unknown.isEmpty else {
            let quoted = unknown.map { "\"\($0)\"" }.joined(separator: ", ")
            if unknown.allSatisfy({ RuleCatalog.rule(withID: $0) != nil }) {
                throw Diagnostic(.usage, "\(quoted) not in the rule set \"\(ruleSet.name)\"; `canopy rules --set FILE` lists its rules")
            }
            throw Diagnostic(.usage, "unknown \(unknown.count == 1 ? "rule" : "rules") \(quoted); `canopy rules` lists the rules")
        }
        return ruleSet.rules.filter { ids.contains($0.metadata.id) }
    }

    static func selector(_ text: String) throws(Diagnostic) -> SelectorList {
        do {
            return try SelectorList(text)
        } catch {
            throw Diagnostic(.usage, error.description)
        }
    }

    private static func json(_ reports: [AxeJSONReport], asArray: Bool) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data?
        if asArray {
            data = try? encoder.encode(reports)
        } else {
            data = reports.first.flatMap { try? encoder.encode($0) }
        }
        return data.map { String(decoding: $0, as: UTF8.self) + "\n" } ?? (asArray ? "[]\n" : "")
    }
}

/// Where a page comes from.
public enum PageSource: Sendable, Equatable {
    case file(String)
    case url(String)
    /// The sample page bundled with Canopy, for a first run with no input.
    case bundledSample
    /// HTML given as bytes (`canopy check --stdin`: a page a headless browser rendered), with the
    /// address it came from, which its relative stylesheets and frames resolve against.
    case markup([UInt8], url: String?)

    /// Reads a command-line argument: anything with a scheme is a URL (and must be http/https,
    /// which the fetcher enforces); everything else is a file path.
    public init(argument: String) {
        self = Self.hasScheme(argument) ? .url(argument) : .file(argument)
    }

    /// `^[A-Za-z][A-Za-z0-9+.-]*://`, read on bytes: a regular expression made Foundation load
    /// ICU's, a tenth of a `canopy check` of one page.
    static func hasScheme(_ argument: String) -> Bool {
        let bytes = Array(argument.utf8)
        guard let first = bytes.first, first.isASCIILetter else { return false }
        var index = 1
        while index < bytes.count, bytes[index].isASCIILetter || (0x30...0x39).contains(bytes[index])
            || bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: "-") {
            index += 1
        }
        return bytes[index...].starts(with: "://".utf8)
    }

    public var label: String {
        switch self {
        case .file(let path): path
        case .url(let url): url
        case .bundledSample: "sample.html (bundled)"
        case .markup(_, let url): url.map { "standard input (\($0))" } ?? "standard input"
        }
    }
}

private extension UInt8 {
    var isASCIILetter: Bool { (0x41...0x5A).contains(self) || (0x61...0x7A).contains(self) }
}
