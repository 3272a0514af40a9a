@testable import CanopyHTML
import Testing

struct SelfClosingTagRewriterTests {
    /// The caller usually still holds the page's bytes (the crawler's body): a page with nothing
    /// to rewrite must not be copied to be written.
    @Test func bytesWithNothingToRewriteAreNotCopied() {
        let page = Array("<!doctype html><div title='a/>'><br/><img src=x /><svg><path d='M0'/></svg><p>text</p></div>".utf8)
        var parsed = page
        SelfClosingTagRewriter.rewrite(&parsed)
        #expect(parsed == page)
        let shared = page.withUnsafeBufferPointer { $0.baseAddress } == parsed.withUnsafeBufferPointer { $0.baseAddress }
        #expect(shared, "the bytes were copied although nothing was rewritten")
    }

    @Test func onlyTheSlashesOfNonVoidElementsAreBlanked() {
        var bytes = Array("<div/><span class=x/><br/><svg><g/></svg><p/>".utf8)
        SelfClosingTagRewriter.rewrite(&bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == "<div ><span class=x/><br/><svg><g/></svg><p >")
    }
}
