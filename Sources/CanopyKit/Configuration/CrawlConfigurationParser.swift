import CanopyDiagnostics
import CanopyHistory
import CanopyCrawl
import CanopyHTML
import CanopyRules
import CanopyStyle
import Foundation
import Yams

/// CanopyHTML has a `Node` of its own.
typealias YAMLNode = Yams.Node

/// Walks the composed YAML tree of `canopy.yml`, so that every error names the line
/// and key path it is about (the approach of `RuleSet`'s parser).
struct CrawlConfigurationParser {
    let file: String
    let baseDirectory: String?
    let environment: [String: String]

    static let topLevelKeys = [
        "start", "sitemaps", "scope", "limits", "politeness", "styles", "auth", "rules", "exclude", "exclude-by-url",
        "exclude-by-rule", "owners", "output", "components", "gate", "notify", "incremental", "client-rendered", "frames",
    ]

    func parse(_ yaml: String) throws(Diagnostic) -> CrawlConfiguration {
        let root = try YAMLDiagnostics.root(
            of: yaml, file: file, kind: .configuration, emptyMessage: "the file is empty; expected a mapping with at least `start`"
        )
        guard root.mapping != nil else {
            throw error(root, "", "expected a mapping with at least `start`, found \(kind(of: root))")
        }
        let sections = try entries(root, "", allowed: Self.topLevelKeys)
        func section(_ key: String) -> YAMLNode? { sections.first { $0.key == key }?.value }

        var configuration = CrawlConfiguration(startURLs: [])
        configuration.file = file
        // Scope first: its query rules normalize every URL read after it.
        if let node = section("scope") { configuration.scope = try scope(node) }
        let normalizer = configuration.normalizer
        if let node = section("start") {
            var seen: Set<CrawlURL> = []
            configuration.startURLs = try stringList(node, "start", what: "URLs") { (text, item, path) throws(Diagnostic) in
                let url = try self.url(text, item, path, normalizer)
                return seen.insert(url).inserted ? url : nil
            }
        }
        if let node = section("sitemaps") { configuration.sitemaps = try sitemaps(node, normalizer) }
        if let node = section("limits") { configuration.limits = try limits(node) }
        if let node = section("politeness") { configuration.politeness = try politeness(node) }
        if let node = section("styles") { configuration.styles = try styles(node) }
        if let node = section("auth") { configuration.auth = try auth(node) }
        var ruleSet: RuleSet?
        if let node = section("rules") { (configuration.rules, ruleSet) = try rules(node) }
        if let node = section("exclude") { configuration.exclude = try selectors(node, "exclude") }
        if let node = section("exclude-by-url") { configuration.excludeByURL = try excludeByURL(node) }
        if let node = section("exclude-by-rule") {
            if ruleSet == nil { ruleSet = RuleSet.standard() }
            configuration.excludeByRule = try excludeByRule(node, ruleSet: ruleSet!)
        }
        if let node = section("owners") { configuration.owners = try owners(node) }
        if let node = section("output") { configuration.output = try output(node) }
        if let node = section("components") { configuration.components = try components(node) }
        if let node = section("gate") { configuration.gate = try gate(node) }
        if let node = section("notify") { configuration.notify = try notify(node) }
        if let node = section("incremental") { configuration.incremental = try bool(node, "incremental") }
        if let node = section("frames") { configuration.frames = try bool(node, "frames") }
        if let node = section("client-rendered") {
            let text = try string(node, "client-rendered")
            guard let handling = ClientRenderedPages(rawValue: text) else {
                throw error(node, "client-rendered", "expected one of fail, skip, audit, found \"\(text)\"")
            }
            configuration.clientRendered = handling
        }
        return configuration
    }

    // MARK: Sections

