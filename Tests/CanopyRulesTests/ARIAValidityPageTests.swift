import CanopyHTML
@testable import CanopyRules
import Testing

/// Whole pages for the ARIA validity rules that axe-core has no fixtures for (aria-hidden-body),
/// and page-level behaviour of the others: every applicable element's outcome, by id.
struct ARIAValidityPageTests {
    typealias Outcome = RuleOutcome

    static func outcomes(of ruleID: String, on html: String) throws -> [String: Outcome] {
        try ruleOutcomes(of: ruleID, on: html)
    }

    static func page(bodyAttributes: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><title>Page</title></head>
        <body id="body" \(bodyAttributes)>
          <main><h1>Title</h1><p aria-hidden="true">Decoration</p></main>
        </body></html>
        """
    }

    @Test func aBodyWithoutAriaHiddenPasses() throws {
        #expect(try Self.outcomes(of: "aria-hidden-body", on: Self.page(bodyAttributes: "")) == ["body": .pass])
    }

    @Test func aBodyHiddenFromAssistiveTechnologyFails() throws {
        #expect(try Self.outcomes(of: "aria-hidden-body", on: Self.page(bodyAttributes: #"aria-hidden="true""#)) == ["body": .violation])
    }

    @Test(arguments: [#"aria-hidden="false""#, #"aria-hidden="""#, #"aria-hidden="True""#, #"hidden"#])
    func otherValuesDoNotHideTheBody(attributes: String) throws {
        #expect(try Self.outcomes(of: "aria-hidden-body", on: Self.page(bodyAttributes: attributes)) == ["body": .pass])
    }

    @Test func onlyTheBodyIsChecked() throws {
        // aria-hidden elsewhere is legitimate and belongs to aria-hidden-focus, not this rule.
        let html = #"<html><body id="body"><div id="dialog-backdrop" aria-hidden="true">Behind</div></body></html>"#
        #expect(try Self.outcomes(of: "aria-hidden-body", on: html) == ["body": .pass])
    }

    @Test func aFragmentGetsAnImpliedBody() throws {
        let rule = try #require(RuleCatalog.rule(withID: "aria-hidden-body"))
        let result = try #require(Auditor(rules: [rule]).audit(HTMLParser().parse(html: "<p>Just a paragraph</p>")).rules.first)
        #expect(result.nodes.count == 1)
        #expect(result.nodes.first?.outcome == .pass)
    }

    static let dialogPage = """
        <!DOCTYPE html>
        <html lang="en"><head><title>Dialog</title></head>
        <body>
          <div id="background" aria-hidden="true"><a href="/">Home</a><div aria-hidden="true" id="nested"><button>Inner</button></div></div>
          <div id="decoration" aria-hidden="true"><span>*</span></div>
          <div role="dialog" aria-modal="true" aria-label="Sign in"><button>OK</button></div>
        </body></html>
        """

    @Test func focusableContentBehindAnOpenDialogNeedsReview() throws {
        // Only the outermost aria-hidden element is reported; the dialog makes the page behind it uncertain.
        #expect(try Self.outcomes(of: "aria-hidden-focus", on: Self.dialogPage) == [
            "background": .incomplete, "decoration": .pass,
        ])
    }

    @Test func aClosedDialogDoesNotExcuseFocusableHiddenContent() throws {
        let html = Self.dialogPage.replacingOccurrences(of: #"<div role="dialog""#, with: #"<div hidden role="dialog""#)
        #expect(try Self.outcomes(of: "aria-hidden-focus", on: html) == [
            "background": .violation, "decoration": .pass,
        ])
    }

    static let menuPage = """
        <!DOCTYPE html>
        <html lang="en"><head><title>Menus</title></head>
        <body>
          <ul role="menubar" id="bar">
            <li role="none"><a role="menuitem" id="file" href="#">File</a>
              <ul role="menu" id="file-menu"><li role="none"><a role="menuitem" id="open" href="#">Open</a></li></ul>
            </li>
          </ul>
          <div role="menu" id="empty-menu"></div>
          <div role="menuitem" id="stray">Stray</div>
          <div role="tablist" id="tabs"><button role="tab" id="tab1">One</button><p id="loose" tabindex="0">Not a tab</p></div>
        </body></html>
        """

    @Test func menusOwnTheirItemsAndItemsSitInMenus() throws {
        #expect(try Self.outcomes(of: "aria-required-children", on: Self.menuPage) == [
            "bar": .pass, "file-menu": .pass, "empty-menu": .incomplete, "tabs": .violation,
        ])
        #expect(try Self.outcomes(of: "aria-required-parent", on: Self.menuPage) == [
            "file": .pass, "open": .pass, "stray": .violation, "tab1": .pass,
        ])
    }
}
