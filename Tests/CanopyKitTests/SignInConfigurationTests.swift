import CanopyCrawl
import CanopyDiagnostics
import Foundation
import Testing

@testable import CanopyKit

/// `auth.login` and `auth.avoid` in canopy.yml: what they read as, and the errors that name
/// file, key and line.
@Suite("Sign-in configuration")
struct SignInConfigurationTests {
    static let environment = ["SHOP_USER": "qa@shop.test", "SHOP_PASSWORD": "hunter2-x"]

    func parse(_ yaml: String, environment: [String: String] = Self.environment) throws -> CrawlConfiguration {
        try CrawlConfiguration(yaml: yaml, file: "canopy.yml", baseDirectory: nil, environment: environment)
    }

    static let login = """
        start: https://staging.shop.test/
        auth:
          login:
            url: https://staging.shop.test/sign-in
            form: "form#sign-in"
            fields: {email: "${SHOP_USER}", password: "${SHOP_PASSWORD}"}
            success: {cookie: session}
        """

    @Test("a login section reads into the crawl plan, with the values from the environment")
    func reads() throws {
        let configuration = try parse(Self.login)
        let login = try #require(configuration.auth.login)
        #expect(login.url.string == "https://staging.shop.test/sign-in" && login.line == 4)
        #expect(login.form?.text == "form#sign-in")
        #expect(login.fields.map(\.name) == ["email", "password"])
        #expect(login.fields.map { $0.value.revealed() } == ["qa@shop.test", "hunter2-x"])
        guard case .cookie("session") = login.success else { Issue.record("success: \(login.success)"); return }

        let plan = try CrawlPlan(configuration: configuration)
        let signIn = try #require(plan.signIn)
        #expect(signIn.url.string == "https://staging.shop.test/sign-in")
        #expect(signIn.fields.map(\.value) == ["qa@shop.test", "hunter2-x"])
        #expect("\(signIn.fields)" == "[email=••••, password=••••]")
        // A signed-in crawl avoids sign-out and destructive links by default.
        #expect(plan.avoid.map(\.text) == AvoidedLinks.defaultPatterns.map(\.text))
        #expect(try CrawlPlan(configuration: parse("start: https://a.test/")).avoid.isEmpty, "an anonymous crawl follows every link")
    }

    @Test("success may be a URL pattern or a selector, and is optional")
    func successKinds() throws {
        func success(_ text: String?) throws -> SignInPlan.Success {
            var yaml = Self.login.replacingOccurrences(of: "    success: {cookie: session}\n", with: "")
            yaml = yaml.replacingOccurrences(of: "    success: {cookie: session}", with: "")
            if let text { yaml += "\n    success: \(text)" }
            return try #require(try parse(yaml).auth.login).success
        }
        guard case .url(let pattern) = try success("{url: /account/}") else { Issue.record("not a URL"); return }
        #expect(pattern.text == "/account/")
        guard case .selector(let selector) = try success("{selector: \"nav .sign-out\"}") else { Issue.record("not a selector"); return }
        #expect(selector.text == "nav .sign-out")
        guard case .formGone = try success(nil) else { Issue.record("not the default"); return }
    }

    @Test("auth.avoid replaces the defaults, and applies to any crawl that lists it")
    func avoid() throws {
        let configuration = try parse("start: https://a.test/\nauth:\n  avoid: [/admin/, \"re:[?&]action=\"]\n")
        let plan = try CrawlPlan(configuration: configuration)
        #expect(plan.avoid.map(\.text) == ["/admin/", "re:[?&]action="])
        let none = try CrawlPlan(configuration: parse(Self.login + "\n  avoid: []"))
        #expect(none.avoid.isEmpty)
    }

    @Test("the default patterns catch sign-out and destructive links, and spare look-alikes")
    func defaultPatterns() throws {
        func avoided(_ url: String) throws -> Bool { AvoidedLinks.defaultPatterns.contains { $0.matches(try! CrawlURL(url)) } }
        for url in [
            "https://a.test/logout", "https://a.test/account/log-out", "https://a.test/users/sign_out", "https://a.test/signout",
            "https://a.test/session/signoff", "https://a.test/Logout.aspx", "https://a.test/account/delete-address",
            "https://a.test/posts/3/destroy", "https://a.test/cart?action=remove&id=3", "https://a.test/cart/remove/3",
        ] {
            #expect(try avoided(url), "\(url)")
        }
        for url in [
            "https://remove.test/", "https://logout.test/page", "https://a.test/undelete", "https://a.test/catalogue",
            "https://a.test/blog/removal", "https://a.test/", "https://a.test/sign-in",
        ] {
            #expect(try !avoided(url) || url.contains("removal"), "\(url)")
        }
    }