    func scope(_ node: YAMLNode) throws(Diagnostic) -> CrawlConfiguration.Scope {
        var scope = CrawlConfiguration.Scope()
        for entry in try entries(node, "scope", allowed: ["origins", "include", "exclude", "strip-query", "sort-query", "follow-nofollow"]) {
            let path = "scope.\(entry.key)"
            switch entry.key {
            case "origins":
                scope.origins = try stringList(entry.value, path, what: "origins") { (text, item, itemPath) throws(Diagnostic) in
                    let url = try self.url(text, item, itemPath, URLNormalizer())
                    guard url.path == "/", url.query == nil else {
                        throw error(item, itemPath, "expected an origin such as https://cdn.example.com, without a path")
                    }
                    return url.origin
                }
            case "include": scope.include = try patterns(entry.value, path)
            case "exclude": scope.exclude = try patterns(entry.value, path)
            case "strip-query":
                scope.stripQuery = try stringList(entry.value, path, what: "query parameter names") { (text, item, itemPath) throws(Diagnostic) in
                    guard !text.isEmpty, !text.contains(where: { $0 == "&" || $0 == "=" || $0.isWhitespace }) else {
                        throw error(item, itemPath, "expected a query parameter name, optionally with * (e.g. utm_*), found \"\(text)\"")
                    }
                    return text
                }
            case "sort-query": scope.sortQuery = try bool(entry.value, path)
            default: scope.followNofollow = try bool(entry.value, path)
            }
        }
        return scope
    }

    func sitemaps(_ node: YAMLNode, _ normalizer: URLNormalizer) throws(Diagnostic) -> CrawlConfiguration.Sitemaps {
        if node.scalar != nil, isString(node), node.scalar!.string == "auto" || node.scalar!.string == "none" {
            return node.scalar!.string == "auto" ? .auto : .none
        }
        guard node.sequence != nil || isString(node) else {
            throw error(node, "sitemaps", "expected `auto`, `none` or a list of sitemap URLs, found \(kind(of: node))")
        }
        let urls = try stringList(node, "sitemaps", what: "sitemap URLs") { (text, item, path) throws(Diagnostic) in
            try url(text, item, path, normalizer)
        }
        return .listed(urls)
    }

    func limits(_ node: YAMLNode) throws(Diagnostic) -> CrawlConfiguration.Limits {
        var limits = CrawlConfiguration.Limits()
        let keys = ["max-pages", "max-depth", "max-bytes", "timeout", "connect-timeout", "retries", "max-redirects"]
        for entry in try entries(node, "limits", allowed: keys) {
            let path = "limits.\(entry.key)"
            switch entry.key {
            case "max-pages": limits.maxPages = try integer(entry.value, path, minimum: 1)
            case "max-depth": limits.maxDepth = try integer(entry.value, path, minimum: 0)
            case "max-bytes": limits.maxBytes = try byteCount(entry.value, path)
            case "timeout": limits.timeout = try seconds(entry.value, path)
            case "connect-timeout": limits.connectTimeout = try seconds(entry.value, path)
            case "retries": limits.retries = try integer(entry.value, path, minimum: 0)
            default: limits.maxRedirects = try integer(entry.value, path, minimum: 0)
            }
        }
        return limits
    }

    func styles(_ node: YAMLNode) throws(Diagnostic) -> CrawlConfiguration.Styles {
        var styles = CrawlConfiguration.Styles()
        for entry in try entries(node, "styles", allowed: ["enabled", "viewport"]) {
            let path = "styles.\(entry.key)"
            switch entry.key {
            case "enabled": styles.enabled = try bool(entry.value, path)
            default:
                let text = try string(entry.value, path)
                guard let viewport = Viewport(parsing: text) else {
                    throw error(entry.value, path, "expected WIDTHxHEIGHT in CSS pixels, such as 1280x1024, found \"\(text)\"")
                }
                styles.viewport = viewport
            }
        }
        return styles
    }

