import CanopyRules
import Foundation

/// What every SARIF file Canopy writes says about its rules (the gate's, and open-issues.sarif).
enum SARIFRules {
    /// The rules in `ids` sorted, and their `tool.driver.rules` entries in that order.
    static func descriptors(for ids: [String], metadata: [String: RuleMetadata]) -> (ids: [String], rules: [[String: Any]]) {
        let sorted = Set(ids).sorted()
        return (sorted, sorted.map { id in
            let rule = metadata[id]
            var descriptor: [String: Any] = [
                "id": id,
                "shortDescription": ["text": rule?.help ?? id],
                "fullDescription": ["text": rule?.description ?? id],
                "helpUri": rule?.helpURL ?? "https://dequeuniversity.com/rules/axe/4.11/\(id)",
                "defaultConfiguration": ["level": level(Impact(rawValue: rule?.impact.rawValue ?? "") ?? .minor, failing: true)],
            ]
            if let rule {
                descriptor["help"] = ["text": "\(rule.help). \(rule.howToFix)"]
                descriptor["properties"] = ["tags": rule.tags, "impact": rule.impact.rawValue]
            }
            return descriptor
        })
    }

    /// Serious and critical failures are errors; the rest, and what does not fail, warnings.
    static func level(_ impact: Impact, failing: Bool) -> String {
        guard failing else { return "warning" }
        return impact >= .serious ? "error" : "warning"
    }
}

/// Writes a SARIF log built as plain dictionaries (the gate's: a deploy's pages, small) with
/// sorted keys, as JSONEncoder wrote it. Not JSONSerialization: on Linux it bridged every value
/// and searched its whole output for escaped slashes, which made open-issues.sarif a third of the
/// CPU time of a java.base crawl (perf, 2026-11-26).
enum SARIFJSON {
    static func data(_ log: [String: Any]) throws -> Data {
        var json = JSONStreamWriter(pretty: true, sink: nil)
        json.value(try JSONValue(log))
        try json.finish()
        return Data(json.bytes)
    }
}