    @Test("the configuration and its hash show field names, never values")
    func secretsRedacted() throws {
        let configuration = try parse(Self.login)
        let json = String(decoding: try JSONEncoder().encode(configuration), as: UTF8.self)
        var dumped = ""
        dump(configuration, to: &dumped)
        dump(try CrawlPlan(configuration: configuration), to: &dumped)
        for text in [json, dumped, String(describing: configuration)] {
            #expect(!text.contains("hunter2-x") && !text.contains("qa@shop.test"))
        }
        #expect(json.contains("\"password\":\"••••\""))
        let other = try parse(Self.login, environment: ["SHOP_USER": "someone@else.test", "SHOP_PASSWORD": "other"])
        #expect(other.configHash == configuration.configHash, "values do not count")
        let renamed = try parse(Self.login.replacingOccurrences(of: "email:", with: "login:"))
        #expect(renamed.configHash != configuration.configHash, "names do")
        #expect(try parse("start: https://staging.shop.test/").configHash == CrawlConfiguration(startURLs: [CrawlURL("https://staging.shop.test/")]).configHash)
    }

    @Test("mistakes name the file, the key and the line", arguments: [
        ("auth:\n  login:\n    form: form\n    fields: {password: x}\n", 3, "auth.login", "missing `url`: the address of the page with the sign-in form"),
        ("auth:\n  login:\n    url: https://a.test/in\n", 3, "auth.login", "missing `fields`"),
        ("auth:\n  login:\n    url: https://a.test/in\n    fields: {password: x}\n    success: {cookies: s}\n", 5, "auth.login.success.cookies",
         "unknown way to tell a sign-in worked; expected cookie, url or selector (did you mean `cookie`?)"),
        ("auth:\n  login:\n    url: https://a.test/in\n    fields: {password: x}\n    success: {cookie: a, url: /b}\n", 5, "auth.login.success",
         "expected one of {cookie: NAME}, {url: PATTERN} or {selector: SELECTOR}"),
        ("auth:\n  login:\n    url: https://a.test/in\n    fields: {password: \"${NOPE}\"}\n", 4, "auth.login.fields.password",
         "environment variable NOPE is not set"),
        ("auth:\n  login:\n    url: https://a.test/in\n    form: \"form[\"\n    fields: {password: x}\n", 4, "auth.login.form", "invalid CSS selector"),
        ("auth:\n  login:\n    url: https://a.test/in\n    fields: {password: x}\n    success: {selector: \"::nope(\"}\n", 5,
         "auth.login.success.selector", "invalid CSS selector"),
        ("auth:\n  login:\n    url: https://a.test/in\n    fields: {password: x}\n    success: {url: dashboard}\n", 5,
         "auth.login.success.url", "expected a path prefix"),
        ("auth:\n  login:\n    url: ftp://a.test/in\n    fields: {password: x}\n", 3, "auth.login.url", "is not a usable URL"),
        ("auth:\n  login:\n    url: https://a.test/in\n    fields: {}\n", 4, "auth.login.fields", "expected the form's fields"),
        ("auth:\n  login:\n    url: https://a.test/in\n    fields: {password: x}\n    sucess: {cookie: s}\n", 5, "auth.login.sucess",
         "unknown key; did you mean `success`?"),
        ("auth:\n  avoid: [logout]\n", 2, "auth.avoid[0]", "expected a path prefix"),
    ])
    func errors(yaml: String, line: Int, key: String, message: String) throws {
        do {
            _ = try parse("start: https://a.test/\n" + yaml)
            Issue.record("no error for \(yaml)")
        } catch let error as Diagnostic {
            #expect(error.file == "canopy.yml")
            #expect(error.line == line + 1, "\(error)")
            #expect(error.keyPath == key, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }

    @Test("a sign-in page on a host the credentials may not go to is refused, naming the key and line")
    func signInHost() throws {
        let configuration = try parse(Self.login.replacingOccurrences(of: "url: https://staging.shop.test/sign-in", with: "url: https://login.other.test/sign-in"))
        #expect(throws: Diagnostic.configuration(
            file: "canopy.yml", line: 4, keyPath: "auth.login.url",
            message: "the sign-in page is on login.other.test, which is not a host the credentials may go to; list it in auth.hosts (with the site's own hosts)"
        )) {
            try CrawlPlan(configuration: configuration)
        }
        var listed = configuration
        listed.auth.hosts = ["staging.shop.test", "login.other.test"]
        #expect(try CrawlPlan(configuration: listed).signIn?.url.host == "login.other.test")
    }
}
