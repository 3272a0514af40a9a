// swift-tools-version:6.0
import PackageDescription

/// Release builds of the modules that audit each element skip Swift's run-time exclusivity
/// checks: the cascade, the contrast facts and fingerprints keep per-page tables in classes,
/// and checking each access to them was 4% of a styled crawl's CPU (perf, java.base, see
/// docs/benchmarks.md). Debug builds, and so the tests, keep the checks. They are also built
/// for cross-module optimization: an element's position, parent and name are asked millions of
/// times from other modules, each a call when not inlined (2% of a styled crawl's instructions,
/// callgrind), for a longer release build.
let perElementModuleSettings: [SwiftSetting] = [.unsafeFlags(["-enforce-exclusivity=unchecked", "-cross-module-optimization"], .when(configuration: .release))]

let package = Package(
    name: "Canopy",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "canopy", targets: ["canopy"]),
        .executable(name: "canopy-bench", targets: ["canopy-bench"]),
        .library(name: "CanopyKit", targets: ["CanopyKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // YAML rule sets (and later canopy.yml), with line numbers for error messages.
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
    ],
    targets: [
        // C libraries, found through pkg-config.
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        // libcurl's headers (libcurl4-openssl-dev), and the library itself loaded on first use
        // rather than linked: its dependencies were 5 ms of every start (Sources/CCurl/include/CCurl.h).
        .target(name: "CCurl", linkerSettings: [.linkedLibrary("dl", .when(platforms: [.linux]))]),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),

        // One shape for every problem (a config key, a rule set, a page, the store) and the exit codes.
        .target(name: "CanopyDiagnostics"),
        // HTML/DOM layer: parsing, browser-faithful tree repair, selectors, targets.
        .target(name: "CanopyHTML", dependencies: ["CLibXML2"], swiftSettings: perElementModuleSettings),
        // Styles: CSS syntax, stylesheets, media queries, the cascade and computed values.
        .target(name: "CanopyStyle", dependencies: ["CanopyHTML"], swiftSettings: perElementModuleSettings),
        // Accessibility model: what static HTML and its styles tell about visibility and roles.
        .target(name: "CanopyAccessibility", dependencies: ["CanopyHTML", "CanopyStyle"], swiftSettings: perElementModuleSettings),
        // Rule engine, audit context and the rules themselves.
        .target(
            name: "CanopyRules",
            dependencies: ["CanopyDiagnostics", "CanopyHTML", "CanopyStyle", "CanopyAccessibility", .product(name: "Yams", package: "Yams")],
            swiftSettings: perElementModuleSettings,
            plugins: ["RuleCatalogPlugin"]
        ),
        // Lists the rule types declared under Sources/CanopyRules/Rules, at build time.
        .plugin(name: "RuleCatalogPlugin", capability: .buildTool(), dependencies: ["rule-catalog-generator"]),
        .executableTarget(name: "rule-catalog-generator"),
        // Crawling: fetching over HTTP(S) with libcurl, URLs, scope, robots.txt, sitemaps, links.
        .target(name: "CanopyCrawl", dependencies: ["CCurl", "CZlib", "CCrypto", "CLibXML2", "CanopyHTML", "CanopyStyle"]),
        // Persistence: the SQLite run store (runs, pages, findings, schema, migrations); no HTML.
        .target(name: "CanopyStore", dependencies: ["CSQLite", "CZlib", "CanopyRules", "CanopyCrawl"]),
        // Analysis of history: fingerprints, page types, components, issue keys, trends, gate decisions.
        .target(name: "CanopyHistory", dependencies: ["CanopyDiagnostics", "CanopyHTML", "CanopyRules", "CanopyCrawl", "CanopyStore"], swiftSettings: perElementModuleSettings),
        // Every output format: axe JSON, results.jsonl, trend JSON, HTML, CSV, text, JUnit, SARIF, Markdown.
        .target(name: "CanopyReports", dependencies: ["CanopyRules", "CanopyCrawl", "CanopyStore", "CanopyHistory"]),
        // A real HTTP/1.1 server on 127.0.0.1: the demo's shop, the benchmarks' sites, every test's server.
        .target(name: "CanopyLoopbackServer"),
        // /proc readings for the tests and benchmarks that measure child processes.
        .target(name: "CanopyMeasurement"),
        // Use cases that tie the layers together (what `canopy check` does).
        .target(
            name: "CanopyKit",
            dependencies: [
                "CanopyDiagnostics", "CanopyHTML", "CanopyStyle", "CanopyRules", "CanopyCrawl", "CanopyStore", "CanopyHistory", "CanopyReports",
                "CanopyLoopbackServer",
                .product(name: "Yams", package: "Yams"),
            ],
            resources: [.copy("Resources/sample.html")]
        ),
        .executableTarget(
            name: "canopy",
            dependencies: [
                "CanopyDiagnostics", "CanopyKit", "CanopyReports", "CanopyCrawl", "CanopyStore", "CanopyHistory", "CanopyRules", "CanopyStyle",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The Swift runtime and Foundation linked in: the dynamic loader's symbol lookups across
            // their libraries were a fifth of a `canopy check` (`canopy --version` 21.2 -> 12.1 ms,
            // a check 40.0 -> 28.8 ms, hyperfine, docs/benchmarks.md), for a larger binary.
            // Compiled with the flag too: the static Foundation module names the libraries it needs.
            // Linux only: Apple platforms ship the runtime with the system and refuse the flag.
            swiftSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))],
            linkerSettings: [.unsafeFlags(["-static-stdlib"], .when(platforms: [.linux], configuration: .release))]
        ),
        .executableTarget(
            name: "canopy-bench",
            dependencies: ["CanopyCrawl", "CanopyHTML", "CanopyRules", "CanopyStyle"]
        ),
        .executableTarget(
            name: "canopy-crawl-bench",
            dependencies: [
                "CanopyDiagnostics", "CanopyKit", "CanopyHTML", "CanopyCrawl", "CanopyRules", "CanopyHistory", "CanopyStore", "CanopySyntheticHistory",
                "CanopyLoopbackServer", "CanopyMeasurement",
            ]
        ),
        // Made-up weekly runs of a large site, recorded straight into a store: for the report
        // benchmark and tests, never shipped in a library product.
        .target(name: "CanopySyntheticHistory", dependencies: ["CanopyStore", "CanopyHistory", "CanopyRules"]),
        // `canopy gate` end to end over 50 pages served on loopback by the program itself.
        .executableTarget(
            name: "canopy-gate-bench", dependencies: ["CanopyDiagnostics", "CanopyKit", "CanopyHistory", "CanopySyntheticHistory", "CanopyLoopbackServer"]
        ),
        // `canopy report`'s work on a generated year of weekly runs of a 3,000-page site.
        .executableTarget(name: "canopy-report-bench", dependencies: ["CanopyHistory", "CanopyReports", "CanopyStore", "CanopySyntheticHistory"]),
        // Fuzz targets' per-input work (docs/fuzzing.md), shared by the fuzzer and FuzzCorpusTests.
        .target(name: "CanopyFuzzing", dependencies: ["CanopyHTML", "CanopyRules"]),
        // The libFuzzer driver (built with -DFUZZING); a plain build is a corpus replayer.
        .executableTarget(name: "canopy-fuzz", dependencies: ["CanopyFuzzing"]),

        // The tests' names for the loopback server, and where ../shared is.
        .target(name: "CanopyTestSupport", dependencies: ["CanopyLoopbackServer", "CanopyMeasurement"], path: "Tests/Support"),
        // XML Schema validation for tests of JUnit output, in C so that no Swift module sees
        // libxml2's ICU headers next to Foundation's ICU.
        .target(name: "CanopyXMLSchema", dependencies: ["CLibXML2"], path: "Tests/XMLSchemaSupport"),

        .testTarget(name: "CanopyHTMLTests", dependencies: ["CanopyHTML", "CanopyTestSupport"]),
        .testTarget(name: "CanopyStyleTests", dependencies: ["CanopyStyle", "CanopyHTML"]),
        .testTarget(name: "CanopyAccessibilityTests", dependencies: ["CanopyAccessibility", "CanopyHTML"]),
        .testTarget(
            name: "CanopyRulesTests",
            dependencies: [
                "CanopyDiagnostics", "CanopyRules", "CanopyAccessibility", "CanopyHTML", "CanopyTestSupport", "CanopyFuzzing",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .testTarget(name: "CanopyCrawlTests", dependencies: ["CanopyCrawl", "CanopyHTML", "CanopyTestSupport", "CZlib"]),
        // Recorded runs for store and history tests: a temporary folder, made-up findings, fixture pages.
        .target(
            name: "CanopyHistoryTestSupport", dependencies: ["CanopyStore", "CanopyHistory", "CanopyHTML", "CanopyRules"],
            path: "Tests/HistorySupport"
        ),
        .testTarget(name: "CanopyStoreTests", dependencies: ["CanopyStore", "CanopyCrawl", "CanopyHistory", "CanopyRules", "CanopyHistoryTestSupport"]),
        .testTarget(
            name: "CanopyHistoryTests",
            dependencies: ["CanopyHistory", "CanopyStore", "CanopyHTML", "CanopyRules", "CanopySyntheticHistory", "CanopyHistoryTestSupport"]
        ),
        .testTarget(
            name: "CanopyKitTests",
            dependencies: [
                "CanopyDiagnostics", "CanopyKit", "CanopyHTML", "CanopyStyle", "CanopyRules", "CanopyCrawl", "CanopyStore", "CanopyHistory", "CanopyReports",
                "CanopyTestSupport", "CanopyLoopbackServer", "CanopyXMLSchema",
                "CanopySyntheticHistory", "CZlib",
                // Reads the example CI workflows as the platforms do.
                .product(name: "Yams", package: "Yams"),
            ],
            // The JUnit XSD and SARIF JSON schema the gate's outputs are validated against.
            resources: [.copy("Schemas")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

/// Every Swift module of the package reaches generic type metadata through the types' accessor
/// functions, given the conformances they need, instead of through a mangled name the runtime
/// decodes: decoding one looks up each conformance the type requires, and each first lookup
/// scans all 6,795 conformance records of the binary. 81 such scans were a fifth of a
/// `canopy check`; with this, the check takes 83.2 M instructions instead of 90.9 M (16.7 ms
/// instead of 17.8 ms at the median), and a crawl as many as before (docs/benchmarks.md). The
/// binary grows by 0.13%. Dependencies are compiled as they are: a package cannot set their flags.
for target in package.targets where [.regular, .executable, .test].contains(target.type) {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"])]
}
