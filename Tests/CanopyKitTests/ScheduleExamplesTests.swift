import CanopyHistory
import CanopyKit
import CanopyTestSupport
import Foundation
import Glibc
import Testing
import Yams

/// The schedules in examples/ (cron, systemd, GitHub Actions, GitLab CI), their configuration and
/// scripts/install.sh: each linted by its platform's schema or tool, each `canopy` command line in
/// them checked against the real command tree, and the ones that can run here run as written.
@Suite("Example schedules")
struct ScheduleExamplesTests {
    // MARK: The configuration

    @Test("examples/canopy.yml loads, and leaves the reports and store relative to where canopy runs")
    func exampleConfigurationLoads() throws {
        let configuration = try CrawlConfiguration.load(contentsOf: ScheduleExamples.path(ScheduleExamples.configuration), environment: [:])
        #expect(!configuration.startURLs.isEmpty)
        // The cron line, the unit and the CI jobs choose the history's folder by their working
        // directory; an `output:` section would tie it to /etc/canopy instead.
        #expect(configuration.output.reports == "Reports")
        #expect(configuration.output.storePath == "Reports/canopy.sqlite")
    }

    // MARK: Linters

    @Test(
        "the GitHub workflow matches GitHub's workflow schema",
        .enabled(if: ScheduleExamples.checkJSONSchema != nil || ScheduleExamples.inCI, "check-jsonschema is not installed (pip install check-jsonschema; .ci/run does): skipped")
    )
    func githubWorkflowMatchesItsSchema() throws {
        try expectSchema("vendor.github-workflows", accepts: ScheduleExamples.github, rejectsItWith: { $0.replacingOccurrences(of: "\non:\n", with: "\nwhen:\n") })
    }

    @Test(
        "the GitLab pipeline matches GitLab's CI schema",
        .enabled(if: ScheduleExamples.checkJSONSchema != nil || ScheduleExamples.inCI, "check-jsonschema is not installed (pip install check-jsonschema; .ci/run does): skipped")
    )
    func gitlabPipelineMatchesItsSchema() throws {
        try expectSchema("vendor.gitlab-ci", accepts: ScheduleExamples.gitlab, rejectsItWith: { $0.replacingOccurrences(of: "  when: always\n", with: "  when: sometimes\n") })
    }

    /// `file` passes check-jsonschema's vendored schema (offline: it ships with the tool), and a
    /// copy broken by `breaking` does not, so a schema that accepts anything cannot pass this test.
    private func expectSchema(_ schema: String, accepts file: String, rejectsItWith breaking: (String) -> String) throws {
        let linter = try #require(ScheduleExamples.checkJSONSchema, "check-jsonschema is not installed, and CI is set: .ci/run installs it")
        let run = try ToolRun.run(linter, ["--builtin-schema", schema, ScheduleExamples.path(file)])
        #expect(run.status == 0, "\(file) against \(schema):\n\(run)")

        let folder = try ReportTestFolder("schema")
        let text = try ScheduleExamples.text(file)
        let broken = breaking(text)
        #expect(broken != text, "the test's breaking edit no longer applies to \(file)")
        let copy = folder.file((file as NSString).lastPathComponent)
        try broken.write(toFile: copy, atomically: true, encoding: .utf8)
        #expect(try ToolRun.run(linter, ["--builtin-schema", schema, copy]).status != 0, "\(schema) accepted a broken copy of \(file)")
    }

