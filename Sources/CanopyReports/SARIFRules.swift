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

/// Writes a SARIF log built as plain dictionaries. JSONEncoder rather than JSONSerialization:
/// on Linux the latter bridged every value and searched its whole output for escaped slashes,
/// which made open-issues.sarif a third of the CPU time of a java.base crawl (perf, 2026-11-26).
enum SARIFJSON {
    static func data(_ log: [String: Any]) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(try Value(log))
    }

    private enum Value: Encodable {
        case string(String), integer(Int), number(Double), boolean(Bool), array([Value]), object([String: Value])

        init(_ any: Any) throws {
            switch any {
            case let value as String: self = .string(value)
            case let value as Bool: self = .boolean(value)
            case let value as Int: self = .integer(value)
            case let value as Double: self = .number(value)
            case let values as [Any]: self = .array(try values.map(Value.init))
            case let values as [String: Any]: self = .object(try values.mapValues(Value.init))
            default: throw EncodingError.invalidValue(any, EncodingError.Context(codingPath: [], debugDescription: "not a JSON value"))
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .integer(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .boolean(let value): try container.encode(value)
            case .array(let values): try container.encode(values)
            case .object(let values): try container.encode(values)
            }
        }
    }
}
