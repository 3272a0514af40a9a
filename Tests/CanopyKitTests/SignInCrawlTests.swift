import CanopyCrawl
import CanopyDiagnostics
import CanopyKit
import CanopyStore
import CanopyTestSupport
import Foundation
import Testing

/// A shop behind a sign-in form, as the in-process server plays it: the form carries a fresh
/// CSRF token (checked against the cookie it was issued with), a good sign-in sets a random
/// session cookie, pages without a live session redirect to the form, and every page links to
/// sign-out and destructive URLs that must never be requested.
final class SignInSite: Sendable {
    struct State {
        var csrfTokens: [String: String] = [:]  // token by the pre-session cookie it was issued with
        var sessions: [String: Int] = [:]  // pages served by live session id
        var sessionValues: [String] = []
        var signInPosts = 0
        var goodSignIns = 0
        var forbiddenRequests: [String] = []
        var badCSRF = 0
        /// Requests for the checkout frame, by whether they came with a live session.
        var frameRequests: [Bool] = []
    }

    static let user = "auditor@shop.test"
    static let password = "pa55-Wörd&=secret"
    /// Pages a session lasts for; nil: for ever.
    let sessionPages: Int?
    /// Sign-ins accepted at most; later ones show the form again, as for a wrong password.
    let acceptedSignIns: Int
    let pages: [String]
    private let state: LockedState<State>
    let server: TestHTTPServer

    init(pages: Int = 6, sessionPages: Int? = nil, acceptedSignIns: Int = .max) throws {
        let paths = ["/"] + (1..<pages).map { "/orders/\($0)" }
        let state = LockedState(State())
        self.sessionPages = sessionPages
        self.acceptedSignIns = acceptedSignIns
        self.pages = paths
        self.state = state
        server = try TestHTTPServer { request in
            Self.answer(request, state: state, pages: paths, sessionPages: sessionPages, acceptedSignIns: acceptedSignIns)
        }
    }

    var snapshot: State { state.withLock { $0 } }
    func url(_ path: String) -> String { server.url(path) }

    private static func answer(
        _ request: TestHTTPRequest, state: LockedState<State>, pages: [String], sessionPages: Int?, acceptedSignIns: Int
    ) -> TestHTTPResponse {
        let path = request.pathWithoutQuery
        let cookies = Self.cookies(request)
        if ["/logout", "/account/delete", "/items/3"].contains(path) || path.hasPrefix("/sign-out") {
            state.withLock { $0.forbiddenRequests.append(request.path) }
            return .html("<title>Bye</title>", status: 200)
        }
        switch (request.method, path) {
        case ("GET", "/sign-in"):
            let visitor = cookies["visitor"] ?? UUID().uuidString
            let token = UUID().uuidString
            state.withLock { $0.csrfTokens[visitor] = token }
            var response = TestHTTPResponse.html(Self.signInPage(token: token))
            response.headers.append(("Set-Cookie", "visitor=\(visitor); Path=/; HttpOnly"))
            return response
        case ("POST", "/session"):
            let form = Self.formFields(request.body)
            let outcome: TestHTTPResponse = state.withLock { state in
                state.signInPosts += 1
                guard let visitor = cookies["visitor"], let token = state.csrfTokens[visitor], form["csrf_token"] == token else {
                    state.badCSRF += 1
                    return .html("<title>Forbidden</title><p>bad CSRF token</p>", status: 403)
                }
                state.csrfTokens[visitor] = nil
                guard form["email"] == Self.user, form["password"] == Self.password, form["remember"] == "yes",
                      state.goodSignIns < acceptedSignIns
                else {
                    return .html(Self.signInPage(token: "spent"))
                }
                state.goodSignIns += 1
                let session = "sess-\(UUID().uuidString)"
                state.sessions[session] = 0
                state.sessionValues.append(session)
                var response = TestHTTPResponse.redirect(to: "/", status: 303)
                response.headers.append(("Set-Cookie", "session=\(session); Path=/; HttpOnly"))
                return response
            }
            return outcome
        case ("GET", "/checkout-frame"):
            let live = state.withLock { state in
                let live = cookies["session"].map { state.sessions[$0] != nil } ?? false
                state.frameRequests.append(live)
                return live
            }
            guard live else { return .redirect(to: "/sign-in?next=/checkout-frame") }
            return .html("<!doctype html><html lang=en><head><title>Checkout</title></head><body><button>Pay</button></body></html>")
        case ("GET", "/site.css"):
            // Styles too are only for signed-in visitors.
            guard let session = cookies["session"], state.withLock({ $0.sessions[session] != nil }) else { return .notFound }
            return TestHTTPResponse(headers: [("Content-Type", "text/css")], body: Array("h1 { color: #111; }".utf8))
        default:
            guard pages.contains(path) else { return .notFound }
            let live: Bool = state.withLock { state in
                guard let session = cookies["session"], let served = state.sessions[session] else { return false }
                if let limit = sessionPages, served >= limit {
                    state.sessions[session] = nil  // expired
                    return false
                }
                state.sessions[session] = served + 1
                return true
            }
            guard live else { return .redirect(to: "/sign-in?next=\(path)") }
            return .html(Self.page(path, links: pages))
        }
    }

