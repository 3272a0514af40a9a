import CanopyStore
import CanopyTestSupport
import Foundation
import Glibc
import Testing

/// Credentials from `${ENV}` variables, followed through the real `canopy crawl`: sent to the
/// site, and nowhere else — not the store (its raw bytes, write-ahead log included), the results,
/// the reports, or the logs.
struct SecretsEndToEndTests {
    @Test("auth header and cookie values from the environment reach the server and appear in no file and no log")
    func secretsStayInTheRequests() throws {
        let token = "tok-\(UUID().uuidString)"
        let session = "ses-\(UUID().uuidString)"
        let site = GeneratedSite(pageCount: 120)
        let tripwire = Tripwire()
        let refused = LockedState(0)
        let server = try TestHTTPServer { request in
            tripwire.note(request)
            // Only a request with both credentials gets the site; without them, a 401.
            guard request.header("X-Staging-Token") == token,
                  request.headerValues("Cookie").contains(where: { $0.contains("session=\(session)") })
            else {
                refused.withLock { $0 += 1 }
                return .text("credentials required", status: 401)
            }
            return site.response(for: request.pathWithoutQuery)
        }
        defer { server.stop() }
        let folder = try ReportTestFolder("secrets")
        let config = folder.file("canopy.yml")
        try """
            start: \(server.url(site.startPath))
            auth:
              headers:
                X-Staging-Token: "${CANOPY_E2E_TOKEN}"
              cookies:
                session: "${CANOPY_E2E_SESSION}"
                consent: accepted
            politeness:
              concurrency: 4
            output:
              reports: Reports
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let environment = ["CANOPY_E2E_TOKEN": token, "CANOPY_E2E_SESSION": session]

        let complete = try CanopyProcess.run(["crawl", "--config", config, "--verbose"], environment: environment)
        #expect(complete.status == 1, "\(complete.description)")
        #expect(complete.stderr.contains("/missing/0"), "--verbose logs the broken links: \(complete.stderr)")
        // A second crawl killed mid-run leaves its last writes in the write-ahead log.
        let killed = try CanopyProcess(["crawl", "--config", config, "--verbose"], environment: environment)
        let pid = killed.pid
        tripwire.arm(after: 60) { kill(pid, SIGKILL) }
        let killedEnding = try killed.wait()
        #expect(killedEnding.killedBySignal, "\(killedEnding.description)")

        #expect(refused.withLock { $0 } == 0, "every request carried both credentials")
        let pageRequests = server.requests.filter { GeneratedSite.isPage($0.pathWithoutQuery) }
        #expect(pageRequests.count > site.pageCount)
        #expect(pageRequests.allSatisfy { $0.header("X-Staging-Token") == token })
        #expect(pageRequests.allSatisfy { $0.header("Cookie") == "session=\(session); consent=accepted" })

        var files: [String] = []
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder.path))
        while let relative = enumerator.nextObject() as? String {
            var isFolder: ObjCBool = false
            let path = folder.file(relative)
            if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue { files.append(relative) }
        }
        for expected in ["Reports/canopy.sqlite", "Reports/results.jsonl", "Reports/run-summary.json", "Reports/index.html", "Reports/trend.json"] {
            #expect(files.contains(expected), "\(expected) among \(files.sorted())")
        }
        #expect(files.contains("Reports/canopy.sqlite-wal"), "the killed crawl left a write-ahead log: \(files.sorted())")
        let secrets = [token, session].map { Data($0.utf8) }
        for relative in files {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: folder.file(relative)))
            for secret in secrets { #expect(bytes.range(of: secret) == nil, "a secret in \(relative)") }
        }
        for (name, output) in [("stdout", complete.stdout), ("stderr", complete.stderr), ("killed stdout", killedEnding.stdout), ("killed stderr", killedEnding.stderr)] {
            for secret in [token, session] { #expect(!output.contains(secret), "a secret in \(name)") }
        }
        #expect(try RunStore(path: folder.file("Reports/canopy.sqlite"), readOnly: true).runs().map(\.status) == [.complete, .running])
    }
}
