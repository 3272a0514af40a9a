import CanopyAccessibility
import CanopyHTML
import Foundation
import Testing

/// `hasAccessibleName` answers some links without computing their name; it must always say
/// what the full computation says.
struct HasAccessibleNameTests {
    static let links = [
        #"<a href="/x">Tea</a>"#, #"<a href="/x"> </a>"#, "<a href=\"/x\">\u{00A0}\u{2003}\n</a>", #"<a href="/x" aria-hidden="true">Tea</a>"#,
        #"<a href="/x" role="button">Tea</a>"#, #"<a href="/x" role="textbox">Tea</a>"#, #"<a href="/x" role="none">Tea</a>"#,
        #"<a href="/x" role="presentation" tabindex="0">Tea</a>"#, #"<a href="/x" aria-labelledby="blank">Tea</a>"#,
        #"<a href="/x" aria-label=" ">Tea</a>"#, #"<a>No href, text</a>"#, #"<a href="/x" hidden>Hidden</a>"#,
        #"<a href="/x" style="display:none">Not rendered</a>"#, #"<a href="/x"><span hidden>Tea</span></a>"#,
        #"<a href="/x"><img src="t.png" alt=""></a>"#, #"<a href="/x" aria-owns="blank">Tea</a>"#,
        #"<div inert><a href="/x">Inert</a></div>"#, #"<svg><a href="/x"><text>SVG link</text></a></svg>"#,
        #"<a href="/x"><!-- comment --></a>"#, #"<a href="/x">   <b> </b>  </a>"#, #"<a href="/x" title="Tea"> </a>"#,
    ]

    static var pages: [String] {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/seeds/parse")
        let seeds = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted().compactMap {
            try? String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
        }
        let handMade = links.map { #"<!DOCTYPE html><html><body><p id="blank"> </p>\#($0)</body></html>"# }
        return handMade + [handMade.joined()] + seeds
    }

    @Test func agreesWithTheFullComputationOnEveryElement() {
        var elements = 0
        for html in Self.pages {
            let document = HTMLParser().parse(html: html)
            let quick = AccessibilityModel(document: document)
            let full = AccessibilityModel(document: document)
            for element in document.elements {
                elements += 1
                #expect(
                    quick.hasAccessibleName(element) == !full.accessibleName(of: element).isEmpty,
                    "\(element.snippet()) in \(html.prefix(100))"
                )
            }
        }
        #expect(elements > 1_000)
    }
}
