import CanopyDiagnostics
import Foundation
import Yams

/// A named selection of rules with optional impact overrides, read from a rule set file
/// (`Rules/default.yml`, YAML or JSON). The format is described in docs/rule-sets.md.
///
/// A rule is selected when its id is listed under `rules` or it carries one of the `tags`;
/// ids under `disable` are then removed. `rules` keeps its listed order; rules selected only
/// by tag follow in catalog order.
public struct RuleSet: Sendable {
    public let name: String
    /// The selected rules; a rule with an impact override reports the overridden impact.
    public let rules: [any Rule]

    public var ruleIDs: [String] { rules.map(\.metadata.id) }

    /// Reads a rule set from YAML (or JSON) text. `file` names the source in error messages.
    public init(yaml: String, file: String, catalog: [any Rule] = RuleCatalog.all) throws(Diagnostic) {
        self = try RuleSetParser(file: file, catalog: catalog).parse(yaml)
    }

    /// Reads the rule set file at `path` (as the user named it, which error messages repeat).
    public static func load(contentsOf path: String, catalog: [any Rule] = RuleCatalog.all) throws(Diagnostic) -> RuleSet {
        guard let data = FileManager.default.contents(atPath: path) else {
            let reason = FileManager.default.fileExists(atPath: path) ? "the file cannot be read" : "no such file"
            throw Diagnostic.ruleSet(file: path, line: nil, keyPath: "", message: reason)
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw Diagnostic.ruleSet(file: path, line: nil, keyPath: "", message: "the file is not UTF-8 text")
        }
        return try RuleSet(yaml: text, file: path, catalog: catalog)
    }

    /// Canopy's default rule set: the rules whose metadata puts them in it (`Rules/default.yml`
    /// lists the same).
    public static func standard() -> RuleSet {
        RuleSet(name: "default", rules: RuleCatalog.defaultRules)
    }

    init(name: String, rules: [any Rule]) {
        self.name = name
        self.rules = rules
    }

    /// Tags axe-core uses for conformance levels, standards and categories. They are accepted
    /// even when no rule of the catalog carries them yet, so a set can name a level whose rules
    /// arrive later; any other tag must be carried by some rule.
    public static let standardTags: Set<String> = [
        "wcag2a", "wcag2aa", "wcag2aaa", "wcag21a", "wcag21aa", "wcag22a", "wcag22aa", "best-practice",
        "experimental", "section508", "ACT", "TTv5", "EN-301-549", "RGAAv4",
        "cat.aria", "cat.color", "cat.forms", "cat.keyboard", "cat.language", "cat.name-role-value", "cat.parsing",
        "cat.semantics", "cat.sensory-and-visual-cues", "cat.structure", "cat.tables", "cat.text-alternatives",
        "cat.time-and-media",
    ]
}

/// Walks the composed YAML tree, so that every error can name the line and key it is about.
private struct RuleSetParser {
    let file: String
    let catalog: [any Rule]

    static let topLevelKeys = ["name", "description", "rules", "tags", "disable"]
    static let ruleEntryKeys = ["id", "impact"]

    func error(_ node: Node?, _ keyPath: String, _ message: String) -> Diagnostic {
        Diagnostic.ruleSet(file: file, line: node?.mark?.line, keyPath: keyPath, message: message)
    }

    func parse(_ yaml: String) throws(Diagnostic) -> RuleSet {
        let root = try YAMLDiagnostics.root(
            of: yaml, file: file, kind: .ruleSet, emptyMessage: "the file is empty; expected a mapping with a `rules` or `tags` key"
        )
        guard let mapping = root.mapping else {
            throw error(root, "", "expected a mapping with a `rules` or `tags` key, found \(kind(of: root))")
        }

        var name: String?
        var listed: [(id: String, impact: Impact?)] = []
        var tags: [String] = []
        var disabled: [String] = []
        var sawSelection = false
        var seenKeys: Set<String> = []
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            guard seenKeys.insert(key).inserted else { throw error(keyNode, key, "the key appears twice") }
            switch key {
            case "name":
                name = try string(value, "name")
            case "description":
                _ = try string(value, "description")
            case "rules":
                sawSelection = true
                listed = try ruleEntries(value)
            case "tags":
                sawSelection = true
                tags = try tagList(value)
            case "disable":
                disabled = try idList(value, "disable")
            default:
                throw error(keyNode, key, "unknown key; expected one of \(Self.topLevelKeys.joined(separator: ", "))")
            }
        }
        guard sawSelection else { throw error(root, "", "the rule set selects nothing: add a `rules` or `tags` key") }