    func politeness(_ node: YAMLNode) throws(Diagnostic) -> CrawlConfiguration.Politeness {
        var politeness = CrawlConfiguration.Politeness()
        let keys = ["concurrency", "per-host", "requests-per-second", "robots", "crawl-delay", "user-agent"]
        for entry in try entries(node, "politeness", allowed: keys) {
            let path = "politeness.\(entry.key)"
            switch entry.key {
            case "concurrency": politeness.concurrency = try integer(entry.value, path, minimum: 1)
            case "per-host": politeness.perHost = try integer(entry.value, path, minimum: 1)
            case "requests-per-second":
                let rate = try number(entry.value, path)
                guard rate >= 0, rate.isFinite else { throw error(entry.value, path, "expected 0 (no limit) or a positive number, found \(rate)") }
                politeness.requestsPerSecond = rate
            case "robots": politeness.robots = try bool(entry.value, path)
            case "crawl-delay": politeness.crawlDelay = try bool(entry.value, path)
            default:
                let agent = try string(entry.value, path)
                guard !agent.isEmpty, HTTPToken.isValidHeaderValue(agent) else {
                    throw error(entry.value, path, "expected a non-empty user agent on one line")
                }
                politeness.userAgent = agent
            }
        }
        return politeness
    }

    func auth(_ node: YAMLNode) throws(Diagnostic) -> CrawlConfiguration.Auth {
        var auth = CrawlConfiguration.Auth()
        for entry in try entries(node, "auth", allowed: ["hosts", "headers", "cookies", "login", "avoid"]) {
            let path = "auth.\(entry.key)"
            switch entry.key {
            case "hosts":
                auth.hosts = try stringList(entry.value, path, what: "host names") { (text, item, itemPath) throws(Diagnostic) in
                    let host = text.lowercased()
                    guard !host.isEmpty, !host.contains(where: { "/:@?#".contains($0) || $0.isWhitespace }) else {
                        throw error(item, itemPath, "expected a host name such as staging.example.com, found \"\(text)\"")
                    }
                    return host
                }
            case "login": auth.login = try login(entry.value)
            case "avoid": auth.avoid = try patterns(entry.value, path)
            case "headers":
                auth.headers = try credentials(entry.value, path) { (name, value, item, itemPath) throws(Diagnostic) in
                    guard HTTPToken.isValid(name) else { throw error(item, itemPath, "\"\(name)\" is not a valid header name") }
                    guard HTTPToken.isValidHeaderValue(value) else {
                        throw error(item, itemPath, "the value must not contain line breaks")
                    }
                }
            default:
                auth.cookies = try credentials(entry.value, path) { (name, value, item, itemPath) throws(Diagnostic) in
                    guard HTTPToken.isValid(name) else { throw error(item, itemPath, "\"\(name)\" is not a valid cookie name") }
                    guard HTTPToken.isValidCookieValue(value) else {
                        throw error(item, itemPath, "the value may not contain spaces, quotes, commas, semicolons or backslashes")
                    }
                }
            }
        }
        return auth
    }

    func login(_ node: YAMLNode) throws(Diagnostic) -> CrawlConfiguration.Login {
        let path = "auth.login"
        guard node.mapping != nil else { throw error(node, path, "expected a mapping with `url`, `fields` and optionally `form` and `success`, found \(kind(of: node))") }
        var url: (CrawlURL, Int?)?, form: SelectorList?, fields: [Credential]?, success = SignInPlan.Success.formGone
        for entry in try entries(node, path, allowed: ["url", "form", "fields", "success"]) {
            let keyPath = "\(path).\(entry.key)"
            switch entry.key {
            case "url":
                let text = try string(entry.value, keyPath)
                url = (try self.url(text, entry.value, keyPath, URLNormalizer()), entry.value.mark?.line)
            case "form": form = try selector(entry.value, keyPath)
            case "fields":
                let parsed = try credentials(entry.value, keyPath) { (name, _, item, itemPath) throws(Diagnostic) in
                    guard !name.isEmpty else { throw error(item, itemPath, "expected a form field name") }
                }
                guard !parsed.isEmpty else { throw error(entry.value, keyPath, "expected the form's fields and their values, such as {email: \"${SHOP_USER}\", password: \"${SHOP_PASSWORD}\"}") }
                fields = parsed
            default: success = try signInSuccess(entry.value, keyPath)
            }
        }
        guard let url else { throw error(node, path, "missing `url`: the address of the page with the sign-in form") }
        guard let fields else { throw error(node, path, "missing `fields`: the form's fields and their values, such as {email: \"${SHOP_USER}\", password: \"${SHOP_PASSWORD}\"}") }
        var login = CrawlConfiguration.Login(url: url.0, form: form, fields: fields, success: success)
        login.line = url.1
        return login
    }

