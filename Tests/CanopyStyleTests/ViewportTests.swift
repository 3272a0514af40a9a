import CanopyStyle
import Testing

@Suite("Viewport")
struct ViewportTests {
    @Test("reads WIDTHxHEIGHT and writes it back", arguments: ["1280x1024", "390x844", "800X600"])
    func roundTrip(text: String) throws {
        let viewport = try #require(Viewport(parsing: text))
        #expect(viewport.description == text.lowercased())
    }

    @Test("refuses what is not two positive numbers", arguments: ["", "1280", "1280x", "0x100", "ax100", "1x2x3", "-5x10"])
    func refuses(text: String) {
        #expect(Viewport(parsing: text) == nil)
    }
}
