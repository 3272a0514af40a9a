internal import CLibXML2

/// libxml2's HTML parser alone (`htmlReadMemory`, then free), with the options Canopy uses:
/// the baseline that benchmarks compare Canopy's parse against.
public enum LibXML2Baseline {
    /// Parses and frees; returns whether libxml2 produced a document.
    @discardableResult
    public static func parseAndFree(_ bytes: [UInt8]) -> Bool {
        LibXML2.initialize()
        guard let document = HTMLParser.readWithLibXML2(bytes) else { return false }
        xmlFreeDoc(document)
        return true
    }
}
