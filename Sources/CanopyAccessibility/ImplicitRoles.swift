import CanopyHTML

/// Implicit ARIA roles of HTML elements (HTML-AAM / ARIA in HTML), for the cases static HTML decides.
public enum ImplicitRoles {
    public static func role(of element: Element) -> String? {
        guard element.isHTML else { return element.localName == "svg" ? "graphics-document" : nil }
        switch element.localName {
        case "a", "area": return element.hasAttribute("href") ? "link" : nil
        case "article": return "article"
        case "aside": return "complementary"
        case "blockquote": return "blockquote"
        case "button": return "button"
        case "caption": return "caption"
        case "code": return "code"
        case "datalist": return "listbox"
        case "del", "s": return "deletion"
        case "details": return "group"
        case "dfn": return "term"
        case "dialog": return "dialog"
        case "em": return "emphasis"
        case "fieldset", "optgroup": return "group"
        case "figure": return "figure"
        case "footer": return isScopedToSectioningContent(element) ? nil : "contentinfo"
        case "header": return isScopedToSectioningContent(element) ? nil : "banner"
        case "form": return "form"
        case "h1", "h2", "h3", "h4", "h5", "h6": return "heading"
        case "hr": return "separator"
        case "html": return "document"
        case "img":
            if element.attribute("alt") == "" { return "presentation" }
            return "img"
        case "input": return inputRole(element)
        case "ins": return "insertion"
        case "li": return "listitem"
        case "main": return "main"
        case "mark": return "mark"
        case "math": return "math"
        case "menu", "ol", "ul": return "list"
        case "meter": return "meter"
        case "nav": return "navigation"
        case "option": return "option"
        case "output": return "status"
        case "p": return "paragraph"
        case "progress": return "progressbar"
        case "search": return "search"
        case "section": return hasAuthorName(element) ? "region" : nil
        case "select":
            let multiple = element.hasAttribute("multiple")
            let size = element.attribute("size").flatMap { Int($0) } ?? 0
            return multiple || size > 1 ? "listbox" : "combobox"
        case "strong": return "strong"
        case "sub": return "subscript"
        case "sup": return "superscript"
        case "table": return "table"
        case "tbody", "thead", "tfoot": return "rowgroup"
        case "td": return "cell"
        case "th": return "columnheader"
        case "textarea": return "textbox"
        case "time": return "time"
        case "tr": return "row"
        default: return nil
        }
    }

    private static func inputRole(_ element: Element) -> String? {
        let hasList = element.hasAttribute("list")
        switch element.attribute("type")?.lowercased() ?? "text" {
        case "button", "image", "reset", "submit": return "button"
        case "checkbox": return "checkbox"
        case "radio": return "radio"
        case "range": return "slider"
        case "number": return "spinbutton"
        case "search": return hasList ? "combobox" : "searchbox"
        case "email", "tel", "text", "url": return hasList ? "combobox" : "textbox"
        case "hidden": return nil
        default: return hasList ? "combobox" : "textbox"
        }
    }

    /// `header` and `footer` are landmarks only when not inside sectioning content or `main`.
    private static func isScopedToSectioningContent(_ element: Element) -> Bool {
        element.ancestors.contains { ["article", "aside", "main", "nav", "section"].contains($0.localName) }
    }

    private static func hasAuthorName(_ element: Element) -> Bool {
        let label = element.attribute("aria-label")?.trimmingWhitespace() ?? ""
        let labelledBy = element.attribute("aria-labelledby")?.trimmingWhitespace() ?? ""
        let title = element.attribute("title")?.trimmingWhitespace() ?? ""
        return !label.isEmpty || !labelledBy.isEmpty || !title.isEmpty
    }
}
