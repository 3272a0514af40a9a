internal import CLibXML2

/// libxml2's HTML parser alone (`htmlReadMemory`, then free), with the options Canopy uses:
/// the baseline that benchmarks compare Canopy's parse against.
public enum LibXML2Baseline {
    /// Parses and frees; returns whether libxml2 produced a document.
    @discardableResult
    public static func parseAndFree(_ bytes: [UInt8]) -> Bool {
        LibXML2.initialize()
        let document: htmlDocPtr? = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                htmlReadMemory(chars.baseAddress, Int32(chars.count), nil, "UTF-8", HTMLParser.libxml2Options)
            }
        }
        guard let document else { return false }
        xmlFreeDoc(document)
        return true
    }
}
