import CanopyDiagnostics
import CanopyCrawl
import CanopyHTML
import CanopyReports
import CanopyRules
import Foundation
import Testing

@testable import CanopyKit

@Suite("Crawl configuration")
struct CrawlConfigurationTests {
    /// docs/configuration.md's complete example, kept here word for word.
    static let completeExample = #"""
        # canopy.yml — the weekly crawl of the shop
        start:                                   # one URL, or a list
          - https://www.example.com/
          - https://www.example.com/fr/
        sitemaps: auto                           # auto | none | a list of sitemap URLs

        scope:
          origins: [https://help.example.com]    # crawled too, besides the start URLs' origins
          include: [/en/, /fr/, "re:^https://help\\.example\\.com/"]
          exclude:
            - /checkout/
            - "re:\\.(pdf|zip)$"
            - "re:[?&]page=\\d{3,}"
          strip-query: [utm_*, gclid, sessionid]
          sort-query: false
          follow-nofollow: false

        limits:
          max-pages: 5000
          max-depth: 12
          max-bytes: 5 MB
          timeout: 20
          connect-timeout: 5
          retries: 3
          max-redirects: 5

        politeness:
          concurrency: 12
          per-host: 4
          requests-per-second: 10
          robots: true
          crawl-delay: true
          user-agent: "Canopy/0.1 (+accessibility audit; team@example.com)"

        auth:
          hosts: [www.example.com, help.example.com]
          headers:
            Authorization: "Bearer ${STAGING_TOKEN}"
            X-Audit: canopy
          cookies:
            consent: "accepted"
            session: "${STAGING_SESSION}"
          login:                                 # sign in through the site's own form first
            url: https://www.example.com/account/sign-in
            form: "form#sign-in"                 # optional: the one form with a password field
            fields: {email: "${SHOP_USER}", password: "${SHOP_PASSWORD}"}
            success: {cookie: shop_session}      # or {url: PATTERN} or {selector: SELECTOR}
          avoid: [/account/sign-out, /account/delete, "re:[?&]action=(remove|cancel)"]   # never requested

        rules:
          set: Rules/team.yml                    # relative to this file's folder
          only: []                               # empty: every rule of the set

        exclude:                                 # on every page
          - "#cookie-banner"
          - .chat-widget
        exclude-by-url:
          - url: /legacy/
            selectors: [.old-footer]
          - url: "re:/product/\\d+"
            selectors: [".reviews iframe", .recommendations]
        exclude-by-rule:
          region: [.tracking-pixel]
          image-alt: [".vendor-gallery img"]     # only ids of rules the set enables

        owners:                                  # audited, attributed to the vendor
          Zendesk: ["#launcher", .zEWidget-webWidget]
          Trustpilot: [.trustpilot-widget]

        output:
          reports: Reports                       # relative to this file's folder
          store: Reports/canopy.sqlite

        notify:
          url: ${CHAT_WEBHOOK}                   # the digest goes to the team's channel after each crawl

        incremental: true                        # keep the findings of pages unchanged since the last run
        frames: true                             # audit frames' documents with the pages showing them

        components:
          min-share: 0.5
        """#

    static let environment = [
        "STAGING_TOKEN": "tok-3f9a1c", "STAGING_SESSION": "sess-77e2", "CHAT_WEBHOOK": "https://chat.example/hooks/T0K3N",
        "SHOP_USER": "qa@example.com", "SHOP_PASSWORD": "s3cr3t-pw",
    ]

    func parse(_ yaml: String, environment: [String: String] = [:], baseDirectory: String? = nil) throws -> CrawlConfiguration {
        try CrawlConfiguration(yaml: yaml, file: "canopy.yml", baseDirectory: baseDirectory, environment: environment)
    }

    /// A fresh folder with `files` written into it (paths relative to it); the caller removes it.
    static func folder(_ files: [String: String]) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("canopy-config-\(UUID().uuidString)").path
        for (path, text) in files {
            let full = (folder as NSString).appendingPathComponent(path)
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: full, atomically: true, encoding: .utf8)
        }
        return folder
    }

    // MARK: Defaults

    @Test("a file with only start gets every default")
    func onlyStart() throws {
        let configuration = try parse("start: https://Example.com/Shop/")
        #expect(configuration.startURLs.map(\.string) == ["https://example.com/Shop/"])
        #expect(configuration.sitemaps == .auto)
        #expect(configuration.scope.origins.isEmpty && configuration.scope.include.isEmpty && configuration.scope.exclude.isEmpty)
        #expect(configuration.scope.stripQuery.isEmpty && !configuration.scope.sortQuery && !configuration.scope.followNofollow)
        let limits = configuration.limits
        let counts: [Int] = [limits.maxPages, limits.maxDepth, limits.maxBytes, limits.retries, limits.maxRedirects]
        #expect(counts == [10_000, 20, 10_485_760, 2, 10])
        #expect(limits.timeout == 30 && limits.connectTimeout == 10)
        let politeness = configuration.politeness
        #expect(politeness.concurrency == 16 && politeness.perHost == 8 && politeness.requestsPerSecond == 0)
        #expect(politeness.robots && politeness.crawlDelay)
        #expect(politeness.userAgent == "Canopy/\(CanopyVersion.current) (+accessibility audit)")
        #expect(configuration.auth.hosts == nil && configuration.auth.headers.isEmpty && configuration.auth.cookies.isEmpty)
        #expect(configuration.credentialHosts == ["example.com"])
        #expect(configuration.rules.set == nil && configuration.rules.only.isEmpty)
        #expect(configuration.exclude.isEmpty && configuration.excludeByURL.isEmpty && configuration.excludeByRule.isEmpty)
        #expect(configuration.owners.isEmpty)
        #expect(configuration.output.reports == "Reports")
        #expect(configuration.output.storePath == "Reports/canopy.sqlite")
        #expect(configuration.notify.url == nil)
        #expect(configuration.components.minShare == 0.5)
        #expect(configuration.file == "canopy.yml")
    }

    @Test("with no file at all, the configuration is the defaults around the start URLs")
    func noFile() throws {
        let start = try CrawlURL("https://staging.example.com/")
        let configuration = CrawlConfiguration(startURLs: [start])
        #expect(configuration.file == nil)
        #expect(configuration.limits.maxPages == 10_000)
        #expect(configuration.crawlScope.contains(try CrawlURL("https://staging.example.com/a")))
        #expect(!configuration.crawlScope.contains(try CrawlURL("https://www.example.com/a")))
        #expect(try configuration.selectedRules().map(\.metadata.id) == RuleSet.standard().ruleIDs)
        #expect(configuration.configHash == CrawlConfiguration(startURLs: [start]).configHash)
        #expect(throws: Diagnostic.self) { try CrawlConfiguration(startURLs: []).requireStartURLs() }
        #expect(throws: Never.self) { try configuration.requireStartURLs() }
    }

    @Test("empty sections and a file without start are accepted; the crawl then needs a start URL")
    func emptySections() throws {
        let configuration = try parse("limits:\nscope: {}\n")
        #expect(configuration.startURLs.isEmpty)
        #expect(configuration.limits.maxPages == 10_000)
        #expect(throws: Diagnostic.configuration(file: "canopy.yml", line: nil, keyPath: "start",
                                           message: "no start URL: list one under `start` or give one on the command line")) {
            try configuration.requireStartURLs()
        }
    }

    // MARK: The complete example

    @Test("docs/configuration.md's complete example reads as documented")
    func completeExample() throws {
        let folder = try Self.folder([
            "canopy.yml": Self.completeExample,
            "Rules/team.yml": "rules: [image-alt, region, link-name, document-title]\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = (folder as NSString).appendingPathComponent("canopy.yml")
        let configuration = try CrawlConfiguration.load(contentsOf: file, environment: Self.environment)
        let realFolder = URL(fileURLWithPath: folder).standardizedFileURL.path

        #expect(configuration.startURLs.map(\.string) == ["https://www.example.com/", "https://www.example.com/fr/"])
        #expect(configuration.sitemaps == .auto)
        #expect(configuration.scope.origins == [try Origin("https://help.example.com")])
        #expect(configuration.scope.include.map(\.text) == ["/en/", "/fr/", #"re:^https://help\.example\.com/"#])
        #expect(configuration.scope.exclude.map(\.text) == ["/checkout/", #"re:\.(pdf|zip)$"#, #"re:[?&]page=\d{3,}"#])
        #expect(configuration.scope.stripQuery == ["utm_*", "gclid", "sessionid"])
        #expect(configuration.limits.maxPages == 5000 && configuration.limits.maxDepth == 12)
        #expect(configuration.limits.maxBytes == 5 * 1024 * 1024)
        #expect(configuration.limits.timeout == 20 && configuration.limits.connectTimeout == 5)
        #expect(configuration.limits.retries == 3 && configuration.limits.maxRedirects == 5)
        #expect(configuration.politeness.concurrency == 12 && configuration.politeness.perHost == 4)
        #expect(configuration.politeness.requestsPerSecond == 10)
        #expect(configuration.politeness.userAgent == "Canopy/0.1 (+accessibility audit; team@example.com)")
        #expect(configuration.credentialHosts == ["www.example.com", "help.example.com"])
        #expect(configuration.auth.headers.map(\.name) == ["Authorization", "X-Audit"])
        #expect(configuration.revealedCredentialHeaders() == [
            HTTPHeader("Authorization", "Bearer tok-3f9a1c"), HTTPHeader("X-Audit", "canopy"),
            HTTPHeader("Cookie", "consent=accepted; session=sess-77e2"),
        ])
        let login = try #require(configuration.auth.login)
        #expect(login.url.string == "https://www.example.com/account/sign-in" && login.form?.text == "form#sign-in")
        #expect(login.fields.map { "\($0.name)=\($0.value.revealed())" } == ["email=qa@example.com", "password=s3cr3t-pw"])
        #expect("\(login.success)" == "a cookie named shop_session")
        #expect(configuration.auth.avoidedLinks.map(\.text) == ["/account/sign-out", "/account/delete", "re:[?&]action=(remove|cancel)"])
        #expect(try CrawlPlan(configuration: configuration).signIn?.url == login.url)
        #expect(configuration.rules.set == realFolder + "/Rules/team.yml")
        #expect(try configuration.selectedRules().map(\.metadata.id) == ["image-alt", "region", "link-name", "document-title"])
        #expect(configuration.exclude.map(\.text) == ["#cookie-banner", ".chat-widget"])
        #expect(configuration.excludeByURL.map(\.url.text) == ["/legacy/", #"re:/product/\d+"#])
        #expect(configuration.excludeByURL[1].selectors.map(\.text) == [".reviews iframe", ".recommendations"])
        #expect(configuration.excludeByRule.mapValues { $0.map(\.text) } == ["region": [".tracking-pixel"], "image-alt": [".vendor-gallery img"]])
        #expect(configuration.owners.map(\.name) == ["Zendesk", "Trustpilot"])
        #expect(configuration.owners[0].selectors.map(\.text) == ["#launcher", ".zEWidget-webWidget"])
        #expect(configuration.output.reports == realFolder + "/Reports")
        #expect(configuration.output.storePath == realFolder + "/Reports/canopy.sqlite")
        #expect(configuration.notify.url?.revealed() == "https://chat.example/hooks/T0K3N")
        #expect(configuration.notify.url?.description == Secret.redacted)
        #expect((configuration.notify.timeout, configuration.notify.retries) == (10, 2))
        #expect(configuration.incremental)
        var off = try parse("start: https://a.test/\nincremental: false\n")
        #expect(!off.incremental)
        let hash = off.configHash
        off.incremental = true
        #expect(off.configHash == hash, "an incremental run and a full one are records of one kind")
        #expect(configuration.frames)
        var framesOff = try parse("start: https://a.test/\nframes: false\n")
        #expect(!framesOff.frames)
        let framesOffHash = framesOff.configHash
        framesOff.frames = true
        #expect(framesOff.configHash != framesOffHash, "auditing frames changes what a run records")
        #expect(framesOff.configHash == (try parse("start: https://a.test/\n")).configHash, "frames on is the default, hashed as before")
        #expect(configuration.components.minShare == 0.5)
        #expect(configuration.file == file)

        // The scope and normalizer built from it behave as the keys say.
        let scope = configuration.crawlScope
        #expect(scope.decision(for: try CrawlURL("https://www.example.com/en/shoes")) == .inScope)
        #expect(scope.decision(for: try CrawlURL("https://www.example.com/checkout/")) == .excludedByPattern)
        #expect(scope.decision(for: try CrawlURL("https://www.example.com/en/catalog.pdf")) == .excludedByPattern)
        #expect(scope.decision(for: try CrawlURL("https://www.example.com/de/")) == .notIncluded)
        #expect(scope.decision(for: try CrawlURL("https://help.example.com/faq")) == .inScope)
        #expect(scope.decision(for: try CrawlURL("https://blog.example.com/")) == .offOrigin)
        #expect(try configuration.normalizer.normalize("https://www.example.com/en/?utm_source=x&id=2&gclid=y").string == "https://www.example.com/en/?id=2")
    }

    // MARK: Errors

    /// Each failure kind names the file, the line and the key.
    @Test("mistakes are errors naming file, line and key", arguments: [
        ("start: [https://a.test/\nlimits: 3\n", "canopy.yml:2: invalid YAML: did not find expected ',' or ']'"),
        ("start: https://a.test/\nlimit:\n  max-pages: 3\n", "canopy.yml:2: limit: unknown key; did you mean `limits`?"),
        ("start: https://a.test/\nfrobnicate: 1\n", "canopy.yml:2: frobnicate: unknown key; expected one of start, sitemaps, scope"),
        ("limits:\n  max-pages: lots\n", "canopy.yml:2: limits.max-pages: expected a whole number of at least 1, found \"lots\""),
        ("limits:\n  max-pages: 0\n", "canopy.yml:2: limits.max-pages: expected a whole number of at least 1, found a number (0)"),
        ("limits:\n  max-bytes: plenty\n", "canopy.yml:2: limits.max-bytes: expected a size such as"),
        ("limits:\n  timeout: \"30\"\n", "canopy.yml:2: limits.timeout: expected a number, found \"30\""),
        ("politeness:\n  robots: maybe\n", "canopy.yml:2: politeness.robots: expected true or false, found \"maybe\""),
        ("start: https://a.test/\nincremental: weekly\n", "canopy.yml:2: incremental: expected true or false, found \"weekly\""),
        ("start: https://a.test/\nframes: some\n", "canopy.yml:2: frames: expected true or false, found \"some\""),
        ("politeness:\n  per-host: 2.5\n", "canopy.yml:2: politeness.per-host: expected a whole number of at least 1, found a number (2.5)"),
        ("scope:\n  exclude:\n    - /ok/\n    - \"re:(pdf\"\n", "canopy.yml:4: scope.exclude[1]: \"re:(pdf\": invalid regular expression"),
        ("scope:\n  include: [docs/]\n", "canopy.yml:2: scope.include[0]: \"docs/\": expected a path prefix starting with \"/\" or a regular expression written re:..."),
        ("scope:\n  origins: [https://cdn.test/assets/]\n", "canopy.yml:2: scope.origins[0]: expected an origin such as https://cdn.example.com, without a path"),
        ("exclude:\n  - .ok\n  - \"div[\"\n", "canopy.yml:3: exclude[1]: invalid CSS selector:"),
        ("owners:\n  Vendor: [\"a >\"]\n", "canopy.yml:2: owners.Vendor[0]: invalid CSS selector:"),
        ("exclude-by-url:\n  - url: /x/\n    selector: [.a]\n", "canopy.yml:3: exclude-by-url[0].selector: unknown key; did you mean `selectors`?"),
        ("exclude-by-url:\n  - url: /x/\n", "canopy.yml:2: exclude-by-url[0]: missing `selectors`"),
        ("start: mailto:team@example.com\n", "canopy.yml:1: start: \"mailto:team@example.com\" is not a usable URL: unsupported scheme \"mailto:\""),
        ("start:\n  - https://a.test/\n  - /relative\n", "canopy.yml:3: start[1]: \"/relative\" is not a usable URL: a relative URL needs a base"),
        ("sitemaps: sometimes\n", "canopy.yml:1: sitemaps: \"sometimes\" is not a usable URL"),
        ("sitemaps: 3\n", "canopy.yml:1: sitemaps: expected `auto`, `none` or a list of sitemap URLs, found a number (3)"),
        ("auth:\n  headers:\n    Authorization: \"Bearer ${TOKEN}\"\n", "canopy.yml:3: auth.headers.Authorization: environment variable TOKEN is not set"),
        ("auth:\n  headers:\n    \"Bad Name\": x\n", "canopy.yml:3: auth.headers.Bad Name: \"Bad Name\" is not a valid header name"),
        ("auth:\n  cookies:\n    session: \"a b\"\n", "canopy.yml:3: auth.cookies.session: the value may not contain spaces"),
        ("auth:\n  hosts: [https://a.test/]\n", "canopy.yml:2: auth.hosts[0]: expected a host name such as staging.example.com"),
        ("exclude-by-rule:\n  regoin: [.x]\n", "canopy.yml:2: exclude-by-rule.regoin: unknown rule \"regoin\"; did you mean \"region\"?"),
        ("rules:\n  only: [image-alt, imag-alt]\n", "canopy.yml:2: rules.only[1]: unknown rule \"imag-alt\"; did you mean \"image-alt\"?"),
        ("rules:\n  set: Rules/missing.yml\n", "canopy.yml:2: rules.set: cannot use the rule set: Rules/missing.yml: no such file"),
        ("components:\n  min-share: 1.5\n", "canopy.yml:2: components.min-share: expected a share above 0 and at most 1"),
        ("output:\n  reports: \"\"\n", "canopy.yml:2: output.reports: expected a path, found an empty string"),
        ("- https://a.test/\n", "canopy.yml:1: expected a mapping with at least `start`, found a list"),
        ("", "canopy.yml: the file is empty"),
    ])
    func errors(yaml: String, expectedStart: String) {
        #expect {
            try parse(yaml)
        } throws: { error in
            let description = (error as? Diagnostic)?.description ?? "\(error)"
            let matches = description.hasPrefix(expectedStart)
            if !matches { Issue.record("got: \(description)") }
            return matches
        }
    }

    @Test("a key given twice is an error at its line")
    func duplicateKey() {
        #expect {
            try parse("start: https://a.test/\nlimits:\n  retries: 1\n  retries: 2\n")
        } throws: { error in
            let error = error as? Diagnostic
            return error?.line == 3 || error?.line == 4
        }
    }

    @Test("a rule of the catalog that the set does not enable cannot be excluded or chosen")
    func ruleNotInSet() throws {
        let folder = try Self.folder([
            "canopy.yml": "rules:\n  set: narrow.yml\nexclude-by-rule:\n  region: [.x]\n",
            "only.yml": "rules:\n  set: narrow.yml\n  only: [image-alt, region]\n",
            "narrow.yml": "name: narrow\nrules: [image-alt]\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: Diagnostic.configuration(
            file: folder + "/canopy.yml", line: 4, keyPath: "exclude-by-rule.region",
            message: "rule \"region\" is not enabled by the rule set \"narrow\""
        )) {
            try CrawlConfiguration.load(contentsOf: folder + "/canopy.yml", environment: [:])
        }
        #expect(throws: Diagnostic.configuration(
            file: folder + "/only.yml", line: 3, keyPath: "rules.only[1]",
            message: "rule \"region\" is not enabled by the rule set \"narrow\""
        )) {
            try CrawlConfiguration.load(contentsOf: folder + "/only.yml", environment: [:])
        }
    }

    @Test func missingFile() {
        #expect(throws: Diagnostic.configuration(file: "/nonexistent/canopy.yml", line: nil, keyPath: "", message: "no such file")) {
            try CrawlConfiguration.load(contentsOf: "/nonexistent/canopy.yml", environment: [:])
        }
    }

    // MARK: Values

    @Test("start and sitemaps take one string or a list; duplicates after normalization are dropped")
    func startAndSitemaps() throws {
        let configuration = try parse("""
            start: [https://a.test/x, "HTTPS://A.TEST:443/x#top", https://a.test/y?utm_id=1]
            scope:
              strip-query: [utm_*]
            sitemaps: https://a.test/sitemap_index.xml
            """)
        #expect(configuration.startURLs.map(\.string) == ["https://a.test/x", "https://a.test/y"])
        #expect(configuration.sitemaps == .listed([try CrawlURL("https://a.test/sitemap_index.xml")]))
        #expect(try parse("sitemaps: none").sitemaps == .none)
        #expect(try parse("sitemaps: [https://a.test/s1.xml, https://a.test/s2.xml.gz]").sitemaps
            == .listed([try CrawlURL("https://a.test/s1.xml"), try CrawlURL("https://a.test/s2.xml.gz")]))
    }

    @Test("max-bytes takes bytes or a size with a unit", arguments: [
        ("2048", 2048), ("512 KB", 524_288), ("10MB", 10_485_760), ("1.5 GiB", 1_610_612_736), ("64k", 65_536),
    ])
    func byteSizes(text: String, bytes: Int) throws {
        #expect(try parse("limits:\n  max-bytes: \(text)\n").limits.maxBytes == bytes)
    }

    @Test("${NAME} is replaced from the given environment, nowhere else")
    func environmentSubstitution() throws {
        let yaml = """
            auth:
              headers:
                Authorization: "Basic ${USER_B64}:${PASS_B64}"
                X-Price: "$5 and ${CURRENCY}"
            """
        let configuration = try parse(yaml, environment: ["USER_B64": "dXNlcg", "PASS_B64": "cGFzcw", "CURRENCY": "EUR"])
        #expect(configuration.revealedCredentialHeaders() == [
            HTTPHeader("Authorization", "Basic dXNlcg:cGFzcw"), HTTPHeader("X-Price", "$5 and EUR"),
        ])
        let errors: [(String, [String: String], String)] = [
            ("\"${EMPTY}\"", ["EMPTY": ""], "environment variable EMPTY is empty"),
            ("\"${OPEN\"", [:], "`${` without a closing `}`; write ${NAME} for an environment variable"),
            ("\"${1BAD}\"", [:], "\"${1BAD}\" does not name an environment variable"),
        ]
        for (value, environment, message) in errors {
            #expect(throws: Diagnostic.configuration(file: "canopy.yml", line: 3, keyPath: "auth.headers.X", message: message)) {
                try parse("auth:\n  headers:\n    X: \(value)\n", environment: environment)
            }
        }
    }

    @Test("secrets never show: not in descriptions, dumps, JSON or the hash")
    func secretsRedacted() throws {
        let folder = try Self.folder([
            "canopy.yml": Self.completeExample, "Rules/team.yml": "rules: [image-alt, region]\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let configuration = try CrawlConfiguration.load(contentsOf: folder + "/canopy.yml", environment: Self.environment)
        let secret = try #require(configuration.auth.headers.first?.value)
        #expect(secret.revealed() == "Bearer tok-3f9a1c")
        #expect("\(secret)" == "••••" && String(reflecting: secret) == "••••")

        var dumped = ""
        dump(configuration, to: &dumped)
        let json = String(decoding: try JSONEncoder().encode(configuration), as: UTF8.self)
        for text in [String(describing: configuration), String(reflecting: configuration), dumped, json] {
            #expect(!text.contains("tok-3f9a1c") && !text.contains("sess-77e2"))
        }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let auth = try #require(object["auth"] as? [String: Any])
        #expect(auth["headers"] as? [String: String] == ["Authorization": "••••", "X-Audit": "••••"])
        #expect(auth["cookies"] as? [String: String] == ["consent": "••••", "session": "••••"])
        #expect((object["limits"] as? [String: Any])?["max-pages"] as? Int == 5000)
    }

    @Test("the hash ignores layout and secret values, and follows everything else")
    func configHash() throws {
        let base = try parse("start: https://a.test/\nauth:\n  headers:\n    Authorization: \"${T}\"\n", environment: ["T": "one"])
        #expect(base.configHash.count == 64 && base.configHash.allSatisfy(\.isHexDigit))
        let relaid = try parse("# the same, written differently\nauth: {headers: {Authorization: \"${T}\"}}\nstart: [\"HTTPS://A.TEST\"]\nlimits: {max-pages: 10000}\n", environment: ["T": "two"])
        #expect(relaid.configHash == base.configHash)
        let otherName = try parse("start: https://a.test/\nauth:\n  headers:\n    X-Token: \"${T}\"\n", environment: ["T": "one"])
        #expect(otherName.configHash != base.configHash)
        let otherLimit = try parse("start: https://a.test/\nauth:\n  headers:\n    Authorization: \"${T}\"\nlimits: {max-pages: 9}\n", environment: ["T": "one"])
        #expect(otherLimit.configHash != base.configHash)
        #expect(SHA256.hexDigest(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hexDigest(Array(String(repeating: "a", count: 1000).utf8)) == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    @Test("credentials go to the listed hosts, or by default to the start URLs' hosts")
    func credentialHosts() throws {
        let listed = try parse("start: https://www.a.test/\nauth:\n  hosts: [Staging.A.test]\n  cookies: {s: \"1\"}\n")
        #expect(listed.credentialHosts == ["staging.a.test"])
        let byDefault = try parse("start: [https://www.a.test/, https://help.a.test:8443/]\n")
        #expect(byDefault.credentialHosts == ["www.a.test", "help.a.test"])
        #expect(byDefault.revealedCredentialHeaders().isEmpty)
    }

    @Test("relative paths resolve against the configuration file's folder")
    func relativePaths() throws {
        let folder = try Self.folder([
            "site/canopy.yml": "start: https://a.test/\nrules:\n  set: ../sets/mine.yml\noutput:\n  reports: out/weekly\n",
            "sets/mine.yml": "rules: [document-title]\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let configuration = try CrawlConfiguration.load(contentsOf: folder + "/site/canopy.yml", environment: [:])
        let realFolder = URL(fileURLWithPath: folder).standardizedFileURL.path
        #expect(configuration.rules.set == realFolder + "/sets/mine.yml")
        #expect(configuration.output.reports == realFolder + "/site/out/weekly")
        #expect(configuration.output.storePath == realFolder + "/site/out/weekly/canopy.sqlite")
        #expect(try configuration.selectedRules().map(\.metadata.id) == ["document-title"])
        let absolute = try parse("output:\n  store: /var/lib/canopy/runs.sqlite\n", baseDirectory: "/srv/site")
        #expect(absolute.output.storePath == "/var/lib/canopy/runs.sqlite")
        #expect(absolute.output.reports == "Reports")
    }

    // MARK: Command-line overrides

    @Test("command-line values replace or add to the file's, checked the same way")
    func overrides() throws {
        let file = try parse("start: https://a.test/\nlimits: {max-pages: 50}\nexclude: [.ad]\nscope: {strip-query: [utm_*]}\n")
        var overrides = CrawlOverrides()
        overrides.startURLs = ["https://b.test/?utm_source=cli"]
        overrides.maxPages = 7
        overrides.robots = false
        overrides.requestsPerSecond = 2.5
        overrides.excludeSelectors = [".cookie"]
        overrides.excludePatterns = ["/private/"]
        overrides.sitemaps = ["none"]
        overrides.onlyRules = ["image-alt"]
        overrides.reports = "out"
        let applied = try file.applying(overrides)
        #expect(applied.startURLs.map(\.string) == ["https://b.test/"])
        #expect(applied.limits.maxPages == 7 && applied.limits.maxDepth == 20)
        #expect(!applied.politeness.robots && applied.politeness.requestsPerSecond == 2.5)
        #expect(applied.exclude.map(\.text) == [".ad", ".cookie"])
        #expect(applied.scope.exclude.map(\.text) == ["/private/"])
        #expect(applied.sitemaps == .none)
        #expect(try applied.selectedRules().map(\.metadata.id) == ["image-alt"])
        #expect(applied.output.storePath == "out/canopy.sqlite")
        #expect(applied.credentialHosts == ["b.test"])
        #expect(applied.configHash != file.configHash)
        #expect(try file.applying(CrawlOverrides()).configHash == file.configHash)
    }

    @Test("a bad command-line value names the key", arguments: [
        ({ @Sendable (o: inout CrawlOverrides) in o.maxPages = 0 }, "<command line>: limits.max-pages: expected a whole number of at least 1, found 0"),
        ({ @Sendable (o: inout CrawlOverrides) in o.timeout = -1 }, "<command line>: limits.timeout: expected a number of seconds above 0, found -1.0"),
        ({ @Sendable (o: inout CrawlOverrides) in o.startURLs = ["ftp://a.test/"] }, "<command line>: start: \"ftp://a.test/\" is not a usable URL: unsupported scheme \"ftp:\"; only http and https URLs are crawled"),
        ({ @Sendable (o: inout CrawlOverrides) in o.excludeSelectors = ["p >"] }, "<command line>: exclude: invalid CSS selector:"),
        ({ @Sendable (o: inout CrawlOverrides) in o.includePatterns = ["re:["] }, "<command line>: scope.include: \"re:[\": invalid regular expression"),
        ({ @Sendable (o: inout CrawlOverrides) in o.onlyRules = ["no-such-rule"] }, "<command line>: rules.only: not in the rule set \"default\": no-such-rule"),
        ({ @Sendable (o: inout CrawlOverrides) in o.userAgent = "two\nlines" }, "<command line>: politeness.user-agent: expected a non-empty user agent on one line"),
    ] as [(@Sendable (inout CrawlOverrides) -> Void, String)])
    func badOverrides(change: @Sendable (inout CrawlOverrides) -> Void, expectedStart: String) throws {
        var overrides = CrawlOverrides()
        change(&overrides)
        let configuration = CrawlConfiguration(startURLs: [try CrawlURL("https://a.test/")])
        #expect {
            try configuration.applying(overrides)
        } throws: { error in
            let description = (error as? Diagnostic)?.description ?? "\(error)"
            if !description.hasPrefix(expectedStart) { Issue.record("got: \(description)") }
            return description.hasPrefix(expectedStart)
        }
    }
}
