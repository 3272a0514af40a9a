import CanopyHTML

/// The sign-in form found on a page, and the request a browser would send when it is
/// submitted: every control's current value (hidden CSRF tokens included) with the configured
/// fields typed in, encoded as the form's `enctype` says, to its `action`.
struct SignInForm {
    enum Encoding: Equatable {
        case urlEncoded
        case multipart(boundary: String)
    }

    /// Where the form posts to.
    let action: CrawlURL
    /// Name/value pairs in tree order, as the form would send them.
    let entries: [(name: String, value: String)]
    let encoding: Encoding
    /// Whether the form has a password field, so the crawl knows what to look for in pages.
    let hasPassword: Bool

    /// Finds the form (`selector`, or the one form with a password field) in `document` and
    /// fills in `fields`. The errors name the form and fields, never a value.
    init(document: Document, pageURL: CrawlURL, selector: SelectorList?, fields: [SignInPlan.Field], normalizer: URLNormalizer)
        throws(SignInFailure)
    {
        let form = try Self.find(in: document, selector: selector)
        let method = form.attribute("method")?.lowercased() ?? "get"
        guard method == "post" else {
            // A GET form would carry the password in its URL, and URLs end up in logs and reports.
            throw .form("the sign-in form submits with method \(method.uppercased()), which would put the password in a URL; Canopy only submits forms that use POST")
        }
        let base = document.elements(named: "base").first { $0.isHTML && $0.hasAttribute("href") }
            .flatMap { try? normalizer.resolve($0.attribute("href")!, against: pageURL) } ?? pageURL
        let actionText = form.attribute("action").map { ASCII.trimmed(Substring($0)) } ?? ""
        do {
            action = actionText.isEmpty ? pageURL : try normalizer.resolve(String(actionText), against: base)
        } catch {
            throw .form("the sign-in form's action \"\(actionText)\" is not an http(s) URL: \(error.description)")
        }
        switch form.attribute("enctype")?.lowercased() {
        case "multipart/form-data"?: encoding = .multipart(boundary: "CanopyFormBoundary\(UInt64.random(in: 1...UInt64.max))")
        default: encoding = .urlEncoded
        }
        let controls = Self.controls(of: form, in: document)
        hasPassword = controls.contains { $0.localName == "input" && $0.attribute("type")?.lowercased() == "password" }
        var entries = Self.successfulEntries(controls)
        for field in fields {
            if let index = entries.firstIndex(where: { $0.name == field.name }) {
                entries[index].value = field.value
            } else if controls.contains(where: { $0.attribute("name") == field.name }) {
                entries.append((field.name, field.value))  // e.g. an unchecked "remember me" box
            } else {
                let names = Array(Set(controls.compactMap { $0.attribute("name") })).sorted()
                throw .form("the sign-in form has no field named \"\(field.name)\"; its fields are: \(names.isEmpty ? "none" : names.joined(separator: ", "))")
            }
        }
        self.entries = entries
    }

    /// Whether `document` shows this sign-in form again: a form matching `selector`, or
    /// (without one) a form with a password field that posts where this one does. Matching
    /// the action keeps a "change your password" form on an account page from counting.
    static func isShown(in document: Document, pageURL: CrawlURL, selector: SelectorList?, action: CrawlURL?, normalizer: URLNormalizer) -> Bool {
        if let selector { return document.elements(named: "form").contains { $0.matches(selector) } }
        return document.elements(named: "form").contains { form in
            guard form.isHTML, controls(of: form, in: document).contains(where: isPasswordInput) else { return false }
            guard let action else { return true }
            let text = form.attribute("action").map { String(ASCII.trimmed(Substring($0))) } ?? ""
            let target = text.isEmpty ? pageURL : (try? normalizer.resolve(text, against: pageURL))
            return target.map { $0.origin == action.origin && $0.path == action.path } ?? false
        }
    }

    /// The request body and its Content-Type.
    var body: (bytes: [UInt8], contentType: String) {
        switch encoding {
        case .urlEncoded:
            let text = entries.map { Self.formEncoded($0.name) + "=" + Self.formEncoded($0.value) }.joined(separator: "&")
            return (Array(text.utf8), "application/x-www-form-urlencoded")
        case .multipart(let boundary):
            var bytes: [UInt8] = []
            for entry in entries {
                let name = entry.name.replacingOccurrences(of: "\"", with: "%22")
                bytes += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(entry.value)\r\n".utf8)
            }
            bytes += Array("--\(boundary)--\r\n".utf8)
            return (bytes, "multipart/form-data; boundary=\(boundary)")
        }
    }

