import CanopyHTML

/// How a crawl signs in through a site's own form (`auth.login` in canopy.yml): where the form
/// is, what to type into it, and how to tell that it worked.
public struct SignInPlan: Sendable {
    /// How Canopy tells that the sign-in worked.
    public enum Success: Sendable, CustomStringConvertible {
        /// The site set a cookie of this name (a session cookie).
        case cookie(String)
        /// The sign-in ended on a URL matching this pattern.
        case url(URLPattern)
        /// The page the sign-in ended on has an element matching this selector.
        case selector(SelectorList)
        /// Nothing configured: the sign-in ended on a 2xx page that does not show the form again.
        case formGone

        public var description: String {
            switch self {
            case .cookie(let name): "a cookie named \(name)"
            case .url(let pattern): "a URL matching \(pattern.text)"
            case .selector(let selector): "an element matching \(selector.text)"
            case .formGone: "a page without the sign-in form"
            }
        }
    }

    /// A field typed into the form. Its value is a secret: it is only ever written into the
    /// form's request body, and `description` never shows it.
    public struct Field: Sendable, CustomStringConvertible, CustomReflectable {
        public var name: String
        public let value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }

        public var description: String { "\(name)=••••" }
        public var customMirror: Mirror { Mirror(self, children: ["name": name], displayStyle: .struct) }
    }

    /// The page with the form.
    public var url: CrawlURL
    /// Which form; nil means the one form of the page with a password field.
    public var form: SelectorList?
    public var fields: [Field]
    public var success: Success
    /// Sign-ins again in a row before the crawl gives up, where a session that serves two
    /// pages or more breaks the row: a site that drops the session on every page is not signed
    /// into thousands of times.
    public var maxLossesInARow = 3

    public init(url: CrawlURL, form: SelectorList? = nil, fields: [Field], success: Success = .formGone) {
        self.url = url
        self.form = form
        self.fields = fields
        self.success = success
    }
}

/// Link patterns a signed-in crawl never requests (`auth.avoid`): following a sign-out link
/// ends the session, and a "delete" link fetched as a signed-in user may delete something.
public enum AvoidedLinks {
    /// Path and query words of sign-out and destructive links, matched after the host (a
    /// host named remove.example must not match) and after a separator, so "/undelete" and
    /// "/blog/removal-tips" are not taken for them, while "/account/delete-address",
    /// "/logout", "/user_sign-out" and "?action=destroy" are.
    public static let defaultPatterns: [URLPattern] = [
        #"re:(?i)^[a-z]+://[^/]+/(.*[/?&=._-])?(log|sign)[-_]?(out|off)"#,
        #"re:(?i)^[a-z]+://[^/]+/(.*[/?&=._-])?(delete|destroy|remove)"#,
    ].map { try! URLPattern($0) }
}