    static func signInPage(token: String) -> String {
        """
        <!doctype html><html lang=en><head><title>Sign in</title></head><body><main><h1>Sign in</h1>
        <form role=search action=/search><input name=q aria-label=Search></form>
        <form id=sign-in method=post action=/session>
          <input type=hidden name=csrf_token value="\(token)">
          <label>Email <input name=email type=email></label>
          <label>Password <input name=password type=password></label>
          <label><input type=checkbox name=remember value=yes> Remember me</label>
          <button name=commit value=go>Sign in</button>
        </form></main></body></html>
        """
    }

    static func page(_ path: String, links: [String]) -> String {
        let anchors = links.map { "<li><a href=\"\($0)\">\($0)</a></li>" }.joined()
        return """
            <!doctype html><html lang=en><head><title>Orders \(path)</title><link rel=stylesheet href=/site.css></head>
            <body><main><h1>Your orders \(path)</h1><ul>\(anchors)</ul>
            <a href=/logout>Sign out</a> <a href=/account/delete>Delete my account</a> <a href="/items/3?action=remove">Remove</a>
            <a href=/sign-out-everywhere>Sign out everywhere</a> <a href=/sign-in>Switch account</a>
            <iframe src=/checkout-frame title=Checkout></iframe>
            </main></body></html>
            """
    }

    static func cookies(_ request: TestHTTPRequest) -> [String: String] {
        var cookies: [String: String] = [:]
        for header in request.headerValues("Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2 { cookies[parts[0]] = parts[1] }
            }
        }
        return cookies
    }

    static func formFields(_ body: [UInt8]) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            fields[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return fields
    }
}

/// `auth.login`: Canopy signs in through the site's form, crawls signed in, notices a lost
/// session and signs in again once, stops (exit 3) when it cannot, never audits the sign-in page
/// as content, never requests sign-out or destructive links, and never writes a secret.
@Suite("Crawls behind a sign-in form")
struct SignInCrawlTests {
    static let environment = ["SHOP_USER": SignInSite.user, "SHOP_PASSWORD": SignInSite.password]

    static func configuration(_ site: SignInSite, success: String = "{cookie: session}") -> String {
        """
        start: \(site.url("/"))
        sitemaps: none
        politeness: {robots: false, concurrency: 4, per-host: 4}
        limits: {retries: 0, timeout: 5}
        auth:
          login:
            url: \(site.url("/sign-in"))
            form: "form#sign-in"
            fields: {email: "${SHOP_USER}", password: "${SHOP_PASSWORD}", remember: "yes"}
            success: \(success)
        """
    }

    func crawl(_ site: SignInSite, in folder: ReportTestFolder, yaml: String? = nil, log: LockedState<String>? = nil) throws -> SiteCrawl.Outcome {
        let file = folder.file("canopy.yml")
        try (yaml ?? Self.configuration(site)).write(toFile: file, atomically: true, encoding: .utf8)
        var overrides = CrawlOverrides()
        overrides.reports = folder.file("Reports")
        overrides.store = folder.file("canopy.sqlite")
        let progress = log.map { log in
            CrawlProgressReporter(verbosity: .verbose, isTerminal: false, logInterval: 0) { text in log.withLock { $0 += text } }
        }
        return SiteCrawl(progress: progress).run(SiteCrawl.Options(configPath: file, overrides: overrides, verbosity: .verbose, environment: Self.environment))
    }

