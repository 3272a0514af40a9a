import CanopyHTML

/// Which form fields axe's label rules look at (its `label-matches`).
enum LabelledFormFields {
    /// `input`, `select` and `textarea`, except inputs that are buttons, images or hidden: those
    /// are named by their value or alt, never by a `<label>`.
    static func takesLabel(_ element: Element) -> Bool {
        guard element.localName == "input", let type = element.attribute("type") else { return true }
        return !["hidden", "image", "button", "submit", "reset"].contains(type.lowercased())
    }
}
