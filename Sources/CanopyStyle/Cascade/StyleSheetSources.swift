import CanopyHTML

/// A stylesheet a page uses, in the order the cascade reads them.
public struct StyleSheetReference: Sendable, Hashable {
    public enum Source: Sendable, Hashable {
        /// `<link rel=stylesheet href>`, the href as written.
        case linked(href: String)
        /// A `<style>` element's text.
        case embedded(text: String)
    }

    public let source: Source
    /// The `media` attribute, when there is one.
    public let media: String?

    public init(source: Source, media: String?) {
        self.source = source
        self.media = media
    }

    /// The page's stylesheets in tree order: `<link rel=stylesheet>` that is neither an alternate
    /// nor disabled, with an href, and `<style>` elements outside `<template>`, each of a CSS type.
    public static func references(in document: Document) -> [StyleSheetReference] {
        let candidates = (document.elements(named: "style") + document.elements(named: "link")).sorted { $0.position < $1.position }
        return candidates.compactMap(reference(for:))
    }

    private static func reference(for element: Element) -> StyleSheetReference? {
        guard element.isHTML, isCSSType(element.attribute("type")),
              !element.ancestors.contains(where: { $0.localName == "template" })
        else { return nil }
        let media = element.attribute("media").map { $0.trimmingASCIIWhitespace() }.flatMap { $0.isEmpty ? nil : $0 }
        if element.localName == "style" {
            return StyleSheetReference(source: .embedded(text: element.textContent), media: media)
        }
        let relations = Set((element.attribute("rel") ?? "").lowercased().split(whereSeparator: \.isWhitespace))
        guard relations.contains("stylesheet"), !relations.contains("alternate"), !element.hasAttribute("disabled"),
              let href = element.attribute("href")?.trimmingASCIIWhitespace(), !href.isEmpty
        else { return nil }
        return StyleSheetReference(source: .linked(href: href), media: media)
    }

    private static func isCSSType(_ type: String?) -> Bool {
        guard let type = type?.trimmingASCIIWhitespace().lowercased(), !type.isEmpty else { return true }
        return type == "text/css"
    }
}

/// What loading a linked or imported sheet came to.
public enum StyleSheetLoad: Sendable {
    /// `missing` says why a sheet that every browser also fails to get is empty (a 404).
    case loaded(url: String, sheet: ParsedStyleSheet, missing: String? = nil)
    /// Not fetched, or fetched and unusable: the rules that styles could change cannot decide.
    case failed(url: String, reason: String)
}

/// Fetches stylesheets for the cascade: over HTTP during a crawl (once per URL per crawl),
/// from files next to the page for `canopy check FILE`, from memory in tests.
public protocol StyleSheetLoading: Sendable {
    /// `href` resolved against `base` (the page's or the importing sheet's URL).
    func load(_ href: String, relativeTo base: String?) -> StyleSheetLoad
    /// The absolute URL (or path) `href` stands for; `load` of the result with any base loads the same.
    func resolve(_ href: String, relativeTo base: String?) -> String
}

/// A sheet that could not be used, for the findings it leaves undecided.
public struct StyleSheetFailure: Sendable, Hashable, CustomStringConvertible {
    public let url: String
    public let reason: String

    public init(url: String, reason: String) {
        self.url = url
        self.reason = reason
    }

    public var description: String { "\(url): \(reason)" }
}
