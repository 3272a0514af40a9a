import CanopyCrawl
import Foundation
import Testing

@Suite("URLFlagTable: the URLs a crawl met, packed")
struct URLFlagTableTests {
    @Test("agrees with a dictionary over 50,000 URLs: flags add up, lookups of absent URLs give 0")
    func agreesWithADictionary() {
        var table = URLFlagTable()
        var oracle: [String: UInt8] = [:]
        var random = SystemRandomNumberGenerator()
        for index in 0..<50_000 {
            // Prefixes of one another, repeats, and a few long ones.
            let url = index % 7 == 0 ? "https://example.com/p/\(index / 7)" : "https://example.com/p/\(index)" + (index % 1000 == 1 ? String(repeating: "x", count: 70_000) : "")
            let flag = UInt8(1) << UInt8.random(in: 0...2, using: &random)
            let before = table.insert(flag, for: url)
            #expect(before == oracle[url, default: 0])
            oracle[url, default: 0] |= flag
        }
        #expect(table.count == oracle.count)
        for (url, flags) in oracle { #expect(table.flags(url) == flags) }
        for missing in ["", "https://example.com/p/", "https://example.com/p/50000", "https://example.com/p/1x"] {
            #expect(table.flags(missing) == 0, "\(missing)")
        }
    }

    @Test("the empty string and non-ASCII URLs are URLs like any other")
    func edgeKeys() {
        var table = URLFlagTable()
        #expect(table.insert(2, for: "") == 0)
        #expect(table.insert(1, for: "") == 2)
        #expect(table.flags("") == 3)
        #expect(table.insert(4, for: "https://bücher.example/é") == 0)
        #expect(table.flags("https://bücher.example/é") == 4)
        #expect(table.flags("https://bücher.example/e") == 0)
        #expect(table.count == 2)
    }
}

@Suite("FrontierQueue: first in first out, mostly on disk")
struct FrontierQueueTests {
    /// A folder of its own, removed afterwards.
    final class Folder {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("canopy-frontier-\(UUID().uuidString)").path
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(atPath: path) }
        var contents: [String] { (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] }
    }

    @Test("pushes and pops in any interleaving come out in order, with all but a few on disk and no file left in the folder")
    func orderAcrossTheFile() throws {
        let folder = try Folder()
        let queue = FrontierQueue(memoryLimit: 16, directory: folder.path)
        var expected: [FrontierQueue.Entry] = []
        var popped: [FrontierQueue.Entry] = []
        var random = SystemRandomNumberGenerator()
        for round in 0..<20 {
            for index in 0..<Int.random(in: 0...400, using: &random) {
                let entry = FrontierQueue.Entry(url: "https://example.com/\(round)/\(index)/" + String(repeating: "é", count: index % 50), depth: round)
                queue.push(entry)
                expected.append(entry)
            }
            for _ in 0..<Int.random(in: 0...300, using: &random) {
                guard let entry = queue.pop() else { break }
                popped.append(entry)
            }
            #expect(queue.count == expected.count - popped.count)
            #expect(folder.contents == [], "the file is unlinked as soon as it is made")
        }
        while let entry = queue.pop() { popped.append(entry) }
        #expect(popped == expected)
        #expect(queue.isEmpty)
        #expect(queue.spilled > expected.count / 2, "most entries went to disk: \(queue.spilled) of \(expected.count)")
    }

    @Test("a URL longer than a read block comes back whole")
    func longEntries() throws {
        let folder = try Folder()
        let queue = FrontierQueue(memoryLimit: 2, directory: folder.path)
        let entries = (0..<10).map { FrontierQueue.Entry(url: "https://example.com/" + String(repeating: "\($0)", count: 300_000), depth: $0) }
        entries.forEach(queue.push)
        var popped: [FrontierQueue.Entry] = []
        while let entry = queue.pop() { popped.append(entry) }
        #expect(popped == entries)
        #expect(queue.spilled > 0)
    }

    @Test("without a writable folder the entries stay in memory, still in order")
    func unwritableFolder() {
        let queue = FrontierQueue(memoryLimit: 4, directory: "/nonexistent/canopy-\(UUID().uuidString)")
        let entries = (0..<100).map { FrontierQueue.Entry(url: "https://example.com/\($0)", depth: 1) }
        entries.forEach(queue.push)
        var popped: [FrontierQueue.Entry] = []
        while let entry = queue.pop() { popped.append(entry) }
        #expect(popped == entries)
        #expect(queue.spilled == 0)
    }
}
