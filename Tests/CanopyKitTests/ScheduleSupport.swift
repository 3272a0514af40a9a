import CanopyTestSupport
import Foundation

/// The example schedules under examples/, the tools that lint them, and a way to run commands
/// the way cron, systemd and CI runners do.
enum ScheduleExamples {
    static func path(_ relative: String) -> String { SharedFixtures.repositoryRoot.appendingPathComponent(relative).path }

    static func text(_ relative: String) throws -> String { try String(contentsOfFile: path(relative), encoding: .utf8) }

    static let cron = "examples/cron/canopy.crontab"
    static let service = "examples/systemd/canopy-crawl.service"
    static let timer = "examples/systemd/canopy-crawl.timer"
    static let github = "examples/github/canopy-weekly.yml"
    static let gitlab = "examples/gitlab/canopy-weekly.gitlab-ci.yml"
    static let configuration = "examples/canopy.yml"
    static let installScript = "scripts/install.sh"

    /// CI installs the linters (.ci/run), so there a missing one is a failure, not a skip.
    static let inCI = !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty

    /// `name` on PATH, if installed.
    static func tool(_ name: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    static let checkJSONSchema = tool("check-jsonschema")
    static let systemdAnalyze = tool("systemd-analyze")

    /// The folder of the built canopy, to put first on a schedule's PATH.
    static var binaryFolder: String? { CommandLineTests.binary?.deletingLastPathComponent().path }
}

/// A finished child process.
struct ToolRun: CustomStringConvertible {
    let status: Int32
    let stdout: String
    let stderr: String

    var description: String { "exit \(status)\n--- stdout:\n\(stdout)\n--- stderr:\n\(stderr)" }

    /// Runs `executable` to its end; its output goes to files, so a chatty tool never blocks on a pipe.
    /// `environment` replaces the inherited values it names (a nil value removes one).
    static func run(_ executable: String, _ arguments: [String], in folder: String? = nil, environment: [String: String?] = [:]) throws -> ToolRun {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("canopy-tool-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out"), errURL = scratch.appendingPathComponent("err")
        guard FileManager.default.createFile(atPath: outURL.path, contents: nil), FileManager.default.createFile(atPath: errURL.path, contents: nil)
        else { throw CocoaError(.fileWriteUnknown) }
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        var merged = ProcessInfo.processInfo.environment
        for (name, value) in environment { merged[name] = value }
        process.environment = merged
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return ToolRun(
            status: process.terminationStatus,
            stdout: try String(contentsOf: outURL, encoding: .utf8), stderr: try String(contentsOf: errURL, encoding: .utf8)
        )
    }
}

/// Word splitting for the command lines in crontabs, unit files, CI scripts and the README: enough
/// of the shell to find each `canopy` invocation and its arguments. Quotes are removed, every
/// parameter expansion becomes the placeholder `VALUE`, and `${NAME:+words}` expands to its
/// words, as when NAME is set, so options written that way are checked too.
enum ShellWords {
    enum Token: Equatable {
        case word(String)
        /// `&&`, `||`, `|`, `;`, `;;`: ends a simple command.
        case separator
    }

    static let placeholder = "VALUE"

    /// Joins lines continued with a backslash.
    static func logicalLines(_ text: String) -> [String] {
        var lines: [String] = []
        var pending = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasSuffix("\\") {
                pending += line.dropLast() + " "
            } else {
                lines.append(pending + line)
                pending = ""
            }
        }
        if !pending.isEmpty { lines.append(pending) }
        return lines
    }

