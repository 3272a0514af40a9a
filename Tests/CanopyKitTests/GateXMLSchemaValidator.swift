import CanopyXMLSchema

/// Validates an XML document against an XML Schema (XSD) with libxml2, for the gate's JUnit
/// output. Returns the validation errors; empty means valid.
enum XMLSchemaValidator {
    static func errors(document: [UInt8], schema: [UInt8]) -> [String] {
        var messages = [CChar](repeating: 0, count: 16 * 1024)
        let result = document.withUnsafeBufferPointer { documentBytes in
            schema.withUnsafeBufferPointer { schemaBytes in
                documentBytes.withMemoryRebound(to: CChar.self) { documentChars in
                    schemaBytes.withMemoryRebound(to: CChar.self) { schemaChars in
                        canopy_xsd_validate(
                            documentChars.baseAddress, documentChars.count,
                            schemaChars.baseAddress, schemaChars.count,
                            &messages, messages.count
                        )
                    }
                }
            }
        }
        guard result != 0 else { return [] }
        let text = String(decoding: messages.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let lines = text.split(separator: "\n").map(String.init)
        return lines.isEmpty ? ["invalid (code \(result))"] : lines
    }
}
