@testable import CanopyHistory
import Testing
import CanopyStore
import CanopyHistoryTestSupport

struct PageTypeClassifierTests {
    let classifier = PageTypeClassifier()

    @Test func numberedSlugsCollapseOnTheirOwn() {
        let types = classifier.pageTypes(for: [
            "https://shop.example/product/123-blue-shirt", "https://shop.example/product/456-red-hat",
            "https://shop.example/order/f47ac10b-58cc-4372-a567-0e02b2c3d479/receipt", "https://shop.example/img/42.html",
        ])
        #expect(types["https://shop.example/product/123-blue-shirt"] == "/product/*")
        #expect(types["https://shop.example/product/456-red-hat"] == "/product/*")
        #expect(types["https://shop.example/order/f47ac10b-58cc-4372-a567-0e02b2c3d479/receipt"] == "/order/*/receipt")
        #expect(types["https://shop.example/img/42.html"] == "/img/*.html")
    }

    @Test func manyValuesUnderOnePrefixAreLearnedAsOneTemplate() {
        let docs = ["intro", "install", "configure", "deploy", "faq", "upgrade"].map { "https://shop.example/docs/\($0)/" }
        let sections = ["about", "contact", "blog", "careers", "press", "legal"].map { "https://shop.example/\($0)" }
        let types = classifier.pageTypes(for: docs + sections + ["https://shop.example/"])
        #expect(docs.allSatisfy { types[$0] == "/docs/*" })
        // First-level sections are never merged: they are the site's sections, not a template's values.
        #expect(sections.allSatisfy { types[$0] == "/" + $0.split(separator: "/").last! })
        #expect(types["https://shop.example/"] == "/")
    }

    @Test func fewValuesStayApartUnlessThePreviousRunCollapsedThem() {
        let urls = ["https://shop.example/docs/intro", "https://shop.example/docs/install"]
        #expect(classifier.pageTypes(for: urls)[urls[0]] == "/docs/intro")
        let sticky = PageTypeClassifier.collapsedPrefixes(of: ["/docs/*", "/product/*/reviews", "/"])
        #expect(sticky == ["/docs/", "/product/"])
        #expect(classifier.pageTypes(for: urls, stickyPrefixes: sticky)[urls[0]] == "/docs/*")
    }

    @Test func queryStringsKeepTheirParameterNames() {
        let types = classifier.pageTypes(for: ["https://shop.example/search?q=shirts&page=2", "https://shop.example/search?page=1&q=hat"])
        #expect(Set(types.values) == ["/search?page=*&q=*"])
    }

    @Test func severalHostsKeepTheirHostInTheType() {
        let types = classifier.pageTypes(for: ["https://shop.example/product/1", "https://blog.example/post/2", "https://blog.example/"])
        #expect(types["https://shop.example/product/1"] == "//shop.example/product/*")
        #expect(types["https://blog.example/"] == "//blog.example/")
    }
}