    @Test(
        "the systemd units pass systemd-analyze verify, and the service stays hardened",
        .enabled(if: ScheduleExamples.systemdAnalyze != nil || ScheduleExamples.inCI, "systemd-analyze is not installed (apt-get install systemd; .ci/run does): skipped")
    )
    func systemdUnitsVerify() throws {
        let analyze = try #require(ScheduleExamples.systemdAnalyze, "systemd-analyze is not installed, and CI is set: .ci/run installs it")
        let binary = try #require(CommandLineTests.binary, "the canopy executable is not built next to the tests")
        let folder = try ReportTestFolder("systemd")
        // verify insists that ExecStart's program exists: point it at the built canopy.
        func copyUnits(editing edit: (String) -> String = { $0 }) throws -> [String] {
            try [ScheduleExamples.service, ScheduleExamples.timer].map { unit in
                let text = try ScheduleExamples.text(unit).replacingOccurrences(of: "/usr/local/bin/canopy", with: binary.path)
                let copy = folder.file((unit as NSString).lastPathComponent)
                try edit(text).write(toFile: copy, atomically: true, encoding: .utf8)
                return copy
            }
        }
        // --man=no: the Documentation= man page is installed by scripts/install.sh, not here.
        let units = try copyUnits()
        let verify = try ToolRun.run(analyze, ["verify", "--man=no"] + units)
        #expect(verify.status == 0 && verify.stdout.isEmpty && verify.stderr.isEmpty, "systemd-analyze verify:\n\(verify)")
        // Exposure 0.0-10.0, shown as such but given to --threshold times 10: the unit scores about
        // 1.5, an unhardened one 9.6; above 3.0 fails.
        let security = try ToolRun.run(analyze, ["security", "--offline=yes", "--threshold=30", units[0]])
        #expect(security.status == 0, "systemd-analyze security:\n\(security.stdout.split(separator: "\n").suffix(2).joined(separator: "\n"))")

        // verify only warns about a misspelled key; the test treats any output as a failure.
        let misspelled = try copyUnits { $0.replacingOccurrences(of: "SuccessExitStatus=", with: "SucessExitStatus=") }
        let warned = try ToolRun.run(analyze, ["verify", "--man=no"] + misspelled)
        #expect(!(warned.stdout + warned.stderr).isEmpty, "a misspelled key went unnoticed")
    }

    // MARK: What the units and the crontab say

    @Test("the service is a oneshot that treats exit 1 as success, and the timer is persistent and weekly")
    func systemdUnitsSayWhatTheScheduleNeeds() throws {
        let service = try UnitFile(ScheduleExamples.text(ScheduleExamples.service))
        #expect(service.values("Service", "Type") == ["oneshot"])
        #expect(service.values("Service", "SuccessExitStatus").flatMap { $0.split(separator: " ") }.contains("1"))
        let user = try #require(service.values("Service", "User").last)
        #expect(user != "root" && !user.isEmpty)
        #expect(service.values("Service", "WorkingDirectory") == ["/var/lib/canopy"])
        #expect(service.values("Service", "StateDirectory") == ["canopy"], "the store's folder must stay writable under ProtectSystem=strict")
        #expect(service.values("Service", "ProtectSystem") == ["strict"])
        let start = try #require(service.values("Service", "ExecStart").last)
        #expect(start.hasPrefix("/usr/bin/flock "), "\(start)")

        let timer = try UnitFile(ScheduleExamples.text(ScheduleExamples.timer))
        #expect(timer.values("Timer", "Persistent") == ["true"])
        let calendar = try #require(timer.values("Timer", "OnCalendar").last)
        // One weekday, one time: weekly.
        let fields = calendar.split(separator: " ")
        #expect(fields.count == 3 && ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].contains(String(fields[0])), "\(calendar)")
        #expect(fields.count == 3 && fields[1] == "*-*-*")
    }

    @Test("the crontab has one weekly job whose time fields are in range")
    func crontabFieldsAreValid() throws {
        let job = try CrontabJob.only(in: ScheduleExamples.text(ScheduleExamples.cron))
        let problems = job.fieldProblems()
        #expect(problems.isEmpty, "\(problems)")
        #expect(job.fields[2] == "*" && job.fields[3] == "*", "day of month and month must be * for a weekly job")
        #expect(!job.fields[4].contains(where: { ",-/*".contains($0) }), "one day of the week: \(job.fields[4])")
        #expect(!job.command.contains("%"), "cron turns % into a newline: escape it")
        #expect(job.command.contains("flock -n "), "runs must never overlap")
    }