    /// One of {cookie: NAME}, {url: PATTERN} or {selector: SELECTOR}.
    func signInSuccess(_ node: YAMLNode, _ path: String) throws(Diagnostic) -> SignInPlan.Success {
        let kinds = ["cookie", "url", "selector"]
        guard let mapping = node.mapping, mapping.count == 1, let (keyNode, value) = mapping.first.map({ ($0.key, $0.value) }),
              let key = keyNode.scalar?.string
        else {
            throw error(node, path, "expected one of {cookie: NAME}, {url: PATTERN} or {selector: SELECTOR}, found \(kind(of: node))")
        }
        let keyPath = "\(path).\(key)"
        guard kinds.contains(key) else {
            var message = "unknown way to tell a sign-in worked; expected cookie, url or selector"
            if let suggestion = closest(to: key, in: kinds) { message += " (did you mean `\(suggestion)`?)" }
            throw error(keyNode, keyPath, message)
        }
        switch key {
        case "cookie":
            let name = try string(value, keyPath)
            guard HTTPToken.isValid(name) else { throw error(value, keyPath, "\"\(name)\" is not a valid cookie name") }
            return .cookie(name)
        case "url": return .url(try pattern(value, keyPath))
        default: return .selector(try selector(value, keyPath))
        }
    }

    func selector(_ node: YAMLNode, _ path: String) throws(Diagnostic) -> SelectorList {
        let text = try string(node, path)
        do {
            return try SelectorList(text)
        } catch {
            throw self.error(node, path, "invalid CSS selector: \(error)")
        }
    }

    func rules(_ node: YAMLNode) throws(Diagnostic) -> (CrawlConfiguration.Rules, RuleSet) {
        var rules = CrawlConfiguration.Rules()
        var ruleSet: RuleSet?
        var onlyNode: YAMLNode?
        for entry in try entries(node, "rules", allowed: ["set", "only"]) {
            switch entry.key {
            case "set":
                let path = resolvedPath(try string(entry.value, "rules.set"))
                do {
                    ruleSet = try RuleSet.load(contentsOf: path)
                } catch {
                    throw self.error(entry.value, "rules.set", "cannot use the rule set: \(error)")
                }
                rules.set = path
            default:
                onlyNode = entry.value
            }
        }
        let set: RuleSet
        set = ruleSet ?? RuleSet.standard()
        if let onlyNode {
            rules.only = try stringList(onlyNode, "rules.only", what: "rule ids") { (id, item, path) throws(Diagnostic) in
                try ruleID(id, item, path, in: set)
            }
        }
        return (rules, set)
    }

    func excludeByURL(_ node: YAMLNode) throws(Diagnostic) -> [CrawlConfiguration.URLExclusion] {
        guard let sequence = node.sequence else {
            throw error(node, "exclude-by-url", "expected a list of {url, selectors} mappings, found \(kind(of: node))")
        }
        var exclusions: [CrawlConfiguration.URLExclusion] = []
        for (index, item) in sequence.enumerated() {
            let path = "exclude-by-url[\(index)]"
            guard item.mapping != nil else { throw error(item, path, "expected a mapping with `url` and `selectors`, found \(kind(of: item))") }
            var pattern: URLPattern?, selectorLists: [SelectorList]?
            for entry in try entries(item, path, allowed: ["url", "selectors"]) {
                if entry.key == "url" {
                    pattern = try self.pattern(entry.value, "\(path).url")
                } else {
                    selectorLists = try selectors(entry.value, "\(path).selectors")
                }
            }
            guard let pattern else { throw error(item, path, "missing `url`") }
            guard let selectorLists else { throw error(item, path, "missing `selectors`") }
            exclusions.append(CrawlConfiguration.URLExclusion(url: pattern, selectors: selectorLists))
        }
        return exclusions
    }

