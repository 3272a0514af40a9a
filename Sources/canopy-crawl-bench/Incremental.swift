import CanopyCrawl
import CanopyKit
import CanopyStore
import Foundation

/// The weekly case: the same site crawled again into the same store. Three crawls of java.base:
/// the first (everything audited), a second with nothing changed, and a third after a share of
/// the pages was edited; the second and third as ratios of the first.
enum Incremental {
    static func run(start: String, prefix: String, urlsFile: String, origin: String, root: String, changedShare: Double, keep: Bool) throws {
        let startPath = try URLNormalizer().normalize(start).pathAndQuery
        let startURL = origin + startPath
        let paths = try String(contentsOfFile: urlsFile, encoding: .utf8).split(separator: "\n").map(String.init)
        guard FileManager.default.fileExists(atPath: root + startPath) else {
            throw BenchmarkError("no editable copy of the site at \(root): run benchmarks/serve-javadoc.sh first")
        }
        let folder = NSTemporaryDirectory() + "canopy-incremental-bench-\(getpid())"
        defer { if keep { print("kept: \(folder)") } else { try? FileManager.default.removeItem(atPath: folder) } }
        print("site: \(startURL) within \(prefix), an editable copy at \(root); \(ProcessInfo.processInfo.activeProcessorCount) cores")

        let (first, firstSeconds) = try crawlSite(from: startURL, into: folder)
        report("first crawl (every page audited)", first, firstSeconds, against: nil, store: folder)
        let (second, secondSeconds) = try crawlSite(from: startURL, into: folder)
        report("again, nothing changed", second, secondSeconds, against: firstSeconds, store: folder)

        // Every n-th page of the list gets a new paragraph (a new file, so a new ETag); put back after.
        let step = max(1, Int((1 / changedShare).rounded()))
        let edited = stride(from: 0, to: paths.count, by: step).map { root + paths[$0] }
        var originals: [String: Data] = [:]
        for path in edited {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            originals[path] = data
            var text = String(decoding: data, as: UTF8.self)
            if let end = text.range(of: "</body>", options: .backwards) { text.insert(contentsOf: "<p>Edited this week.</p>", at: end.lowerBound) }
            // Written as a new file: the copy's pages may be hard links to the packaged originals.
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        }
        defer { for (path, data) in originals { try? data.write(to: URL(fileURLWithPath: path), options: .atomic) } }
        let (third, thirdSeconds) = try crawlSite(from: startURL, into: folder)
        report("again, \(originals.count) pages edited (\(String(format: "%.0f", changedShare * 100))%)", third, thirdSeconds, against: firstSeconds, store: folder)
    }

    private static func report(_ label: String, _ summary: RunSummary, _ seconds: Double, against first: Double?, store folder: String) {
        let unchanged = summary.pagesUnchanged.values.reduce(0, +)
        var line = label.padding(toLength: 36, withPad: " ", startingAt: 0)
            + String(format: "%6d pages %7.2f s (crawl %5.2f s)  %5d unchanged, %5d audited, %d violations", summary.pagesAudited, seconds,
                     summary.seconds, unchanged, summary.pagesAudited - unchanged, summary.violations)
        if let first { line += String(format: "  = %.3fx the first crawl's time", seconds / first) }
        line += String(format: "; store %.1f MB", Double(RunStore.bytesOnDisk(ofStoreAt: folder + "/canopy.sqlite")) / 1_000_000)
        print(line)
        fflush(nil)  // each figure as soon as it is known: the whole bench takes minutes
    }
}
