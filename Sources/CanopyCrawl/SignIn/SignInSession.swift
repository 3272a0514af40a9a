import CanopyHTML
import Foundation

/// Why signing in did not work, in words fit for a log: it names pages, forms, fields and
/// cookies, never a value typed into the form or a cookie's value.
public struct SignInFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    static func form(_ message: String) -> SignInFailure { SignInFailure(message) }

    public var description: String { message }
}

/// A crawl's signed-in session: signs in through the site's form, holds the session's cookies
/// for the crawl's credential hosts, tells a signed-out page from a signed-in one, and signs in
/// again (once for all the pages that noticed at the same time) when the session is lost.
///
/// It fetches with the crawl's own `Fetcher` and request settings (timeouts, user agent, body
/// limit, credential headers), one hop at a time so every hop is checked against the hosts the
/// credentials may go to. Thread-safe: the crawl's workers share it.
public final class SignInSession: @unchecked Sendable {
    // @unchecked: the mutable state is only touched under `state`; `signingIn` serializes
    // sign-ins, which take seconds, without blocking readers of the state.
    /// What a page showed that says the session is gone.
    public enum LossSign: Sendable, Equatable, CustomStringConvertible {
        case redirectedToSignIn
        case formShown
        case status(Int)

        public var description: String {
            switch self {
            case .redirectedToSignIn: "it redirected to the sign-in page"
            case .formShown: "it showed the sign-in form"
            case .status(let code): "it answered HTTP \(code)"
            }
        }
    }

    /// What a page that found the session lost should do next.
    public enum Recovery: Sendable, Equatable {
        /// Fetch it again: the session was renewed (by this call or by another page's).
        case refetch
        /// Give up: signing in again failed, or the site keeps dropping the session.
        case giveUp(String)
    }

    public struct Statistics: Sendable, Equatable {
        /// Successful sign-ins, the first one included.
        public var signIns = 0
        /// Times the session was found lost (pages that noticed the same loss count once).
        public var sessionLosses = 0
    }

    /// How the error of a page that showed the sign-in page, and could not be fetched signed in
    /// again, begins: "sign-in lost: the session was lost at … and …".
    public static let lostPageError = "sign-in lost"

    public let plan: SignInPlan
    public let jar: CookieJar
    private let crawl: CrawlPlan
    private let fetcher: Fetcher
    private let parser = HTMLParser()

    private let signingIn = NSLock()
    private let state = NSLock()
    /// Counts successful sign-ins: a page fetched with an older session that finds itself
    /// signed out only needs fetching again.
    private var generation = 0
    /// The newest session a page was seen signed in with: a page lost again after a new
    /// sign-in, with no page ever signed in by that sign-in, means the sign-in does not work.
    private var confirmedGeneration = 0
    /// Losses since a session last served more than the one page that was fetched again when
    /// it began: a site that drops the session on every page never gets there.
    private var lossesInARow = 0
    /// Pages seen signed in with the current session.
    private var pagesThisSession = 0
    private var failure: String?
    private var statistics = Statistics()
    /// Where the form posted, the last time: never crawled, and how the form is recognised.
    private var formAction: CrawlURL?
    /// Whether the form had a password field: what a page's bytes are searched for before it
    /// is parsed to look for the form.
    private var formHasPassword = true

    /// Nil when the crawl has no sign-in.
    public init?(crawl: CrawlPlan, fetcher: Fetcher = Fetcher()) {
        guard let plan = crawl.signIn else { return nil }
        self.plan = plan
        self.crawl = crawl
        self.fetcher = fetcher
        self.jar = CookieJar { [crawl] url in crawl.mayReceiveCredentials(url) }
    }

    public var currentStatistics: Statistics { state.withLock { statistics } }

    // MARK: - Requests

    /// Adds the session's cookies to a request for `url` (merged into its Cookie header, if it
    /// has one), and says which session it went with.
    @discardableResult
    public func authorize(_ request: inout FetchRequest, for url: CrawlURL) -> Int {
        let session = state.withLock { generation }
        guard let cookies = jar.cookieHeader(for: url) else { return session }
        if let index = request.headers.firstIndex(where: { $0.hasName("Cookie") }) {
            request.headers[index].value += "; " + cookies
        } else {
            request.headers.append(HTTPHeader("Cookie", cookies))
        }
        return session
    }

    /// Takes the cookies a page's response sets (a session that is renewed or ended).
    public func receive(_ response: FetchResponse, from url: CrawlURL) {
        jar.store(response, from: url)
    }