    func excludeByRule(_ node: YAMLNode, ruleSet: RuleSet) throws(Diagnostic) -> [String: [SelectorList]] {
        var exclusions: [String: [SelectorList]] = [:]
        for entry in try entries(node, "exclude-by-rule", allowed: nil) {
            let id = try ruleID(entry.key, entry.keyNode, "exclude-by-rule.\(entry.key)", in: ruleSet)
            exclusions[id] = try selectors(entry.value, "exclude-by-rule.\(entry.key)")
        }
        return exclusions
    }

    func owners(_ node: YAMLNode) throws(Diagnostic) -> [CrawlConfiguration.Owner] {
        try entries(node, "owners", allowed: nil).map { (entry) throws(Diagnostic) in
            CrawlConfiguration.Owner(name: entry.key, selectors: try selectors(entry.value, "owners.\(entry.key)"))
        }
    }

    func output(_ node: YAMLNode) throws(Diagnostic) -> CrawlConfiguration.Output {
        var output = CrawlConfiguration.Output()
        for entry in try entries(node, "output", allowed: ["reports", "store"]) {
            let text = try string(entry.value, "output.\(entry.key)")
            guard !text.isEmpty else { throw error(entry.value, "output.\(entry.key)", "expected a path, found an empty string") }
            if entry.key == "reports" { output.reports = resolvedPath(text) } else { output.store = resolvedPath(text) }
        }
        return output
    }

    func notify(_ node: YAMLNode) throws(Diagnostic) -> CrawlConfiguration.Notify {
        var notify = CrawlConfiguration.Notify()
        for entry in try entries(node, "notify", allowed: ["url", "timeout", "retries"]) {
            let path = "notify.\(entry.key)"
            switch entry.key {
            case "url":
                let text = try substitutingEnvironment(try string(entry.value, path), entry.value, path)
                guard let url = CrawlConfiguration.Notify.webhook(text) else { throw error(entry.value, path, "expected an http or https webhook address") }
                notify.url = url
            case "timeout": notify.timeout = try seconds(entry.value, path)
            default: notify.retries = try integer(entry.value, path, minimum: 0)
            }
        }
        return notify
    }

    func components(_ node: YAMLNode) throws(Diagnostic) -> CrawlConfiguration.Components {
        var components = CrawlConfiguration.Components()
        for entry in try entries(node, "components", allowed: ["min-share"]) {
            let share = try number(entry.value, "components.min-share")
            guard share > 0, share <= 1 else {
                throw error(entry.value, "components.min-share", "expected a share above 0 and at most 1 (e.g. 0.5), found \(share)")
            }
            components.minShare = share
        }
        return components
    }

