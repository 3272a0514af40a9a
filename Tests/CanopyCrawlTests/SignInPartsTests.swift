import CanopyHTML
import Foundation
import Testing

@testable import CanopyCrawl

/// The parts of a form sign-in on their own: the cookie jar's host restriction and RFC 6265
/// rules, and the form a browser would submit.
@Suite("Sign-in parts")
struct SignInPartsTests {
    static func url(_ text: String) -> CrawlURL { try! CrawlURL(text) }

    static func jar(hosts: Set<String> = ["shop.test", "www.shop.test"], now: Date = Date()) -> CookieJar {
        CookieJar(now: { now }) { hosts.contains($0.host) }
    }

    @Test("cookies go back only to the hosts the credentials may go to, whatever their Domain")
    func hostRestriction() {
        let jar = Self.jar()
        jar.store(setCookieHeaders: ["session=abc; Path=/; Domain=shop.test; HttpOnly"], from: Self.url("https://shop.test/in"))
        jar.store(setCookieHeaders: ["tracker=1; Path=/"], from: Self.url("https://ads.test/"))
        #expect(jar.cookieHeader(for: Self.url("https://shop.test/orders")) == "session=abc")
        #expect(jar.cookieHeader(for: Self.url("https://www.shop.test/orders")) == "session=abc", "a domain cookie reaches a listed sub-host")
        #expect(jar.cookieHeader(for: Self.url("https://cdn.shop.test/a.css")) == nil, "but never a host not listed")
        #expect(jar.cookieHeader(for: Self.url("https://ads.test/")) == nil, "a cookie from another host is not taken")
        // A site cannot set a cookie for a domain it is not part of.
        jar.store(setCookieHeaders: ["evil=1; Domain=other.test"], from: Self.url("https://shop.test/"))
        #expect(jar.cookieHeader(for: Self.url("https://shop.test/")) == "session=abc")
    }