    static func tokens(_ line: String) -> [Token] {
        var tokens: [Token] = []
        var characters = Array(line)[...]
        var word = ""
        var inWord = false
        var skipNextWord = false // the target of a redirection

        func finishWord() {
            if inWord {
                if skipNextWord { skipNextWord = false } else { tokens.append(.word(word)) }
            }
            word = ""
            inWord = false
        }

        /// Reads a parameter expansion after `$`; returns the words it stands for when it is
        /// `${NAME:+words}`, else nil (it is then one placeholder inside the current word).
        func expansion() -> [Token]? {
            guard let first = characters.first else { return nil }
            if first == "{" {
                var depth = 0
                var body = ""
                while let character = characters.popFirst() {
                    if character == "{" { depth += 1; if depth == 1 { continue } }
                    if character == "}" { depth -= 1; if depth == 0 { break } }
                    body.append(character)
                }
                if let range = body.range(of: ":+") { return ShellWords.tokens(String(body[range.upperBound...])) }
                return nil
            }
            if first == "?" || first == "$" || first == "#" || first.isNumber {
                characters.removeFirst()
                return nil
            }
            while let character = characters.first, character.isLetter || character.isNumber || character == "_" { characters.removeFirst() }
            return nil
        }

        while let character = characters.popFirst() {
            switch character {
            case " ", "\t":
                finishWord()
            case "#" where !inWord:
                characters = []
            case "'":
                inWord = true
                while let quoted = characters.popFirst(), quoted != "'" { word.append(quoted) }
            case "\"":
                inWord = true
                while let quoted = characters.popFirst(), quoted != "\"" {
                    if quoted == "\\", let escaped = characters.popFirst() {
                        word.append(escaped)
                    } else if quoted == "$" {
                        _ = expansion()
                        word += placeholder
                    } else {
                        word.append(quoted)
                    }
                }
            case "\\":
                inWord = true
                if let escaped = characters.popFirst() { word.append(escaped) }
            case "$":
                if let words = expansion() {
                    finishWord()
                    tokens += words
                } else {
                    inWord = true
                    word += placeholder
                }
            case "&", "|", ";":
                finishWord()
                if let next = characters.first, next == character { characters.removeFirst() }
                tokens.append(.separator)
            case ">", "<":
                // `>>file`, `> file`, `2>&1`: the redirection and its target are not arguments.
                if inWord, word.allSatisfy(\.isNumber) { word = "" ; inWord = false }
                finishWord()
                if characters.first == ">" { characters.removeFirst() }
                if characters.first == "&" {
                    characters.removeFirst()
                    while let next = characters.first, next.isNumber { characters.removeFirst() }
                } else {
                    while characters.first == " " { characters.removeFirst() }
                    skipNextWord = true
                }
            default:
                inWord = true
                word.append(character)
            }
        }
        finishWord()
        return tokens
    }

    /// The argument lists of every `canopy` invocation in `line`: as a command of its own, after
    /// `flock [options] LOCKFILE`, after variable assignments, or as a path ending in /canopy.
    static func canopyInvocations(in line: String) -> [[String]] {
        var invocations: [[String]] = []
        var command: [String] = []
        func finish() {
            if let arguments = canopyArguments(command) { invocations.append(arguments) }
            command = []
        }
        for token in tokens(line) {
            switch token {
            case .word(let word): command.append(word)
            case .separator: finish()
            }
        }
        finish()
        return invocations
    }

    private static func canopyArguments(_ command: [String]) -> [String]? {
        var words = command[...]
        while let first = words.first, isAssignment(first) { words.removeFirst() }
        guard let program = words.popFirst() else { return nil }
        if program == "canopy" || program.hasSuffix("/canopy") { return Array(words) }
        if program == "flock" || program.hasSuffix("/flock") {
            // flock's own options, some with a value, then the lock file, then the command.
            let withValue: Set = ["-E", "--conflict-exit-code", "-w", "--wait", "--timeout"]
            while let option = words.first, option.hasPrefix("-") {
                words.removeFirst()
                if withValue.contains(option) { words.removeFirst() }
            }
            guard words.popFirst() != nil else { return nil }
            return canopyArguments(Array(words))
        }
        return nil
    }

    private static func isAssignment(_ word: String) -> Bool {
        guard let equals = word.firstIndex(of: "="), equals != word.startIndex else { return false }
        return word[..<equals].allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
}

/// The command tree of the built canopy, as swift-argument-parser describes it
/// (`--experimental-dump-help`): the same declarations its parser uses.
struct CanopyCommandTree: Decodable, Sendable {
    struct Name: Decodable, Sendable {
        let kind: String
        let name: String
    }