        // Listed rules first, in the file's order; then rules selected by tag, in catalog order.
        var overrides: [String: Impact] = [:]
        var order: [String] = []
        for entry in listed {
            order.append(entry.id)
            if let impact = entry.impact { overrides[entry.id] = impact }
        }
        let wantedTags = Set(tags)
        for rule in catalog where !order.contains(rule.metadata.id) && rule.metadata.tags.contains(where: wantedTags.contains) {
            order.append(rule.metadata.id)
        }
        let removed = Set(disabled)
        let rules = order.filter { !removed.contains($0) }.compactMap { id -> (any Rule)? in
            guard let rule = catalog.first(where: { $0.metadata.id == id }) else { return nil }
            guard let impact = overrides[id], impact != rule.metadata.impact else { return rule }
            return ImpactOverriddenRule(rule, impact: impact)
        }
        let fallbackName = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        return RuleSet(name: name ?? fallbackName, rules: rules)
    }

    // MARK: Sections

    func ruleEntries(_ node: Node) throws(Diagnostic) -> [(id: String, impact: Impact?)] {
        guard let sequence = node.sequence else {
            throw error(node, "rules", "expected a list of rule ids, found \(kind(of: node))")
        }
        var entries: [(id: String, impact: Impact?)] = []
        for (index, item) in sequence.enumerated() {
            let path = "rules[\(index)]"
            let id: String, impact: Impact?
            if item.scalar != nil {
                id = try ruleID(item, path)
                impact = nil
            } else if let entry = item.mapping {
                var foundID: String?, foundImpact: Impact?
                var seenKeys: Set<String> = []
                for (keyNode, value) in entry {
                    let key = keyNode.string ?? ""
                    guard seenKeys.insert(key).inserted else { throw error(keyNode, "\(path).\(key)", "the key appears twice") }
                    switch key {
                    case "id": foundID = try ruleID(value, path + ".id")
                    case "impact": foundImpact = try self.impact(value, path + ".impact")
                    default:
                        throw error(keyNode, "\(path).\(key)", "unknown key; expected \(Self.ruleEntryKeys.joined(separator: " or "))")
                    }
                }
                guard let foundID else { throw error(item, path, "missing `id`") }
                id = foundID
                impact = foundImpact
            } else {
                throw error(item, path, "expected a rule id or a mapping with `id` and `impact`, found \(kind(of: item))")
            }
            if entries.contains(where: { $0.id == id }) {
                throw error(item, path, "rule \"\(id)\" is listed twice")
            }
            entries.append((id, impact))
        }
        return entries
    }

    func tagList(_ node: Node) throws(Diagnostic) -> [String] {
        let known = RuleSet.standardTags.union(catalog.flatMap(\.metadata.tags))
        return try list(node, "tags", what: "tags") { (item, path) throws(Diagnostic) -> String in
            let tag = try string(item, path)
            guard known.contains(tag) else { throw error(item, path, "unknown tag \"\(tag)\": no rule carries it") }
            return tag
        }
    }

    func idList(_ node: Node, _ key: String) throws(Diagnostic) -> [String] {
        try list(node, key, what: "rule ids") { (item, path) throws(Diagnostic) -> String in try ruleID(item, path) }
    }

    // MARK: Values

    func list<T>(
        _ node: Node, _ key: String, what: String, _ item: (Node, String) throws(Diagnostic) -> T
    ) throws(Diagnostic) -> [T] {
        guard let sequence = node.sequence else {
            throw error(node, key, "expected a list of \(what), found \(kind(of: node))")
        }
        var values: [T] = []
        for (index, element) in sequence.enumerated() {
            values.append(try item(element, "\(key)[\(index)]"))
        }
        return values
    }

    func ruleID(_ node: Node, _ path: String) throws(Diagnostic) -> String {
        let id = try string(node, path)
        guard catalog.contains(where: { $0.metadata.id == id }) else {
            var message = "unknown rule \"\(id)\""
            if let suggestion = closestRuleID(to: id) { message += "; did you mean \"\(suggestion)\"?" }
            throw error(node, path, message)
        }
        return id
    }

    func impact(_ node: Node, _ path: String) throws(Diagnostic) -> Impact {
        let text = try string(node, path)
        guard let impact = Impact(rawValue: text) else {
            let levels = Impact.allCases.map(\.rawValue).joined(separator: ", ")
            throw error(node, path, "unknown impact \"\(text)\"; expected one of \(levels)")
        }
        return impact
    }

    /// A plain string scalar; quoted or not, but not null, a number or a boolean.
    func string(_ node: Node, _ path: String) throws(Diagnostic) -> String {
        guard let scalar = node.scalar, node.tag.rawValue == Tag.Name.str.rawValue else {
            throw error(node, path, "expected a string, found \(kind(of: node))")
        }
        return scalar.string
    }

    func kind(of node: Node) -> String { YAMLDiagnostics.kind(of: node) }

    /// The catalog id within two edits of a misspelt one, to suggest it.
    func closestRuleID(to id: String) -> String? {
        YAMLDiagnostics.closest(to: id, in: catalog.map(\.metadata.id))
    }
}