    func pages(_ folder: ReportTestFolder, run: RunID) throws -> [StoredPage] {
        try RunStore(path: folder.file("canopy.sqlite"), readOnly: true).pages(run: run)
    }

    @Test("signs in with the form's CSRF token and audits the pages behind it as themselves")
    func signsIn() throws {
        let site = try SignInSite()
        let folder = try ReportTestFolder("signin")
        let outcome = try crawl(site, in: folder)
        let summary = try #require(outcome.summary)
        #expect(outcome.exitStatus != .couldNotAudit, "\(outcome.messages.map(\.description))")
        #expect(summary.signIns == 1 && summary.sessionLosses == 0 && summary.signInFailure == nil)
        let state = site.snapshot
        #expect(state.signInPosts == 1 && state.goodSignIns == 1 && state.badCSRF == 0)
        #expect(state.forbiddenRequests.isEmpty, "requested: \(state.forbiddenRequests)")

        let stored = try pages(folder, run: try #require(outcome.run))
        let audited = stored.filter { $0.error == nil && $0.title != nil }
        #expect(Set(audited.map { URLComponents(string: $0.url)!.path }) == Set(site.pages))
        #expect(audited.allSatisfy { $0.title?.hasPrefix("Orders") == true }, "\(audited.map(\.title))")
        #expect(!stored.contains { $0.url.contains("/sign-in") || $0.url.contains("/session") }, "the sign-in page is never a page of the crawl")
        // The session went with the stylesheet and the frame too: they loaded.
        #expect(summary.stylesheets.requested == 1 && summary.stylesheets.failed == 0 && summary.stylesheets.missing == 0)
        #expect(state.frameRequests == [true], "the frame, once per crawl, signed in")
        #expect(summary.skippedByScope["avoided-link"] == 4 && summary.skippedByScope["sign-in-page"] == 1)
        #expect(outcome.messages.contains { $0.description.contains("signed in: 1 time") })
    }

    @Test("a session that expires after a few pages is renewed once and the crawl goes on")
    func sessionExpires() throws {
        let site = try SignInSite(pages: 10, sessionPages: 4)
        let folder = try ReportTestFolder("signin-expiry")
        let yaml = Self.configuration(site).replacingOccurrences(of: "concurrency: 4, per-host: 4", with: "concurrency: 1, per-host: 1")
        let outcome = try crawl(site, in: folder, yaml: yaml)
        let summary = try #require(outcome.summary)
        #expect(outcome.exitStatus != .couldNotAudit, "\(outcome.messages.map(\.description))")
        // Each session lasts 4 pages, the one the sign-in lands on included: 3 crawled pages each.
        #expect(summary.signIns == 4 && summary.sessionLosses == 3, "\(summary.signIns) sign-ins, \(summary.sessionLosses) losses")
        #expect(summary.pagesAudited == 10 && summary.pagesSignInLost == 0)
        let stored = try pages(folder, run: try #require(outcome.run))
        #expect(stored.allSatisfy { $0.title?.hasPrefix("Orders") == true && $0.error == nil }, "\(stored.map { ($0.url, $0.title, $0.error) })")
        #expect(site.snapshot.forbiddenRequests.isEmpty)
        #expect(try RunStore(path: folder.file("canopy.sqlite"), readOnly: true).runs().last?.status == .complete)
    }

    @Test("when signing in again is refused, the crawl stops with exit 3 and the sign-in page is not audited")
    func signInAgainRefused() throws {
        let site = try SignInSite(pages: 10, sessionPages: 3, acceptedSignIns: 1)
        let folder = try ReportTestFolder("signin-refused")
        let yaml = Self.configuration(site).replacingOccurrences(of: "concurrency: 4, per-host: 4", with: "concurrency: 1, per-host: 1")
        let outcome = try crawl(site, in: folder, yaml: yaml)
        #expect(outcome.exitStatus == .couldNotAudit)
        let problem = try #require(outcome.messages.compactMap(\.problem).first)
        #expect(problem.exitStatus == .couldNotAudit)
        #expect(problem.message.contains("the session was lost at \(site.url("/orders/"))"), "\(problem.message)")
        #expect(problem.message.contains("and signing in again failed: the sign-in form was shown again"), "\(problem.message)")
        let summary = try #require(outcome.summary)
        #expect(summary.signIns == 1 && summary.sessionLosses == 1 && summary.pagesSignInLost >= 1)
        #expect(site.snapshot.signInPosts == 2, "one sign-in again, not one per page")

        let run = try #require(outcome.run)
        let stored = try pages(folder, run: run)
        let lost = stored.filter { $0.error?.hasPrefix("sign-in lost: the session was lost at") == true }
        // Pages already fetched when it stopped were signed out too: recorded the same way.
        #expect(lost.count == summary.pagesSignInLost && lost.allSatisfy { $0.title == nil })
        #expect(!stored.contains { $0.title == "Sign in" }, "the sign-in page is never audited as content")
        // A session lasts the page the sign-in lands on, "/" and /orders/1; every page after
        // those is either recorded as lost or, when the stop caught it in flight, not at all.
        #expect(stored.filter { $0.error == nil }.map { URLComponents(string: $0.url)!.path }.sorted() == ["/", "/orders/1"])
        #expect(stored.count == 2 + lost.count)
        #expect(try RunStore(path: folder.file("canopy.sqlite"), readOnly: true).runs().first { $0.id == run }?.status == .interrupted)
    }

    @Test("a site that ends the session on every page is not signed into again and again")
    func lossLoop() throws {
        // Two pages a session, one of them the page the sign-in lands on: after the first, each
        // session serves only the page that was fetched again.
        let site = try SignInSite(pages: 30, sessionPages: 2)
        let folder = try ReportTestFolder("signin-loop")
        let outcome = try crawl(site, in: folder)
        #expect(outcome.exitStatus == .couldNotAudit)
        let summary = try #require(outcome.summary)
        // Which guard stops it depends on which of the pages fetched at once is answered first.
        let failure = try #require(summary.signInFailure)
        #expect(failure.contains("ended the session") || failure.contains("still signed out after signing in again"), "\(failure)")
        #expect(site.snapshot.goodSignIns <= 5, "signed in \(site.snapshot.goodSignIns) times")
    }

    @Test("the first sign-in failing stops the crawl before any page, with exit 3")
    func firstSignInFails() throws {
        let site = try SignInSite(acceptedSignIns: 0)
        let folder = try ReportTestFolder("signin-first")
        let outcome = try crawl(site, in: folder)
        #expect(outcome.exitStatus == .couldNotAudit)
        let problem = try #require(outcome.messages.compactMap(\.problem).first)
        #expect(problem.message.contains("signing in at \(site.url("/sign-in")) failed: the sign-in form was shown again"), "\(problem.message)")
        #expect(site.server.requests.allSatisfy { $0.path.hasPrefix("/sign-in") || $0.path == "/session" }, "no page was requested")
    }

    @Test("a success check that does not hold fails the sign-in and says which")
    func successChecks() throws {
        let site = try SignInSite(pages: 2)
        for (success, expected) in [
            ("{cookie: auth_token}", "no cookie named auth_token was set by the sign-in"),
            ("{url: /dashboard}", "which does not match /dashboard"),
            ("{selector: \"#account-menu\"}", "nothing matches #account-menu on the page the sign-in ended at"),
        ] {
            let folder = try ReportTestFolder("signin-success")
            let outcome = try crawl(site, in: folder, yaml: Self.configuration(site, success: success))
            #expect(outcome.exitStatus == .couldNotAudit)
            #expect(outcome.messages.compactMap(\.problem).first?.message.contains(expected) == true, "\(outcome.messages.map(\.description))")
        }
        let folder = try ReportTestFolder("signin-success-ok")
        let outcome = try crawl(site, in: folder, yaml: Self.configuration(site, success: "{selector: \"main h1\"}"))
        #expect(outcome.summary?.signIns == 1 && outcome.summary?.pagesAudited == 2)
    }

    @Test("canopy crawl exits 3 and says why when the session is lost and signing in again fails, with no secret in its output")
    func commandLine() throws {
        let site = try SignInSite(pages: 10, sessionPages: 3, acceptedSignIns: 1)
        let folder = try ReportTestFolder("signin-cli")
        let file = folder.file("canopy.yml")
        try Self.configuration(site).replacingOccurrences(of: "concurrency: 4, per-host: 4", with: "concurrency: 1, per-host: 1")
            .write(toFile: file, atomically: true, encoding: .utf8)
        let ending = try CanopyProcess.run(
            ["crawl", "--config", file, "--reports", folder.file("Reports"), "--store", folder.file("canopy.sqlite"), "--verbose"],
            environment: Self.environment
        )
        #expect(!ending.killedBySignal && ending.status == 3, "\(ending.description)")
        #expect(ending.stderr.contains("error: the crawl stopped: the session was lost at \(site.url("/orders/"))"), "\(ending.stderr)")
        #expect(ending.stderr.contains("and signing in again failed: the sign-in form was shown again"))
        for secret in site.snapshot.sessionValues + [SignInSite.password, SignInFormEncoding.encoded(SignInSite.password)] {
            #expect(!ending.stdout.contains(secret) && !ending.stderr.contains(secret))
        }
    }

    @Test("canopy gate signs in through the same plan, with the sign-in page rewritten to staging like the pages")
    func gate() throws {
        let site = try SignInSite(pages: 4)
        let folder = try ReportTestFolder("signin-gate")
        let file = folder.file("canopy.yml")
        let yaml = Self.configuration(site)
            .replacingOccurrences(of: "url: \(site.url("/sign-in"))", with: "url: https://www.shop.example/sign-in")
            .replacingOccurrences(of: "start: \(site.url("/"))", with: "start: https://www.shop.example/")
        try yaml.write(toFile: file, atomically: true, encoding: .utf8)
        var options = DeployGate.Options()
        options.configPath = file
        options.environment = Self.environment
        options.urls = ["https://www.shop.example/orders/1", "https://www.shop.example/orders/2"]
        options.rewrites = ["https://www.shop.example=\(site.server.baseURL)"]
        let outcome = DeployGate().run(options)
        #expect(outcome.exitStatus != .couldNotAudit && outcome.exitStatus != .usageError, "\(outcome.messages.map(\.description))")
        let pages = try #require(outcome.report?.pages)
        #expect(pages.count == 2 && pages.allSatisfy(\.audited))
        #expect(site.snapshot.goodSignIns == 1 && site.snapshot.forbiddenRequests.isEmpty)

        let refused = try SignInSite(acceptedSignIns: 0)
        try Self.configuration(refused).write(toFile: file, atomically: true, encoding: .utf8)
        options.urls = [refused.url("/orders/1")]
        options.rewrites = []
        let failed = DeployGate().run(options)
        #expect(failed.exitStatus == .couldNotAudit)
        #expect(failed.messages.contains { $0.description.contains("the gate stopped: signing in at \(refused.url("/sign-in")) failed") })
    }

    @Test("no secret reaches the store, the reports, results.jsonl, run-summary.json or the log")
    func secretsStayOut() throws {
        let site = try SignInSite(pages: 8, sessionPages: 5, acceptedSignIns: 2)
        let folder = try ReportTestFolder("signin-secrets")
        let log = LockedState("")
        let yaml = Self.configuration(site).replacingOccurrences(of: "concurrency: 4, per-host: 4", with: "concurrency: 1, per-host: 1")
        let outcome = try crawl(site, in: folder, yaml: yaml, log: log)
        #expect(outcome.summary?.signIns == 2, "the crawl signed in again: both sessions were in use")
        let sessions = site.snapshot.sessionValues
        #expect(sessions.count == 2)
        let secrets = sessions + [SignInSite.password, SignInFormEncoding.encoded(SignInSite.password)]
        var texts = outcome.messages.map(\.description) + [log.withLock { $0 }]
        let configuration = try CrawlConfiguration.load(contentsOf: folder.file("canopy.yml"), environment: Self.environment)
        texts.append(String(decoding: try JSONEncoder().encode(configuration), as: UTF8.self))
        texts.append(String(describing: configuration))
        let files = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0 != "canopy.yml" }
        #expect(files.contains("canopy.sqlite") && files.contains("Reports/results.jsonl") && files.contains("Reports/index.html"))
        for file in files {
            let path = folder.file(file)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            for secret in secrets {
                #expect(bytes.range(of: Data(secret.utf8)) == nil, "\(file) holds a secret")
            }
        }
        for text in texts {
            for secret in secrets { #expect(!text.contains(secret)) }
        }
        #expect(!log.withLock { $0 }.isEmpty, "the log was captured")
    }
}

/// How the password travels in the form body, so the test also looks for that spelling.
enum SignInFormEncoding {
    static func encoded(_ text: String) -> String {
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789*-._")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}