    struct Argument: Decodable, Sendable {
        let kind: String
        let names: [Name]?
        let defaultValue: String?
    }

    struct Command: Decodable, Sendable {
        let commandName: String
        let subcommands: [Command]?
        let arguments: [Argument]?

        func subcommand(_ name: String) -> Command? { subcommands?.first { $0.commandName == name } }

        func argument(long name: String) -> Argument? {
            arguments?.first { $0.names?.contains { $0.kind == "long" && $0.name == name } ?? false }
        }

        func argument(short name: String) -> Argument? {
            arguments?.first { $0.names?.contains { $0.kind == "short" && $0.name == name } ?? false }
        }

        var takesPositionals: Bool { arguments?.contains { $0.kind == "positional" } ?? false }
    }

    let command: Command

    static let current: CanopyCommandTree? = {
        guard let binary = CommandLineTests.binary, let run = try? ToolRun.run(binary.path, ["--experimental-dump-help"]), run.status == 0 else {
            return nil
        }
        return try? JSONDecoder().decode(CanopyCommandTree.self, from: Data(run.stdout.utf8))
    }()


    /// What the parser would reject in `canopy arguments`: an unknown subcommand or option, an
    /// option without its value, a value given to a flag, a stray positional argument.
    func problems(_ arguments: [String]) -> [String] {
        var current = command
        var path = ["canopy"]
        var words = arguments[...]
        while let word = words.first, !word.hasPrefix("-") {
            if let next = current.subcommand(word) {
                current = next
                path.append(word)
                words.removeFirst()
            } else {
                break
            }
        }
        var problems: [String] = []
        let name = path.joined(separator: " ")
        if let word = words.first, !word.hasPrefix("-"), current.subcommands?.isEmpty == false, !current.takesPositionals {
            return ["`\(name)` has no subcommand `\(word)`"]
        }
        while let word = words.popFirst() {
            if word == "--" {
                if !words.isEmpty, !current.takesPositionals { problems.append("`\(name)` takes no arguments, found \(Array(words))") }
                break
            }
            if word.hasPrefix("--") {
                let body = word.dropFirst(2)
                let optionName = String(body.prefix { $0 != "=" })
                let hasInlineValue = body.contains("=")
                guard let argument = current.argument(long: optionName) else {
                    problems.append("`\(name)` has no option --\(optionName)")
                    continue
                }
                problems += consume(argument, named: "--\(optionName)", inlineValue: hasInlineValue, in: &words, command: name)
            } else if word.hasPrefix("-"), word.count > 1 {
                let letters = Array(word.dropFirst())
                for (index, letter) in letters.enumerated() {
                    guard let argument = current.argument(short: String(letter)) else {
                        problems.append("`\(name)` has no option -\(letter)")
                        break
                    }
                    if argument.kind == "option" {
                        // The rest of the word is the value, or else the next word.
                        if index == letters.count - 1 {
                            problems += consume(argument, named: "-\(letter)", inlineValue: false, in: &words, command: name)
                        }
                        break
                    }
                }
            } else if !current.takesPositionals {
                problems.append("`\(name)` takes no arguments, found \"\(word)\"")
            }
        }
        return problems
    }

    private func consume(_ argument: Argument, named option: String, inlineValue: Bool, in words: inout ArraySlice<String>, command: String) -> [String] {
        switch argument.kind {
        case "flag":
            return inlineValue ? ["`\(command)`: \(option) is a flag and takes no value"] : []
        case "option":
            if inlineValue { return [] }
            if let value = words.first, !value.hasPrefix("-") {
                words.removeFirst()
                return []
            }
            // An option with a default may be given alone (`--resume`); any other needs its value.
            return argument.defaultValue == nil ? ["`\(command)`: \(option) needs a value"] : []
        default:
            return []
        }
    }
}