    // MARK: Every canopy command line

    /// The command lines these examples and the README give, each with where it came from.
    static func invocations() throws -> [(source: String, arguments: [String])] {
        var found: [(String, [String])] = []
        func scan(_ text: String, _ source: String) {
            for line in ShellWords.logicalLines(text) {
                for arguments in ShellWords.canopyInvocations(in: line) { found.append((source, arguments)) }
            }
        }
        scan(try CrontabJob.only(in: ScheduleExamples.text(ScheduleExamples.cron)).command, ScheduleExamples.cron)
        for start in try UnitFile(ScheduleExamples.text(ScheduleExamples.service)).values("Service", "ExecStart") {
            scan(start, ScheduleExamples.service)
        }
        for step in try CIScripts.githubSteps() { scan(step.script, "\(ScheduleExamples.github): \(step.name)") }
        for (job, script) in try CIScripts.gitlabScripts() { scan(script, "\(ScheduleExamples.gitlab): \(job)") }
        for block in try CIScripts.readmeShellBlocks() { scan(block, "README.md") }
        return found
    }

    @Test("every canopy command line in the examples and the README parses with canopy's own command tree")
    func everyCanopyCommandLineParses() throws {
        let tree = try #require(CanopyCommandTree.current, "could not read `canopy --experimental-dump-help` from the built canopy")
        let invocations = try Self.invocations()
        for (source, arguments) in invocations {
            let problems = tree.problems(arguments)
            #expect(problems.isEmpty, "\(source): canopy \(arguments.joined(separator: " ")): \(problems)")
        }
        // The lines each schedule depends on are really there (and so were checked above).
        func uses(_ source: String, _ prefix: [String]) -> Bool {
            invocations.contains { $0.source.hasPrefix(source) && $0.arguments.starts(with: prefix) }
        }
        for schedule in [ScheduleExamples.cron, ScheduleExamples.service] {
            #expect(uses(schedule, ["crawl", "--config", "/etc/canopy/canopy.yml"]), "\(schedule)")
        }
        for pipeline in [ScheduleExamples.github, ScheduleExamples.gitlab] {
            #expect(uses(pipeline, ["store", "import", "canopy-store.sqlite.gz", "--new-history-if-unusable"]), "\(pipeline)")
            #expect(uses(pipeline, ["crawl", "--config", ShellWords.placeholder]), "\(pipeline)")
            #expect(uses(pipeline, ["store", "export", "-o", "canopy-store.sqlite.gz"]), "\(pipeline)")
        }
        // The validator itself rejects what the parser rejects.
        #expect(!tree.problems(["crawl", "--confg", "x.yml"]).isEmpty)
        #expect(!tree.problems(["crawl", "--config"]).isEmpty)
        #expect(!tree.problems(["crawl", "--quiet=yes"]).isEmpty)
        #expect(!tree.problems(["baseline", "craete"]).isEmpty)
        #expect(!tree.problems(["report", "extra"]).isEmpty)
        #expect(tree.problems(["crawl", "--config", "x.yml", "--quiet", "https://example.com/"]).isEmpty)
    }

