import Foundation
import PackagePlugin

/// Lists every rule of CanopyRules at build time: each file under `Rules/` declares one rule, and
/// that file is the only place the rule is registered. The generated `RuleCatalog.declaredRules`
/// is never committed, so it cannot go stale.
@main
struct RuleCatalogPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let ruleFiles = target.sourceFiles(withSuffix: "swift").map(\.url).filter { $0.deletingLastPathComponent().lastPathComponent == "Rules" }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("RuleCatalog+Declared.swift")
        return [
            .buildCommand(
                displayName: "Listing the rules of \(target.name)",
                executable: try context.tool(named: "rule-catalog-generator").url,
                arguments: [output.path] + ruleFiles.map(\.path),
                inputFiles: ruleFiles,
                outputFiles: [output]
            ),
        ]
    }
}