    /// The sign-in page and the URL its form posts to: never crawled as pages.
    public func isSignInEndpoint(_ url: CrawlURL) -> Bool {
        Self.samePage(url, plan.url) || state.withLock { formAction }.map { Self.samePage(url, $0) } == true
    }

    // MARK: - Signing in

    /// The first sign-in, before the crawl starts.
    public func signIn() throws(SignInFailure) {
        signingIn.lock()
        defer { signingIn.unlock() }
        try performSignIn()
    }

    /// Called by a page that found the session lost; `session` is what `authorize` returned
    /// for its request, `afterLoss` whether it was already fetched again after a loss. Signs in
    /// again unless another page already did since that request.
    public func recover(lostWith session: Int, afterLoss: Bool) -> Recovery {
        signingIn.lock()
        defer { signingIn.unlock() }
        let known: Recovery? = state.withLock {
            if let failure { return .giveUp(failure) }
            if generation > session { return .refetch }
            if afterLoss, confirmedGeneration < session {
                failure = "the page was still signed out after signing in again"
                return .giveUp(failure!)
            }
            statistics.sessionLosses += 1
            lossesInARow += 1
            guard lossesInARow <= plan.maxLossesInARow else {
                failure = "the site ended the session \(lossesInARow) times in a row with no page in between that stayed signed in "
                    + "(is a sign-out link followed? see auth.avoid)"
                return .giveUp(failure!)
            }
            return nil
        }
        if let known { return known }
        do throws(SignInFailure) {
            try performSignIn()
            return .refetch
        } catch {
            let reason = "signing in again failed: \(error.message)"
            state.withLock { failure = reason }
            return .giveUp(reason)
        }
    }

    /// A page came back signed in with `session`: that sign-in worked, and once a session has
    /// served two pages, earlier losses no longer count as "in a row".
    public func noteSignedInPage(session: Int) {
        state.withLock {
            confirmedGeneration = max(confirmedGeneration, session)
            guard session == generation else { return }
            pagesThisSession += 1
            if pagesThisSession >= 2 { lossesInARow = 0 }
        }
    }

    /// Why the session cannot be recovered any more, once that is so.
    public var givenUp: String? { state.withLock { failure } }

    /// GETs the sign-in page, fills in and posts its form, follows the redirects and checks
    /// that the sign-in worked. Called with `signingIn` held.
    private func performSignIn() throws(SignInFailure) {
        // A fresh start, as a new browser would make: a stale session cookie could make the
        // sign-in page redirect away instead of showing its form.
        jar.clear()
        let (page, pageURL) = try exchange(plan.url, form: nil)
        guard (200..<300).contains(page.status) else {
            throw SignInFailure("the sign-in page \(plan.url) answered HTTP \(page.status)")
        }
        guard ContentTypes.isHTML(page.contentType, body: page.body) else {
            throw SignInFailure("the sign-in page \(pageURL) is not HTML (\(page.contentType ?? "no Content-Type"))")
        }
        let document = parser.parse(bytes: page.body, contentType: page.contentType, url: pageURL.string)
        let form = try SignInForm(document: document, pageURL: pageURL, selector: plan.form, fields: plan.fields, normalizer: crawl.normalizer)
        guard crawl.mayReceiveCredentials(form.action) else {
            throw SignInFailure("the sign-in form posts to \(form.action.host), a host the credentials may not go to (add it to auth.hosts)")
        }
        state.withLock {
            formAction = form.action
            formHasPassword = form.hasPassword
        }
        let (answer, landedOn) = try exchange(form.action, form: (form, pageURL))
        try checkSuccess(answer, at: landedOn)
        state.withLock {
            generation += 1
            pagesThisSession = 0
            statistics.signIns += 1
        }
    }