    @Test("host-only cookies, paths, Secure and expiry behave as RFC 6265 says")
    func rules() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let jar = Self.jar(now: now)
        let from = Self.url("https://shop.test/account/sign-in")
        jar.store(setCookieHeaders: [
            "host=1",  // host-only, default path /account
            "root=2; Path=/",
            "secure=3; Path=/; Secure",
            "old=4; Path=/; Expires=Thu, 01 Jan 2015 00:00:00 GMT",
            "gone=5; Path=/; Max-Age=0",
            "quoted=\"6\"; Path=/",
        ], from: from)
        #expect(jar.cookieHeader(for: Self.url("https://shop.test/account/orders")) == "host=1; root=2; secure=3; quoted=6")
        #expect(jar.cookieHeader(for: Self.url("https://shop.test/accounting")) == "root=2; secure=3; quoted=6", "/account does not match /accounting")
        #expect(jar.cookieHeader(for: Self.url("http://shop.test/")) == "root=2; quoted=6", "Secure cookies only over https")
        #expect(jar.cookieHeader(for: Self.url("https://www.shop.test/account/x")) == nil, "host-only cookies stay on their host")
        // The site ends the session: the cookie goes.
        jar.store(setCookieHeaders: ["root=; Path=/; Max-Age=0"], from: from)
        #expect(jar.hasCookie(named: "secure", for: Self.url("https://shop.test/")))
        #expect(!jar.hasCookie(named: "root", for: Self.url("https://shop.test/")))
        jar.clear()
        #expect(jar.cookieHeader(for: Self.url("https://shop.test/account/")) == nil)
    }

    static let page = """
        <!doctype html><html><head><base href="https://shop.test/app/"></head><body>
        <form action=/search><input name=q value=shoes></form>
        <form id=login method=POST action="session?step=1">
          <input type=hidden name=authenticity_token value="t0k&n">
          <input name=user[email] value=prefilled>
          <input type=password name=user[password]>
          <input type=checkbox name=remember checked>
          <input type=checkbox name=newsletter value=yes>
          <input name=disabled disabled value=x>
          <select name=locale><option value=en>English<option value=fr selected>Français</select>
          <textarea name=note>hi there</textarea>
          <input type=submit name=commit value="Sign in"><input type=submit name=other value=no>
        </form>
        <input form=login type=hidden name=outside value=1>
        </body></html>
        """

    @Test("the form carries its hidden fields and defaults, with the configured fields typed in")
    func formEntries() throws {
        let document = HTMLParser().parse(html: Self.page, url: "https://shop.test/sign-in")
        let form = try SignInForm(
            document: document, pageURL: Self.url("https://shop.test/sign-in"), selector: nil,
            fields: [.init(name: "user[email]", value: "qa@shop.test"), .init(name: "user[password]", value: "p w&d"), .init(name: "newsletter", value: "no")],
            normalizer: URLNormalizer()
        )
        #expect(form.action.string == "https://shop.test/app/session?step=1", "resolved against <base href>")
        #expect(form.hasPassword)
        #expect(form.entries.map { "\($0.name)=\($0.value)" } == [
            "authenticity_token=t0k&n", "user[email]=qa@shop.test", "user[password]=p w&d", "remember=on", "locale=fr", "note=hi there",
            "commit=Sign in", "outside=1", "newsletter=no",
        ])
        let body = String(decoding: form.body.bytes, as: UTF8.self)
        #expect(body.hasPrefix("authenticity_token=t0k%26n&user%5Bemail%5D=qa%40shop.test&user%5Bpassword%5D=p+w%26d&remember=on"))
        #expect(form.body.contentType == "application/x-www-form-urlencoded")
    }

    @Test("a missing, ambiguous, GET or misnamed form is an error that says so", arguments: [
        ("<form method=post><input name=a></form>", nil, ["a": "x"], "no form with a password field"),
        ("<form method=post><input type=password name=p></form><form method=post><input type=password name=q></form>", nil, ["p": "x"],
         "2 forms with a password field"),
        ("<form><input type=password name=p></form>", nil, ["p": "x"], "submits with method GET"),
        ("<form method=post><input type=password name=p></form>", nil, ["pasword": "x"], "no field named \"pasword\"; its fields are: p"),
        ("<div id=login></div>", "#login", ["p": "x"], "matches an element of the sign-in page, but not a form"),
        ("<form method=post></form>", "#login", ["p": "x"], "no form on the sign-in page matches \"#login\""),
    ] as [(String, String?, [String: String], String)])
    func formErrors(html: String, selector: String?, fields: [String: String], message: String) throws {
        let document = HTMLParser().parse(html: html, url: "https://shop.test/in")
        do {
            _ = try SignInForm(
                document: document, pageURL: Self.url("https://shop.test/in"), selector: try selector.map { try SelectorList($0) },
                fields: fields.map { .init(name: $0.key, value: $0.value) }, normalizer: URLNormalizer()
            )
            Issue.record("no error")
        } catch {
            let text = "\(error)"
            #expect(text.contains(message), "\(text)")
            #expect(!text.contains("\"x\""))
        }
    }

    @Test("a page shows the sign-in form when a form with a password field posts where it did")
    func formShown() throws {
        let action = Self.url("https://shop.test/session")
        func shown(_ html: String) -> Bool {
            SignInForm.isShown(
                in: HTMLParser().parse(html: html, url: "https://shop.test/x"), pageURL: Self.url("https://shop.test/x"), selector: nil,
                action: action, normalizer: URLNormalizer()
            )
        }
        #expect(shown("<form method=post action=/session?next=/x><input type=password name=p></form>"))
        #expect(!shown("<form method=post action=/account/password><input type=password name=p></form>"), "a change-password form is not it")
        #expect(!shown("<form action=/session><input name=q></form>"))
        #expect(Array("<INPUT TYPE=PassWord>".utf8).containsASCIICaseInsensitive("password"))
        #expect(!Array("<input type=text>".utf8).containsASCIICaseInsensitive("password"))
    }
}
