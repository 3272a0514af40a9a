import CanopyTestSupport
import Foundation
import Testing

/// The layers of docs/architecture.md, held true by the manifest: every target declares exactly
/// the modules it imports, and a layer depends only on the layers below it.
@Suite("Package.swift: declared dependencies and layers")
struct PackageShapeTests {
    /// Canopy's layers, lowest first. A library target may depend only on lower ones.
    static let layers = [
        "CanopyHTML", "CanopyStyle", "CanopyAccessibility", "CanopyRules", "CanopyCrawl", "CanopyStore", "CanopyHistory",
        "CanopyReports", "CanopyKit", "canopy",
    ]

    struct Target {
        var name: String
        var kind: String
        var dependencies: Set<String>
        var folder: String
    }

    static func manifestTargets() throws -> [Target] {
        let manifest = try String(contentsOf: SharedFixtures.repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        var targets: [Target] = []
        for kind in ["target", "executableTarget", "testTarget", "systemLibrary"] {
            var rest = manifest[...]
            while let start = rest.range(of: ".\(kind)(") {
                let arguments = balanced(rest[start.upperBound...], open: "(", close: ")")
                rest = rest[start.upperBound...]
                guard let name = firstQuoted(after: "name:", in: arguments) else { continue }
                var dependencies: Set<String> = []
                if let listStart = arguments.range(of: "dependencies:")?.upperBound,
                   let bracket = arguments[listStart...].firstIndex(of: "[") {
                    var list = String(balanced(arguments[arguments.index(after: bracket)...], open: "[", close: "]"))
                    // `.product(name: "Yams", package: "Yams")` names the module by `name`.
                    while let product = list.range(of: ".product(") {
                        let inner = balanced(list[product.upperBound...], open: "(", close: ")")
                        if let module = firstQuoted(after: "name:", in: inner) { dependencies.insert(module) }
                        list.removeSubrange(product.lowerBound...inner.endIndex)
                    }
                    dependencies.formUnion(quoted(in: list[...]))
                }
                let folder = firstQuoted(after: "path:", in: arguments) ?? ((kind == "testTarget" ? "Tests/" : "Sources/") + name)
                targets.append(Target(name: name, kind: kind, dependencies: dependencies, folder: folder))
            }
        }
        return targets
    }

    /// The text up to the bracket that closes the one just before `text`.
    private static func balanced(_ text: Substring, open: Character, close: Character) -> Substring {
        var depth = 1
        var inString = false
        for index in text.indices {
            let character = text[index]
            if character == "\"" { inString.toggle() }
            if inString { continue }
            if character == open { depth += 1 }
            if character == close {
                depth -= 1
                if depth == 0 { return text[..<index] }
            }
        }
        return text
    }

    private static func firstQuoted(after label: String, in text: Substring) -> String? {
        guard let labelEnd = text.range(of: label)?.upperBound else { return nil }
        return quoted(in: text[labelEnd...]).first
    }

    private static func quoted(in text: Substring) -> [String] {
        text.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The package's own modules (and its products' modules) that a folder's sources import.
    static func imports(in folder: String, known: Set<String>) throws -> Set<String> {
        let root = SharedFixtures.repositoryRoot.appendingPathComponent(folder)
        guard let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { return [] }
        var found: Set<String> = []
        for case let file as URL in files where ["swift", "c", "h"].contains(file.pathExtension) {
            let text = try String(contentsOf: file, encoding: .utf8)
            for line in text.split(separator: "\n") {
                var words = line.split(separator: " ").map(String.init)
                while let first = words.first, first.hasPrefix("@") || ["internal", "public", "private", "package"].contains(first) {
                    words.removeFirst()
                }
                if words.count >= 2, words[0] == "import", known.contains(words[1]) { found.insert(words[1]) }
                if line.hasPrefix("#include <libxml/") { found.insert("CLibXML2") }
            }
        }
        return found
    }

    @Test("every target declares exactly the package modules it imports")
    func dependenciesMatchImports() throws {
        let targets = try Self.manifestTargets()
        #expect(targets.count > 20, "the manifest was read")
        let known = Set(targets.map(\.name)).union(["ArgumentParser", "Yams"])
        for target in targets where target.kind != "systemLibrary" {
            let imported = try Self.imports(in: target.folder, known: known).subtracting([target.name])
            #expect(imported.subtracting(target.dependencies).isEmpty, "\(target.name) imports \(imported.subtracting(target.dependencies).sorted()) without declaring them")
            #expect(target.dependencies.subtracting(imported).isEmpty, "\(target.name) declares \(target.dependencies.subtracting(imported).sorted()) without importing them")
        }
    }

    @Test("a layer depends only on the layers below it")
    func layersDependDownward() throws {
        let rank = Dictionary(uniqueKeysWithValues: Self.layers.enumerated().map { ($0.element, $0.offset) })
        for target in try Self.manifestTargets() {
            guard let own = rank[target.name] else { continue }
            for dependency in target.dependencies {
                guard let theirs = rank[dependency] else { continue }
                #expect(theirs < own, "\(target.name) depends on \(dependency), which is not below it")
            }
        }
    }
}