    private func checkSuccess(_ response: FetchResponse, at url: CrawlURL) throws(SignInFailure) {
        guard response.status < 400 else {
            throw SignInFailure("the site answered HTTP \(response.status) to the sign-in form (at \(url))")
        }
        let isHTML = ContentTypes.isHTML(response.contentType, body: response.body)
        let document = isHTML ? parser.parse(bytes: response.body, contentType: response.contentType, url: url.string) : nil
        if let document, showsForm(document, at: url) {
            throw SignInFailure("the sign-in form was shown again after it was submitted (at \(url)): check the credentials and auth.login.fields")
        }
        switch plan.success {
        case .cookie(let name):
            guard jar.hasCookie(named: name, for: url) || jar.hasCookie(named: name, for: plan.url) else {
                throw SignInFailure("no cookie named \(name) was set by the sign-in (it ended at \(url))")
            }
        case .url(let pattern):
            guard pattern.matches(url) else {
                throw SignInFailure("the sign-in ended at \(url), which does not match \(pattern.text)")
            }
        case .selector(let selector):
            guard let document, document.querySelector(selector) != nil else {
                throw SignInFailure("nothing matches \(selector.text) on the page the sign-in ended at (\(url))")
            }
        case .formGone:
            guard (200..<300).contains(response.status), document != nil else {
                throw SignInFailure("the sign-in ended at \(url) with HTTP \(response.status) rather than a page")
            }
        }
    }

    /// One request and the redirects after it, hop by hop: each hop only to a host the
    /// credentials may go to, with the jar's cookies, its own cookies kept. With `form`, the
    /// first request posts it; 307 and 308 post it again, other redirects turn into GETs.
    private func exchange(_ url: CrawlURL, form: (form: SignInForm, page: CrawlURL)?) throws(SignInFailure) -> (FetchResponse, CrawlURL) {
        var current = url
        var posting = form
        var hops = 0
        while true {
            guard crawl.mayReceiveCredentials(current) else {
                throw SignInFailure("the sign-in went to \(current.host), a host the credentials may not go to (add it to auth.hosts)")
            }
            var request = crawl.request(for: current)
            authorize(&request, for: current)
            if let posting {
                let body = posting.form.body
                request.postBody = body.bytes
                request.headers += [
                    HTTPHeader("Content-Type", body.contentType),
                    // Sent as a browser sends them: CSRF protections often compare them with the site.
                    HTTPHeader("Origin", posting.page.origin.description),
                    HTTPHeader("Referer", posting.page.string),
                ]
            }
            let response: FetchResponse
            do throws(FetchError) {
                response = try fetcher.fetch(request)
            } catch {
                throw SignInFailure("\(current): \(error.description)")
            }
            jar.store(response, from: current)
            guard (300..<400).contains(response.status), let location = response.header("Location") else {
                return (response, current)
            }
            hops += 1
            guard hops <= crawl.maxRedirects else { throw SignInFailure("more than \(crawl.maxRedirects) redirects after \(url)") }
            do throws(URLRejection) {
                current = try crawl.normalizer.resolve(location, against: current)
            } catch {
                throw SignInFailure("the sign-in redirected to \(location), which cannot be followed: \(error.description)")
            }
            if response.status != 307 && response.status != 308 { posting = nil }
        }
    }

    // MARK: - Noticing a lost session

    /// What in a page's response says the session is gone, or nil when it is still signed in
    /// (or the page is not on a host the session belongs to). `url` is the URL requested.
    public func lossSign(_ response: FetchResponse, at url: CrawlURL) -> LossSign? {
        guard crawl.mayReceiveCredentials(url) else { return nil }
        if isSignInEndpoint(url) { return .redirectedToSignIn }
        if (300..<400).contains(response.status) {
            guard let location = response.header("Location"), let target = try? crawl.normalizer.resolve(location, against: url) else { return nil }
            return Self.samePage(target, plan.url) ? .redirectedToSignIn : nil
        }
        if response.status == 401 || response.status == 403 { return .status(response.status) }
        guard (200..<300).contains(response.status), ContentTypes.isHTML(response.contentType, body: response.body) else { return nil }
        // Most pages cannot hold the form at all; only those that might are parsed.
        let marker: StaticString = state.withLock { formHasPassword } ? "password" : "<form"
        guard response.body.containsASCIICaseInsensitive(marker) else { return nil }
        let document = parser.parse(bytes: response.body, contentType: response.contentType, url: url.string)
        return showsForm(document, at: url) ? .formShown : nil
    }

    private func showsForm(_ document: Document, at url: CrawlURL) -> Bool {
        SignInForm.isShown(in: document, pageURL: url, selector: plan.form, action: state.withLock { formAction }, normalizer: crawl.normalizer)
    }

    /// Same origin and path: the sign-in page with any query (`?next=/orders`) is still it.
    static func samePage(_ lhs: CrawlURL, _ rhs: CrawlURL) -> Bool {
        lhs.origin == rhs.origin && lhs.path == rhs.path
    }
}