    @Test("the shell splitting finds canopy behind flock, assignments and ${NAME:+...}")
    func shellWordsFindInvocations() {
        #expect(
            ShellWords.canopyInvocations(in: "cd /x && flock -n /x/l canopy crawl --config /c.yml --quiet >>/x/log 2>&1")
                == [["crawl", "--config", "/c.yml", "--quiet"]]
        )
        #expect(
            ShellWords.canopyInvocations(in: #"canopy crawl --config "$C" ${W:+--notify "$W"} || status=$?"#)
                == [["crawl", "--config", "VALUE", "--notify", "VALUE"]]
        )
        #expect(ShellWords.canopyInvocations(in: "/usr/bin/flock --nonblock -E 75 /l /usr/local/bin/canopy report # canopy check") == [["report"]])
        #expect(ShellWords.canopyInvocations(in: "echo canopy crawl; X=1 canopy rules").count == 1)
    }

    // MARK: Running the schedules as written

    /// A small site with violations, as a weekly crawl usually finds. (The interface gives exit 1
    /// for that; today's crawl exits 0 and records them. The schedules accept both.)
    static func site() throws -> TestHTTPServer {
        try TestHTTPServer.routes([
            "/": .html(
                "<!DOCTYPE html><html lang=en><head><title>Shop</title></head><body><main><h1>Shop</h1>"
                    + "<a href=/about>About</a> <a href=/products>Products</a><img src=logo.png></main></body></html>"
            ),
            "/about": .html("<!DOCTYPE html><html lang=en><head><title>About</title></head><body><main><h1>About</h1></main></body></html>"),
            "/products": .html(
                "<!DOCTYPE html><html lang=en><head><title>Products</title></head><body><main><h1>Products</h1>"
                    + "<div class=chat-widget><button></button></div></main></body></html>"
            ),
        ])
    }

    /// examples/canopy.yml, crawling `server` instead of www.example.com.
    static func configuration(for server: TestHTTPServer, at path: String) throws {
        let text = try ScheduleExamples.text(ScheduleExamples.configuration)
        #expect(text.contains("https://www.example.com/"))
        try text.replacingOccurrences(of: "https://www.example.com/", with: server.url("/")).write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func runCount(_ reports: String) throws -> Int {
        try TrendReport.decode(Data(contentsOf: URL(fileURLWithPath: reports + "/trend.json"))).runs.count
    }

    /// Holds an exclusive flock(2) on `path` (as a running crawl would) until the returned descriptor is closed.
    static func holdLock(_ path: String) throws -> Int32 {
        let descriptor = open(path, O_CREAT | O_RDWR, 0o644)
        try #require(descriptor >= 0)
        try #require(flock(descriptor, LOCK_EX | LOCK_NB) == 0)
        return descriptor
    }

    @Test("the crontab's command crawls in its folder, and skips the week while the lock is held")
    func crontabCommandRuns() throws {
        let binaryFolder = try #require(ScheduleExamples.binaryFolder, "the canopy executable is not built next to the tests")
        let server = try Self.site()
        defer { server.stop() }
        let folder = try ReportTestFolder("cron")
        let home = folder.file("var-lib-canopy"), config = folder.file("canopy.yml")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try Self.configuration(for: server, at: config)
        let cron = try ScheduleExamples.text(ScheduleExamples.cron)
        let job = try CrontabJob.only(in: cron)
        let command = job.command.replacingOccurrences(of: "/var/lib/canopy", with: home).replacingOccurrences(of: "/etc/canopy/canopy.yml", with: config)
        // cron runs the line with the crontab's SHELL and PATH; canopy is the built one here.
        let path = binaryFolder + ":" + (job.environment["PATH"] ?? "/usr/bin:/bin")
        let shell = job.environment["SHELL"] ?? "/bin/sh"

        let first = try ToolRun.run(shell, ["-c", command], environment: ["PATH": path])
        let log = (try? String(contentsOfFile: home + "/crawl.log", encoding: .utf8)) ?? ""
        #expect(first.status == 0 || first.status == 1, "\(first)\n--- crawl.log:\n\(log)")
        #expect(try Self.runCount(home + "/Reports") == 1)
        #expect(FileManager.default.fileExists(atPath: home + "/Reports/index.html"))
        #expect(FileManager.default.fileExists(atPath: home + "/Reports/canopy.sqlite"))

        let lock = try Self.holdLock(home + "/crawl.lock")
        defer { close(lock) }
        let skipped = try ToolRun.run(shell, ["-c", command], environment: ["PATH": path])
        #expect(skipped.status != 0)
        #expect(try Self.runCount(home + "/Reports") == 1, "a crawl ran although the lock was held")
    }

    @Test("the service's ExecStart crawls in its WorkingDirectory, and exits 75 while the lock is held")
    func serviceCommandRuns() throws {
        let binary = try #require(CommandLineTests.binary, "the canopy executable is not built next to the tests")
        let server = try Self.site()
        defer { server.stop() }
        let folder = try ReportTestFolder("service")
        let home = folder.file("var-lib-canopy"), config = folder.file("canopy.yml")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        try Self.configuration(for: server, at: config)
        let unit = try UnitFile(ScheduleExamples.text(ScheduleExamples.service))
        let start = try #require(unit.values("Service", "ExecStart").last)
            .replacingOccurrences(of: "/usr/local/bin/canopy", with: binary.path)
            .replacingOccurrences(of: "/var/lib/canopy", with: home)
            .replacingOccurrences(of: "/etc/canopy/canopy.yml", with: config)
        // systemd runs ExecStart without a shell: split it and run the words.
        let words = ShellWords.tokens(start).compactMap { token -> String? in if case .word(let word) = token { word } else { nil } }
        let successes = Set(unit.values("Service", "SuccessExitStatus").flatMap { $0.split(separator: " ") }.compactMap { Int32($0) } + [0])
        let directory = try #require(unit.values("Service", "WorkingDirectory").last).replacingOccurrences(of: "/var/lib/canopy", with: home)

        let first = try ToolRun.run(words[0], Array(words.dropFirst()), in: directory)
        #expect(successes.contains(first.status) && successes.isSuperset(of: [0, 1]), "\(first)")
        #expect(try Self.runCount(home + "/Reports") == 1)

        let lock = try Self.holdLock(home + "/crawl.lock")
        defer { close(lock) }
        let skipped = try ToolRun.run(words[0], Array(words.dropFirst()), in: directory)
        #expect(skipped.status == 75 && !successes.contains(skipped.status), "\(skipped)")
        #expect(try Self.runCount(home + "/Reports") == 1)
    }

    @Test("the GitHub workflow's steps keep the history from one fresh runner to the next")
    func githubStepsCarryTheStore() throws {
        let binaryFolder = try #require(ScheduleExamples.binaryFolder, "the canopy executable is not built next to the tests")
        let server = try Self.site()
        defer { server.stop() }
        let folder = try ReportTestFolder("github")
        let config = folder.file("canopy.yml")
        try Self.configuration(for: server, at: config)
        // The steps that run canopy, in order; checkout, build and the artifact actions are GitHub's.
        let steps = try CIScripts.githubSteps().filter { step in
            ShellWords.logicalLines(step.script).flatMap(ShellWords.canopyInvocations).contains { ["store", "crawl"].contains($0.first) }
        }
        #expect(steps.map(\.name) == ["Restore the history", "Crawl", "Save the history for next week"])

        func week(_ name: String, restoring store: String?) throws -> String {
            let workspace = folder.file(name)
            try FileManager.default.createDirectory(atPath: workspace, withIntermediateDirectories: true)
            if let store { try FileManager.default.copyItem(atPath: store, toPath: workspace + "/canopy-store.sqlite.gz") }
            let output = workspace + "/github-output"
            guard FileManager.default.createFile(atPath: output, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
            for step in steps {
                // As GitHub runs `shell: bash`.
                let run = try ToolRun.run(
                    "/bin/bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", step.script], in: workspace,
                    environment: ["PATH": binaryFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                                  "CANOPY_CONFIG": config, "GITHUB_OUTPUT": output, "CANOPY_WEBHOOK": nil]
                )
                #expect(run.status == 0, "\(name), step \(step.name): \(run)")
            }
            let recorded = try String(contentsOfFile: output, encoding: .utf8)
            #expect(recorded == "status=0\n" || recorded == "status=1\n", "\(name): the crawl step records canopy's exit status for the last step")
            for file in ["canopy-store.sqlite.gz", "Reports/index.html", "Reports/digest.md", "Reports/open-issues.sarif"] {
                #expect(FileManager.default.fileExists(atPath: workspace + "/" + file), "\(name): \(file), which later steps upload")
            }
            return workspace
        }

        let first = try week("week-1", restoring: nil)
        #expect(try Self.runCount(first + "/Reports") == 1)
        let second = try week("week-2", restoring: first + "/canopy-store.sqlite.gz")
        #expect(try Self.runCount(second + "/Reports") == 2, "the second runner continued the first one's history")

        // A corrupt download starts a new history instead of failing the job.
        let corrupt = folder.file("corrupt.sqlite.gz")
        try Data("not a store".utf8).write(to: URL(fileURLWithPath: corrupt))
        let third = try week("week-3", restoring: corrupt)
        #expect(try Self.runCount(third + "/Reports") == 1)
    }

    @Test(
        "the GitLab job's script keeps the history through the artifacts API",
        .enabled(if: ScheduleExamples.tool("curl") != nil || ScheduleExamples.inCI, "curl is not installed: skipped")
    )
    func gitlabScriptCarriesTheStore() throws {
        let binaryFolder = try #require(ScheduleExamples.binaryFolder, "the canopy executable is not built next to the tests")
        let site = try Self.site()
        defer { site.stop() }
        // GitLab's API, answering the one request the job makes: the latest successful job's store.
        let artifact = LockedState<[UInt8]?>(nil)
        let api = try TestHTTPServer { request in
            guard request.pathWithoutQuery == "/api/v4/projects/7/jobs/artifacts/main/raw/canopy-store.sqlite.gz",
                request.path.hasSuffix("?job=canopy-weekly"),
                request.headers.contains(where: { $0.name.lowercased() == "job-token" && $0.value == "job-token-value" }),
                let bytes = artifact.withLock({ $0 })
            else { return .notFound }
            return TestHTTPResponse(headers: [("Content-Type", "application/octet-stream")], body: bytes)
        }
        defer { api.stop() }
        let folder = try ReportTestFolder("gitlab")
        let config = folder.file("canopy.yml")
        try Self.configuration(for: site, at: config)
        let script = try #require(CIScripts.gitlabScripts().first { $0.job == "canopy-weekly script" }?.script)

        func week(_ name: String) throws -> String {
            let project = folder.file(name)
            try FileManager.default.createDirectory(atPath: project, withIntermediateDirectories: true)
            let run = try ToolRun.run(
                "/bin/bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], in: project,
                environment: [
                    "PATH": binaryFolder + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                    "CANOPY_CONFIG": config, "CANOPY_WEBHOOK": nil,
                    "CI_API_V4_URL": api.url("/api/v4"), "CI_PROJECT_ID": "7", "CI_DEFAULT_BRANCH": "main",
                    "CI_JOB_NAME": "canopy-weekly", "CI_JOB_TOKEN": "job-token-value",
                ]
            )
            #expect(run.status == 0, "\(name): \(run)")
            // What `artifacts: paths` keeps: the store file and Reports/ (without the raw store).
            for file in ["canopy-store.sqlite.gz", "Reports/index.html", "Reports/open-issues.sarif"] {
                #expect(FileManager.default.fileExists(atPath: project + "/" + file), "\(name): \(file)")
            }
            #expect(!FileManager.default.fileExists(atPath: project + "/Reports/canopy.sqlite"))
            return project
        }

        let first = try week("week-1")
        #expect(try Self.runCount(first + "/Reports") == 1)
        artifact.withLock { $0 = Array(FileManager.default.contents(atPath: first + "/canopy-store.sqlite.gz") ?? Data()) }
        let second = try week("week-2")
        #expect(try Self.runCount(second + "/Reports") == 2, "the second job continued the first one's history")
    }

    // MARK: Installing

    @Test("scripts/install.sh is valid bash and installs a built canopy with its completions, DESTDIR honoured")
    func installScriptInstalls() throws {
        let binary = try #require(CommandLineTests.binary, "the canopy executable is not built next to the tests")
        let script = ScheduleExamples.path(ScheduleExamples.installScript)
        #expect(FileManager.default.isExecutableFile(atPath: script))
        let syntax = try ToolRun.run("/bin/bash", ["-n", script])
        #expect(syntax.status == 0, "\(syntax)")

        // No build here (a release build takes minutes): install the test build, without the man page.
        let folder = try ReportTestFolder("install")
        let stage = folder.file("stage")
        let run = try ToolRun.run("/bin/bash", [script, "--prefix", "/opt/canopy", "--binary", binary.path, "--no-man"], environment: ["DESTDIR": stage])
        #expect(run.status == 0, "\(run)")
        let root = stage + "/opt/canopy"
        #expect(FileManager.default.isExecutableFile(atPath: root + "/bin/canopy"))
        for (file, shell) in [
            ("share/bash-completion/completions/canopy", "bash"), ("share/zsh/site-functions/_canopy", "zsh"),
            ("share/fish/vendor_completions.d/canopy.fish", "fish"),
        ] {
            let text = (try? String(contentsOfFile: root + "/" + file, encoding: .utf8)) ?? ""
            #expect(text.contains("crawl") && text.contains("baseline"), "\(shell) completion in \(file)")
        }
        let bash = try ToolRun.run("/bin/bash", ["-n", root + "/share/bash-completion/completions/canopy"])
        #expect(bash.status == 0, "\(bash)")

        let relative = try ToolRun.run("/bin/bash", [script, "--prefix", "relative/path", "--binary", binary.path, "--no-man"])
        #expect(relative.status == 2, "\(relative)")
        let unknown = try ToolRun.run("/bin/bash", [script, "--prefx", "/x"])
        #expect(unknown.status == 2, "\(unknown)")
    }

    // MARK: The README

    @Test("the README's scheduled-crawls section links every example, and the install command")
    func readmeLinksTheExamples() throws {
        let readme = try ScheduleExamples.text("README.md")
        let section = try #require(readme.components(separatedBy: "\n## Scheduled crawls\n").dropFirst().first?.components(separatedBy: "\n## ").first)
        for file in [ScheduleExamples.cron, ScheduleExamples.service, ScheduleExamples.timer, ScheduleExamples.github, ScheduleExamples.gitlab, ScheduleExamples.configuration] {
            #expect(section.contains("](\(file))"), "the section links \(file)")
            #expect(FileManager.default.fileExists(atPath: ScheduleExamples.path(file)))
        }
        #expect(section.contains("scripts/install.sh"))
    }
}