    // MARK: - Finding the form

    private static func find(in document: Document, selector: SelectorList?) throws(SignInFailure) -> Element {
        let forms = document.elements(named: "form").filter(\.isHTML)
        if let selector {
            let matching = forms.filter { $0.matches(selector) }
            guard let form = matching.first else {
                let anyMatch = document.querySelector(selector) != nil
                throw .form(anyMatch
                    ? "\"\(selector.text)\" matches an element of the sign-in page, but not a form"
                    : "no form on the sign-in page matches \"\(selector.text)\"")
            }
            guard matching.count == 1 else {
                throw .form("\(matching.count) forms on the sign-in page match \"\(selector.text)\"; make auth.login.form match one")
            }
            return form
        }
        let withPassword = forms.filter { form in controls(of: form, in: document).contains(where: isPasswordInput) }
        guard let form = withPassword.first else {
            throw .form("the sign-in page has no form with a password field; name the form with auth.login.form")
        }
        guard withPassword.count == 1 else {
            throw .form("the sign-in page has \(withPassword.count) forms with a password field; choose one with auth.login.form")
        }
        return form
    }

    private static func isPasswordInput(_ element: Element) -> Bool {
        element.localName == "input" && element.attribute("type")?.lowercased() == "password"
    }

    /// The form's controls in tree order: its descendants, and elements elsewhere that name it
    /// with a `form` attribute.
    private static func controls(of form: Element, in document: Document) -> [Element] {
        let names: Set<String> = ["input", "select", "textarea", "button"]
        let id = form.id
        return document.elements.filter { element in
            guard element.isHTML, names.contains(element.localName) else { return false }
            if let owner = element.attribute("form") { return owner == id }
            return element.isDescendant(of: form)
        }
    }

    /// What the form would send as it stands (HTML's "constructing the entry list"), with the
    /// first submit button as the submitter.
    private static func successfulEntries(_ controls: [Element]) -> [(name: String, value: String)] {
        var entries: [(name: String, value: String)] = []
        var submitterTaken = false
        for control in controls {
            guard !control.hasAttribute("disabled"), !control.ancestors.contains(where: { $0.localName == "fieldset" && $0.hasAttribute("disabled") })
            else { continue }
            let name = control.attribute("name") ?? ""
            let type = control.attribute("type")?.lowercased()
            switch control.localName {
            case "input":
                switch type ?? "text" {
                case "submit", "image":
                    guard !submitterTaken else { continue }
                    submitterTaken = true
                    guard !name.isEmpty else { continue }
                    if type == "image" {
                        entries += [(name + ".x", "0"), (name + ".y", "0")]
                    } else {
                        entries.append((name, control.attribute("value") ?? "Submit"))
                    }
                case "button", "reset", "file":
                    continue
                case "checkbox", "radio":
                    guard !name.isEmpty, control.hasAttribute("checked") else { continue }
                    entries.append((name, control.attribute("value") ?? "on"))
                default:
                    guard !name.isEmpty else { continue }
                    entries.append((name, control.attribute("value") ?? ""))
                }
            case "button":
                guard type == nil || type == "submit", !submitterTaken else { continue }
                submitterTaken = true
                if !name.isEmpty { entries.append((name, control.attribute("value") ?? "")) }
            case "select":
                guard !name.isEmpty else { continue }
                let options = control.descendants.filter { $0.localName == "option" && !$0.hasAttribute("disabled") }
                let selected = options.filter { $0.hasAttribute("selected") }
                let chosen = control.hasAttribute("multiple") ? selected : [selected.last ?? options.first].compactMap { $0 }
                for option in chosen { entries.append((name, option.attribute("value") ?? option.textContent)) }
            default:  // textarea
                guard !name.isEmpty else { continue }
                entries.append((name, control.textContent))
            }
        }
        return entries
    }

    /// application/x-www-form-urlencoded: unreserved bytes kept, space as "+", the rest %XX.
    static func formEncoded(_ text: String) -> String {
        var output = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "*"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                output.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                output += "+"
            default:
                output += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return output
    }
}

private extension String {
    func leftPadded(to length: Int) -> String { count >= length ? self : String(repeating: "0", count: length - count) + self }
}
