import CanopyHTML
import Foundation

/// Elements that the page's own inline scripts turn into shadow hosts with `attachShadow`. A
/// shadow host renders its shadow tree instead of its children (which show only where the tree
/// slots them, styled by the tree), and Canopy runs no script: what such an element shows is
/// unknown, so the rules that judge rendered text leave it for review rather than judge the
/// children or find nothing.
///
/// A script that calls `attachShadow` makes hosts of the elements it looks up by id
/// (`getElementById("x")`, `querySelector("#x")`) and of the custom elements it defines
/// (`customElements.define("x-card", ...)`). Hosts made by external scripts are not seen.
enum ScriptShadowHosts {
    /// The positions of the hosts, found once per page; empty on the many pages whose inline
    /// scripts never attach a shadow root.
    static func positions(on page: PageContext) -> Set<Int> {
        page.memo("script-shadow-hosts") {
            var hosts = Set<Int>()
            for script in page.document.elements(named: "script") where runsAsScript(script) {
                let source = script.textOfTextChildren
                guard source.contains("attachShadow") else { continue }
                // Built here, not kept: few pages get this far, and a Regex is not Sendable.
                let lookups = [#/getElementById\(\s*['"`](?<id>[^'"`\s]+)['"`]\s*\)/#, #/querySelector\(\s*['"`]#(?<id>[A-Za-z0-9_-]+)['"`]\s*\)/#]
                for lookup in lookups {
                    for match in source.matches(of: lookup) {
                        if let element = page.document.element(withID: String(match.output.id)) { hosts.insert(element.position) }
                    }
                }
                for match in source.matches(of: #/customElements\.define\(\s*['"`](?<name>[A-Za-z][A-Za-z0-9]*-[A-Za-z0-9-]*)['"`]/#) {
                    hosts.formUnion(page.document.elements(named: String(match.output.name).lowercased()).map(\.position))
                }
            }
            return hosts
        }
    }

    /// The host the element is or lies inside, if any.
    static func host(around element: Element, on page: PageContext) -> Element? {
        let hosts = positions(on: page)
        guard !hosts.isEmpty else { return nil }
        if hosts.contains(element.position) { return element }
        return element.ancestors.first { hosts.contains($0.position) }
    }

    private static func runsAsScript(_ script: Element) -> Bool {
        guard script.attribute("src") == nil else { return false }
        let type = (script.attribute("type") ?? "").trimmingCharacters(in: .whitespaces).lowercased()
        return type.isEmpty || type == "module" || type.hasSuffix("javascript") || type.hasSuffix("ecmascript")
    }
}