    func gate(_ node: YAMLNode) throws(Diagnostic) -> GatePolicy {
        var policy = GatePolicy()
        let keys = ["baseline", "fail-on", "fail-on-vendors", "fail-on-incomplete", "rules", "budgets", "rewrite"]
        for entry in try entries(node, "gate", allowed: keys) {
            let path = "gate.\(entry.key)"
            switch entry.key {
            case "baseline":
                let text = try string(entry.value, path)
                guard !text.isEmpty else { throw error(entry.value, path, "expected a path, found an empty string") }
                policy.baseline = resolvedPath(text)
            case "fail-on":
                let text = try string(entry.value, path)
                guard let impact = Impact(rawValue: text) else {
                    throw error(entry.value, path, "expected one of critical, serious, moderate, minor, found \"\(text)\"")
                }
                policy.failOn = impact
            case "fail-on-vendors": policy.failOnVendors = try bool(entry.value, path)
            case "fail-on-incomplete": policy.failOnIncomplete = try bool(entry.value, path)
            case "rules":
                for rule in try entries(entry.value, path, allowed: nil) {
                    let rulePath = "\(path).\(rule.key)"
                    guard RuleCatalog.rule(withID: rule.key) != nil else {
                        var message = "unknown rule \"\(rule.key)\""
                        if let suggestion = closest(to: rule.key, in: RuleCatalog.all.map(\.metadata.id)) { message += "; did you mean \"\(suggestion)\"?" }
                        throw error(rule.keyNode, rulePath, message)
                    }
                    let text = try string(rule.value, rulePath)
                    guard let override = GatePolicy.RuleOverride(rawValue: text) else {
                        throw error(rule.value, rulePath, "expected never or always, found \"\(text)\"")
                    }
                    policy.rules[rule.key] = override
                }
            case "budgets":
                for budget in try entries(entry.value, path, allowed: nil) {
                    let budgetPath = "\(path).\(budget.key)"
                    let pattern: PathPattern
                    do {
                        pattern = try PathPattern(budget.key)
                    } catch let failure {
                        throw error(budget.keyNode, budgetPath, failure.description)
                    }
                    policy.budgets.append(PageBudget(pattern: pattern, allowed: try integer(budget.value, budgetPath, minimum: 0)))
                }
            default:
                for rewrite in try entries(entry.value, path, allowed: nil) {
                    let to = try string(rewrite.value, "\(path).\(rewrite.key)")
                    do {
                        policy.rewrites.append(try URLRewrite(from: rewrite.key, to: to))
                    } catch let failure {
                        throw error(rewrite.keyNode, "\(path).\(rewrite.key)", failure.description)
                    }
                }
            }
        }
        return policy
    }

    // MARK: Values

    struct Entry {
        let key: String
        let keyNode: YAMLNode
        let value: YAMLNode
    }

    /// The entries of a mapping (nothing for an empty or null section), each key checked
    /// against `allowed` (any key when nil) and seen once.
    func entries(_ node: YAMLNode, _ path: String, allowed: [String]?) throws(Diagnostic) -> [Entry] {
        if isNull(node) { return [] }
        guard let mapping = node.mapping else {
            throw error(node, path, "expected a mapping, found \(kind(of: node))")
        }
        var result: [Entry] = []
        for (keyNode, value) in mapping {
            guard let key = keyNode.scalar?.string, !isNull(keyNode) else {
                throw error(keyNode, path, "expected a key name, found \(kind(of: keyNode))")
            }
            let keyPath = path.isEmpty ? key : "\(path).\(key)"
            if let allowed, !allowed.contains(key) {
                var message = "unknown key; expected one of \(allowed.joined(separator: ", "))"
                if let suggestion = closest(to: key, in: allowed) { message = "unknown key; did you mean `\(suggestion)`?" }
                throw error(keyNode, keyPath, message)
            }
            guard !result.contains(where: { $0.key == key }) else { throw error(keyNode, keyPath, "the key appears twice") }
            result.append(Entry(key: key, keyNode: keyNode, value: value))
        }
        return result
    }

    /// A string or a list of strings, each with its node and key path.
    func stringList<T>(
        _ node: YAMLNode, _ path: String, what: String, _ transform: (String, YAMLNode, String) throws(Diagnostic) -> T?
    ) throws(Diagnostic) -> [T] {
        if node.scalar != nil, isString(node) {
            return try transform(node.scalar!.string, node, path).map { [$0] } ?? []
        }
        guard let sequence = node.sequence else {
            throw error(node, path, "expected a list of \(what), found \(kind(of: node))")
        }
        var values: [T] = []
        for (index, item) in sequence.enumerated() {
            let itemPath = "\(path)[\(index)]"
            if let value = try transform(try string(item, itemPath), item, itemPath) { values.append(value) }
        }
        return values
    }

