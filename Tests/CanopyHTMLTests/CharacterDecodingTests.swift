import CanopyHTML
import Testing

struct CharacterDecodingTests {
    func text(of bytes: [UInt8], contentType: String? = nil) -> (String, String) {
        let document = HTMLParser().parse(bytes: bytes, contentType: contentType)
        return (document.element(withID: "t")?.textContent ?? "<missing>", document.sourceEncoding)
    }

    @Test func utf8IsTheDefaultForValidUTF8() {
        let (text, encoding) = text(of: Array("<p id=t>café ☕</p>".utf8))
        #expect(text == "café ☕")
        #expect(encoding == "UTF-8")
    }

    @Test func httpCharsetWins() {
        // "café" in windows-1252, declared by the header, while the meta says UTF-8.
        let bytes = Array("<meta charset=utf-8><p id=t>caf".utf8) + [0xE9] + Array("</p>".utf8)
        let (text, encoding) = text(of: bytes, contentType: "text/html; charset=ISO-8859-1")
        #expect(text == "café")
        #expect(encoding == "windows-1252")
    }

    @Test func metaCharsetIsUsedWithoutHeader() {
        let bytes = Array("<!-- x --><meta http-equiv=\"Content-Type\" content=\"text/html; charset=windows-1252\"><p id=t>".utf8)
            + [0x93, 0x41, 0x94] + Array("</p>".utf8)
        #expect(text(of: bytes).0 == "\u{201C}A\u{201D}")
        let metaCharset = Array("<meta charset='windows-1252'><p id=t>".utf8) + [0x80] + Array("</p>".utf8)
        #expect(text(of: metaCharset).0 == "€")
    }

    @Test func byteOrderMarkWinsOverEverything() {
        let utf16 = "<p id=t>ünï</p>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let (text, encoding) = text(of: [0xFF, 0xFE] + utf16, contentType: "text/html; charset=windows-1252")
        #expect(text == "ünï")
        #expect(encoding == "UTF-16LE")
        #expect(self.text(of: [0xEF, 0xBB, 0xBF] + Array("<p id=t>é</p>".utf8), contentType: "text/html; charset=iso-8859-1").0 == "é")
    }

    @Test func invalidBytesBecomeReplacementCharacters() {
        let bytes = Array("<meta charset=utf-8><p id=t>a".utf8) + [0xC3, 0x28, 0xFF] + Array("b</p><p id=after>ok</p>".utf8)
        let document = HTMLParser().parse(bytes: bytes)
        #expect(document.element(withID: "t")?.textContent == "a\u{FFFD}(\u{FFFD}b")
        #expect(document.element(withID: "after")?.textContent == "ok")
    }

    @Test func undeclaredInvalidUTF8FallsBackToWindows1252() {
        let bytes = Array("<p id=t>na".utf8) + [0xEF] + Array("ve</p>".utf8)
        #expect(text(of: bytes) == ("naïve", "windows-1252"))
    }

    @Test func nulBytesDoNotTruncateThePage() {
        let bytes = Array("<p id=t>a".utf8) + [0] + Array("b</p><p id=after>ok</p>".utf8)
        let document = HTMLParser().parse(bytes: bytes)
        #expect(document.element(withID: "after")?.textContent == "ok")
    }

    @Test func otherEncodingsGoThroughIconv() {
        // "日本" in Shift_JIS.
        let bytes = Array("<p id=t>".utf8) + [0x93, 0xFA, 0x96, 0x7B] + Array("</p>".utf8)
        #expect(text(of: bytes, contentType: "text/html; charset=Shift_JIS") == ("日本", "shift_jis"))
    }

    @Test func unknownCharsetFallsBackWithoutCrashing() {
        let (text, _) = text(of: Array("<p id=t>plain</p>".utf8), contentType: "text/html; charset=x-no-such-thing")
        #expect(text == "plain")
    }

    @Test func charsetParameterParsing() {
        #expect(CharacterDecoder.charsetParameter(ofContentType: "text/html; Charset=\"UTF-8\"") == "UTF-8")
        #expect(CharacterDecoder.charsetParameter(ofContentType: "text/html") == nil)
        #expect(CharacterDecoder.charsetParameter(ofContentType: "text/html;charset=") == nil)
    }
}
