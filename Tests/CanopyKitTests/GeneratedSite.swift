import CanopyTestSupport
import Foundation

/// A generated site for crawls that are stopped or killed midway: pages `/p/0` … `/p/N-1` in a
/// tree (each links to three children, to `/p/0` and to its neighbour), and on every 25th page a
/// redirect to the page itself (`/r/i`: recorded as a duplicate), a redirect to a page found no
/// other way (`/old/i` to `/q/i`: audited under the link's URL) and a broken link (`/missing/i`),
/// so that what a complete crawl records does not depend on the order pages finish. Every page has one
/// known violation (an image without alt). Responses wait a few milliseconds, so that transfers
/// overlap and a stop lands among pages in every state.
struct GeneratedSite: Sendable {
    let pageCount: Int

    var startPath: String { "/p/0" }

    func response(for path: String) -> TestHTTPResponse {
        let parts = path.split(separator: "/")
        guard parts.count == 2, let index = Int(parts[1]), index >= 0, index < pageCount else { return .notFound }
        switch parts[0] {
        case "p": return page(index).delayed(by: .milliseconds(1 + index % 4))
        case "r" where index % 25 == 0: return .redirect(to: "/p/\(index)")
        case "old" where index % 25 == 0: return .redirect(to: "/q/\(index)", status: 301)
        case "q" where index % 25 == 0: return sitePage("Moved \(index)", links: ["/p/0"], extra: "<img src=\"/img/q\(index).png\">")
        default: return .notFound
        }
    }

    private func page(_ index: Int) -> TestHTTPResponse {
        var links = (1...3).map { 3 * index + $0 }.filter { $0 < pageCount }.map { "/p/\($0)" }
        links += ["/p/0", "/p/\((index + 1) % pageCount)"]
        if index % 25 == 0 { links += ["/r/\(index)", "/old/\(index)", "/missing/\(index)"] }
        return sitePage("Page \(index)", links: links, extra: "<img src=\"/img/\(index).png\">")
    }

    /// Every path a complete crawl records, each once.
    var recordedPaths: Set<String> {
        var paths = Set((0..<pageCount).map { "/p/\($0)" })
        for index in stride(from: 0, to: pageCount, by: 25) { paths.formUnion(["/r/\(index)", "/old/\(index)", "/missing/\(index)"]) }
        return paths
    }

    /// The pages a complete crawl audits.
    var auditedCount: Int { pageCount + (pageCount + 24) / 25 }

    static func isPage(_ path: String) -> Bool {
        ["/p/", "/r/", "/old/", "/q/", "/missing/"].contains { path.hasPrefix($0) }
    }
}

/// Counts the page requests a test server receives and, once, does something when their number
/// reaches a mark: stops or kills the crawler at a chosen point of its work rather than at a
/// chosen time, which a busy machine would shift.
final class Tripwire: Sendable {
    private struct State {
        var pageRequests = 0
        var mark: Int?
        var action: (@Sendable () -> Void)?
    }

    private let state = LockedState(State())

    init() {}

    /// `action` runs on the server thread of the request that reaches `count` more page requests.
    func arm(after count: Int, _ action: @escaping @Sendable () -> Void) {
        state.withLock { state in
            state.mark = state.pageRequests + max(1, count)
            state.action = action
        }
    }

    func disarm() {
        state.withLock { state in
            state.mark = nil
            state.action = nil
        }
    }

    var pageRequests: Int { state.withLock { $0.pageRequests } }

    /// For the server's handler: counts the request and fires when the mark is reached.
    func note(_ request: TestHTTPRequest) {
        guard GeneratedSite.isPage(request.pathWithoutQuery) else { return }
        let fire: (@Sendable () -> Void)? = state.withLock { state in
            state.pageRequests += 1
            guard let mark = state.mark, state.pageRequests >= mark else { return nil }
            defer { state.mark = nil; state.action = nil }
            return state.action
        }
        fire?()
    }
}

extension TestHTTPServer {
    /// Serves `site`, noting every request on `tripwire`.
    static func serving(_ site: GeneratedSite, tripwire: Tripwire) throws -> TestHTTPServer {
        try TestHTTPServer { request in
            tripwire.note(request)
            return site.response(for: request.pathWithoutQuery)
        }
    }

    /// The paths of the requests received since the `from`-th.
    func requestedPaths(from start: Int) -> [String] {
        Array(requests.dropFirst(start).map(\.pathWithoutQuery))
    }
}