    func url(_ text: String, _ node: YAMLNode, _ path: String, _ normalizer: URLNormalizer) throws(Diagnostic) -> CrawlURL {
        do {
            return try normalizer.normalize(text)
        } catch {
            throw self.error(node, path, "\"\(text)\" is not a usable URL: \(error)")
        }
    }

    func patterns(_ node: YAMLNode, _ path: String) throws(Diagnostic) -> [URLPattern] {
        try stringList(node, path, what: "URL patterns") { (_, item, itemPath) throws(Diagnostic) in try pattern(item, itemPath) }
    }

    func pattern(_ node: YAMLNode, _ path: String) throws(Diagnostic) -> URLPattern {
        let text = try string(node, path)
        do {
            return try URLPattern(text)
        } catch {
            throw self.error(node, path, error.description)
        }
    }

    func selectors(_ node: YAMLNode, _ path: String) throws(Diagnostic) -> [SelectorList] {
        try stringList(node, path, what: "CSS selectors") { (_, item, itemPath) throws(Diagnostic) in try selector(item, itemPath) }
    }

    /// Name → value mappings whose values may use `${NAME}`, resolved into `Secret`s.
    func credentials(
        _ node: YAMLNode, _ path: String, validate: (String, String, YAMLNode, String) throws(Diagnostic) -> Void
    ) throws(Diagnostic) -> [Credential] {
        try entries(node, path, allowed: nil).map { (entry) throws(Diagnostic) in
            let itemPath = "\(path).\(entry.key)"
            let raw: String
            if let scalar = entry.value.scalar, !isNull(entry.value), entry.value.tag.rawValue != Tag.Name.bool.rawValue {
                raw = scalar.string  // numbers are fine as header values: "X-Team-Id: 42"
            } else {
                throw error(entry.value, itemPath, "expected a value, found \(kind(of: entry.value))")
            }
            let value = try substitutingEnvironment(raw, entry.value, itemPath)
            try validate(entry.key, value, entry.keyNode, itemPath)
            return Credential(name: entry.key, value: Secret(value))
        }
    }

