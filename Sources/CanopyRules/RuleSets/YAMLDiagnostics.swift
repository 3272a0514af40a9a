import CanopyDiagnostics
import Yams

/// What the YAML files Canopy reads (rule sets here, `canopy.yml` in CanopyKit) say when they are
/// wrong: the same wording for a node of the wrong kind, a syntax error and a misspelt name, so an
/// error reads alike whichever file it is in.
public enum YAMLDiagnostics {
    /// A node as a message names it: "a list", "nothing", "a number (3)", "\"lots\"".
    public static func kind(of node: Node) -> String {
        switch node {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        case .scalar(let scalar):
            switch Tag.Name(rawValue: node.tag.rawValue) {
            case .null: return "nothing"
            case .bool: return "a boolean (\(scalar.string))"
            case .int, .float: return "a number (\(scalar.string))"
            default: return "\"\(scalar.string)\""
            }
        }
    }

    /// Where a YAML syntax error is (1-based line, when Yams knows it) and what it is.
    public static func syntaxProblem(_ error: YamlError) -> (line: Int?, message: String) {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return (mark.line, "invalid YAML: \(problem)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return (context.mark.line, "duplicate key \(duplicates.sorted().map { "\"\($0)\"" }.joined(separator: ", "))")
        default:
            return (nil, "invalid YAML: \(error)")
        }
    }

    /// The root node of a YAML document, or the problem of the file as a `kind` diagnostic: an
    /// empty file (`emptyMessage` says what was expected), a syntax error with its line.
    public static func root(of yaml: String, file: String, kind: Diagnostic.Kind, emptyMessage: String) throws(Diagnostic) -> Node {
        func problem(_ line: Int?, _ message: String) -> Diagnostic {
            Diagnostic(kind, message, at: SourceLocation(file: file, line: line))
        }
        do {
            guard let composed = try Yams.compose(yaml: yaml) else { throw problem(nil, emptyMessage) }
            return composed
        } catch let error as Diagnostic {
            throw error
        } catch let error as YamlError {
            let syntax = syntaxProblem(error)
            throw problem(syntax.line, syntax.message)
        } catch {
            throw problem(nil, "cannot read the file: \(error)")
        }
    }

    /// The candidate within two edits of a misspelt name, to suggest it; the nearest wins.
    public static func closest(to name: String, in candidates: [String]) -> String? {
        candidates.map { ($0, editDistance(name, $0)) }.filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
    }

    /// Levenshtein distance over characters.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + [Int](repeating: 0, count: b.count)
            for j in stride(from: 1, through: b.count, by: 1) {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