/// A systemd unit file: values by section and key, in order (a key may repeat).
struct UnitFile {
    private var entries: [(section: String, key: String, value: String)] = []

    init(_ text: String) {
        var section = ""
        for line in ShellWords.logicalLines(text) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix(";") { continue }
            if trimmed.hasPrefix("["), trimmed.hasSuffix("]") {
                section = String(trimmed.dropFirst().dropLast())
            } else if let equals = trimmed.firstIndex(of: "=") {
                entries.append((section, trimmed[..<equals].trimmingCharacters(in: .whitespaces), trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)))
            }
        }
    }

    func values(_ section: String, _ key: String) -> [String] {
        entries.filter { $0.section == section && $0.key == key }.map(\.value)
    }
}

/// The one job line of a user crontab, with the variables set above it.
struct CrontabJob {
    let fields: [String]
    let command: String
    let environment: [String: String]

    struct Failure: Error, CustomStringConvertible { let description: String }

    static func only(in text: String) throws -> CrontabJob {
        var environment: [String: String] = [:]
        var jobs: [CrontabJob] = []
        for line in text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) where !line.isEmpty && !line.hasPrefix("#") {
            let parts = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true).map(String.init)
            if let equals = line.firstIndex(of: "="), !line[..<equals].contains(" ") {
                environment[String(line[..<equals])] = String(line[line.index(after: equals)...]).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            } else if parts.count == 6 {
                jobs.append(CrontabJob(fields: Array(parts.prefix(5)), command: parts[5].trimmingCharacters(in: .whitespaces), environment: environment))
            } else {
                throw Failure(description: "neither a variable nor a job with five time fields: \(line)")
            }
        }
        guard jobs.count == 1, let job = jobs.first else { throw Failure(description: "expected one job line, found \(jobs.count)") }
        return job
    }

    /// Each field as cron(8) reads it: lists of `*`, numbers, names and ranges, each with an optional `/step`.
    func fieldProblems() -> [String] {
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        let days = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]
        let rules: [(name: String, range: ClosedRange<Int>, names: [String], firstName: Int)] = [
            ("minute", 0...59, [], 0), ("hour", 0...23, [], 0), ("day of month", 1...31, [], 1), ("month", 1...12, months, 1),
            ("day of week", 0...7, days, 0),
        ]
        var problems: [String] = []
        for (field, rule) in zip(fields, rules) {
            func value(_ text: Substring) -> Int? {
                if let number = Int(text) { return rule.range.contains(number) ? number : nil }
                return rule.names.firstIndex(of: text.lowercased()).map { $0 + rule.firstName }
            }
            for item in field.split(separator: ",", omittingEmptySubsequences: false) {
                let stepParts = item.split(separator: "/", omittingEmptySubsequences: false)
                if stepParts.count > 2 || (stepParts.count == 2 && (Int(stepParts[1]) ?? 0) < 1) {
                    problems.append("\(rule.name): bad step in \(item)")
                    continue
                }
                let base = stepParts[0]
                if base == "*" { continue }
                let bounds = base.split(separator: "-", omittingEmptySubsequences: false)
                let values = bounds.map(value)
                if bounds.count > 2 || values.contains(where: { $0 == nil }) {
                    problems.append("\(rule.name): \(item) is out of \(rule.range)")
                } else if bounds.count == 2, let low = values[0], let high = values[1], low > high {
                    problems.append("\(rule.name): \(item) is an empty range")
                }
            }
        }
        return problems
    }
}