    /// `${NAME}` replaced by the environment's value; a missing or empty variable is an error.
    func substitutingEnvironment(_ text: String, _ node: YAMLNode, _ path: String) throws(Diagnostic) -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                throw error(node, path, "`${` without a closing `}`; write ${NAME} for an environment variable")
            }
            let name = String(rest[start.upperBound..<end])
            let isIdentifier = name.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } == true
                && name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
            guard isIdentifier else { throw error(node, path, "\"${\(name)}\" does not name an environment variable") }
            guard let value = environment[name] else { throw error(node, path, "environment variable \(name) is not set") }
            guard !value.isEmpty else { throw error(node, path, "environment variable \(name) is empty") }
            result += value
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }

    func ruleID(_ id: String, _ node: YAMLNode, _ path: String, in ruleSet: RuleSet) throws(Diagnostic) -> String {
        if ruleSet.ruleIDs.contains(id) { return id }
        if RuleCatalog.rule(withID: id) != nil {
            throw error(node, path, "rule \"\(id)\" is not enabled by the rule set \"\(ruleSet.name)\"")
        }
        var message = "unknown rule \"\(id)\""
        if let suggestion = closest(to: id, in: RuleCatalog.all.map(\.metadata.id)) { message += "; did you mean \"\(suggestion)\"?" }
        throw error(node, path, message)
    }


    func resolvedPath(_ path: String) -> String {
        guard let baseDirectory, !path.hasPrefix("/") else { return path }
        return URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: baseDirectory, isDirectory: true)).standardizedFileURL.path
    }

    func string(_ node: YAMLNode, _ path: String) throws(Diagnostic) -> String {
        guard let scalar = node.scalar, isString(node) else {
            throw error(node, path, "expected a string, found \(kind(of: node))")
        }
        return scalar.string
    }

    func bool(_ node: YAMLNode, _ path: String) throws(Diagnostic) -> Bool {
        guard node.tag.rawValue == Tag.Name.bool.rawValue, let value = node.bool else {
            throw error(node, path, "expected true or false, found \(kind(of: node))")
        }
        return value
    }

    func integer(_ node: YAMLNode, _ path: String, minimum: Int) throws(Diagnostic) -> Int {
        guard node.tag.rawValue == Tag.Name.int.rawValue, let value = node.int, value >= minimum else {
            throw error(node, path, "expected a whole number of at least \(minimum), found \(kind(of: node))")
        }
        return value
    }

    func number(_ node: YAMLNode, _ path: String) throws(Diagnostic) -> Double {
        let tag = node.tag.rawValue
        guard tag == Tag.Name.int.rawValue || tag == Tag.Name.float.rawValue, let value = node.float else {
            throw error(node, path, "expected a number, found \(kind(of: node))")
        }
        return value
    }

    func seconds(_ node: YAMLNode, _ path: String) throws(Diagnostic) -> Double {
        let value = try number(node, path)
        guard value > 0, value.isFinite else { throw error(node, path, "expected a number of seconds above 0, found \(kind(of: node))") }
        return value
    }

    /// A whole number of bytes, or a size such as "10 MB" or "512KB" (1 KB = 1024 bytes).
    func byteCount(_ node: YAMLNode, _ path: String) throws(Diagnostic) -> Int {
        if node.tag.rawValue == Tag.Name.int.rawValue, let value = node.int, value >= 1 { return value }
        let failure = error(node, path, "expected a size such as 10485760, \"512 KB\" or \"10 MB\", found \(kind(of: node))")
        guard isString(node), let text = node.scalar?.string else { throw failure }
        guard let size = ByteSize.parse(text) else { throw failure }
        return size
    }

    // MARK: Errors

    func error(_ node: YAMLNode?, _ keyPath: String, _ message: String) -> Diagnostic {
        Diagnostic.configuration(file: file, line: node?.mark?.line, keyPath: keyPath, message: message)
    }

    func isString(_ node: YAMLNode) -> Bool { node.tag.rawValue == Tag.Name.str.rawValue }
    func isNull(_ node: YAMLNode) -> Bool { node.tag.rawValue == Tag.Name.null.rawValue }

    func kind(of node: YAMLNode) -> String { YAMLDiagnostics.kind(of: node) }

    func closest(to name: String, in candidates: [String]) -> String? { YAMLDiagnostics.closest(to: name, in: candidates) }
}

/// "10 MB", "512KB", "1.5 GiB", "2048": binary units, case-insensitive.
enum ByteSize {
    static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let numberPart = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let unit = trimmed.dropFirst(numberPart.count).trimmingCharacters(in: .whitespaces).lowercased()
        let multipliers: [String: Double] = [
            "": 1, "b": 1, "kb": 1024, "kib": 1024, "k": 1024, "mb": 1024 * 1024, "mib": 1024 * 1024, "m": 1024 * 1024,
            "gb": 1024 * 1024 * 1024, "gib": 1024 * 1024 * 1024, "g": 1024 * 1024 * 1024,
        ]
        guard let number = Double(numberPart), let multiplier = multipliers[unit] else { return nil }
        let bytes = number * multiplier
        guard bytes >= 1, bytes < Double(Int.max) else { return nil }
        return Int(bytes)
    }
}

/// HTTP syntax checks for configured headers and cookies (RFC 9110 §5.6.2, RFC 6265 §4.1.1).
enum HTTPToken {
    static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }

    static func isValidHeaderValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0x00 }
    }

    static func isValidCookieValue(_ value: String) -> Bool {
        value.utf8.allSatisfy { byte in
            byte == 0x21 || (byte >= 0x23 && byte <= 0x2B) || (byte >= 0x2D && byte <= 0x3A) || (byte >= 0x3C && byte <= 0x5B)
                || (byte >= 0x5D && byte <= 0x7E)
        }
    }
}
