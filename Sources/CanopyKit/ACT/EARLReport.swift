import CanopyRules
import Foundation

/// An ACT run as the EARL implementation report W3C takes (JSON-LD, framed by W3C's act-tools on
/// `earl:Assertion`): one assertion per test case and mapped Canopy rule, the test subject named
/// by the address W3C publishes the case under, the test by the Canopy rule's id with the WCAG
/// success criteria its failures report, and the outcome. The context is inline, so reading
/// the report needs no network.
public enum EARLReport {
    /// The report's bytes, and how many assertions it makes.
    public static func json(_ run: ACTRun, version: String) throws -> (data: Data, assertions: Int) {
        var graph: [GraphNode] = [.assertor(Assertor(version: version))]
        // Two examples with the same code are one test case to W3C (b4f0c3 has such a pair).
        var asserted = Set<[String]>()
        for rule in run.rules {
            let tests = rule.canopyRules.map { id in
                TestCase(title: id, isPartOf: (run.wcagCriteria[id] ?? []).compactMap(WCAGCriteria.url(of:)))
            }
            for example in rule.examples {
                let subject = TestSubject(source: example.example.publishedURL(ruleID: rule.rule.id), title: example.example.title)
                for (test, outcome) in zip(tests, example.outcomes) where asserted.insert([subject.source, test.title]).inserted {
                    graph.append(.assertion(Assertion(subject: subject, test: test, result: TestResult(outcome: "earl:" + outcome.rawValue))))
                }
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return (try encoder.encode(Document(graph: graph)), graph.count - 1)
    }

    /// The terms the report uses, mapped to EARL, Dublin Core and DOAP.
    static let context: [String: ContextTerm] = [
        "@vocab": .iri("http://www.w3.org/ns/earl#"),
        "earl": .iri("http://www.w3.org/ns/earl#"),
        "dct": .iri("http://purl.org/dc/terms/"),
        "doap": .iri("http://usefulinc.com/ns/doap#"),
        "source": .term(id: "dct:source", type: "@id"),
        "title": .term(id: "dct:title", type: nil),
        "isPartOf": .term(id: "dct:isPartOf", type: "@id"),
        "assertedBy": .term(id: "earl:assertedBy", type: "@id"),
        "outcome": .term(id: "earl:outcome", type: "@id"),
        "mode": .term(id: "earl:mode", type: "@id"),
        "name": .term(id: "doap:name", type: nil),
        "release": .term(id: "doap:release", type: nil),
        "revision": .term(id: "doap:revision", type: nil),
    ]

    static let assertorID = "_:canopy"

    enum ContextTerm: Encodable {
        case iri(String)
        case term(id: String, type: String?)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .iri(let iri):
                var container = encoder.singleValueContainer()
                try container.encode(iri)
            case .term(let id, let type):
                var container = encoder.container(keyedBy: JSONLDKey.self)
                try container.encode(id, forKey: .id)
                try container.encodeIfPresent(type, forKey: .type)
            }
        }
    }

    enum JSONLDKey: String, CodingKey {
        case id = "@id", type = "@type"
    }

    struct Document: Encodable {
        let graph: [GraphNode]

        enum CodingKeys: String, CodingKey {
            case context = "@context", graph = "@graph"
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(EARLReport.context, forKey: .context)
            try container.encode(graph, forKey: .graph)
        }
    }

    enum GraphNode: Encodable {
        case assertor(Assertor)
        case assertion(Assertion)

        func encode(to encoder: any Encoder) throws {
            switch self {
            case .assertor(let assertor): try assertor.encode(to: encoder)
            case .assertion(let assertion): try assertion.encode(to: encoder)
            }
        }
    }

    struct Assertor: Encodable {
        let id = EARLReport.assertorID
        let type = ["Assertor", "Software", "doap:Project"]
        let name = "Canopy"
        let release: Release

        init(version: String) { release = Release(revision: version) }

        struct Release: Encodable {
            let type = "doap:Version"
            let revision: String

            enum CodingKeys: String, CodingKey {
                case type = "@type", revision
            }
        }

        enum CodingKeys: String, CodingKey {
            case id = "@id", type = "@type", name, release
        }
    }

    struct Assertion: Encodable {
        let type = "Assertion"
        let assertedBy = EARLReport.assertorID
        let mode = "earl:automatic"
        let subject: TestSubject
        let test: TestCase
        let result: TestResult

        enum CodingKeys: String, CodingKey {
            case type = "@type", assertedBy, mode, subject, test, result
        }
    }

    struct TestSubject: Encodable {
        let type = "TestSubject"
        let source: String
        let title: String

        enum CodingKeys: String, CodingKey {
            case type = "@type", source, title
        }
    }

    struct TestCase: Encodable {
        let type = "TestCase"
        let title: String
        let isPartOf: [String]

        enum CodingKeys: String, CodingKey {
            case type = "@type", title, isPartOf
        }
    }

    struct TestResult: Encodable {
        let type = "TestResult"
        let outcome: String

        enum CodingKeys: String, CodingKey {
            case type = "@type", outcome
        }
    }
}