/// The shell scripts of the CI examples, read as the platforms read them.
enum CIScripts {
    /// The `run` steps of every job of the GitHub workflow, in order.
    static func githubSteps() throws -> [(name: String, script: String)] {
        // [AnyHashable: Any]: YAML 1.1 reads the key `on` as the boolean true.
        let workflow = try #require(try Yams.load(yaml: ScheduleExamples.text(ScheduleExamples.github)) as? [AnyHashable: Any])
        let jobs = try #require(workflow["jobs"] as? [String: Any])
        var steps: [(String, String)] = []
        for name in jobs.keys.sorted() {
            for step in (jobs[name] as? [String: Any])?["steps"] as? [[String: Any]] ?? [] {
                if let script = step["run"] as? String { steps.append((step["name"] as? String ?? script, script)) }
            }
        }
        return steps
    }

    /// Each GitLab job's `before_script`, `script` and `after_script`, each as one shell script
    /// (the runner runs a section's lines in one shell, stopping at the first failure).
    static func gitlabScripts() throws -> [(job: String, script: String)] {
        let pipeline = try #require(try Yams.load(yaml: ScheduleExamples.text(ScheduleExamples.gitlab)) as? [String: Any])
        var scripts: [(String, String)] = []
        for name in pipeline.keys.sorted() {
            guard let job = pipeline[name] as? [String: Any] else { continue }
            for section in ["before_script", "script", "after_script"] {
                if let lines = job[section] as? [String] { scripts.append(("\(name) \(section)", lines.joined(separator: "\n"))) }
            }
        }
        return scripts
    }

    /// The README's ```sh blocks.
    static func readmeShellBlocks() throws -> [String] {
        let readme = try ScheduleExamples.text("README.md")
        return readme.components(separatedBy: "```sh\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
    }
}
