/// The part of a browser's default stylesheet that the rules read: colours, font sizes and
/// weights, decorations and backgrounds of the elements that have their own. Display values of
/// elements that are never rendered are the accessibility model's business, not repeated here.
/// Values are Chrome's for a light colour scheme.
enum UserAgentStyles {
    static let sheet = ParsedStyleSheet(parsing: css)

    private static let css = """
    a:any-link { color: #0000ee; text-decoration: underline; }
    h1 { font-size: 2em; font-weight: bold; }
    h2 { font-size: 1.5em; font-weight: bold; }
    h3 { font-size: 1.17em; font-weight: bold; }
    h4 { font-size: 1em; font-weight: bold; }
    h5 { font-size: 0.83em; font-weight: bold; }
    h6 { font-size: 0.67em; font-weight: bold; }
    :is(article, aside, nav, section) h1 { font-size: 1.5em; }
    :is(article, aside, nav, section) :is(article, aside, nav, section) h1 { font-size: 1.17em; }
    b, strong { font-weight: bolder; }
    th { font-weight: bold; }
    i, em, cite, var, dfn, address { font-style: italic; }
    small, sub, sup { font-size: smaller; }
    big { font-size: larger; }
    code, kbd, pre, samp, tt { font-size: 13px; }
    u, ins { text-decoration: underline; }
    s, strike, del { text-decoration: line-through; }
    mark { background-color: yellow; color: black; }
    button, input:is([type=button i], [type=submit i], [type=reset i]), select { background-color: #efefef; color: black; font-size: 13.333px; font-weight: normal; }
    input, textarea { background-color: white; color: black; font-size: 13.333px; font-weight: normal; }
    input:is([type=checkbox i], [type=radio i], [type=range i], [type=color i], [type=image i], [type=file i]) { background-color: transparent; }
    legend { }
    fieldset { border-top: 2px groove #c0c0c0; border-bottom: 2px groove #c0c0c0; }
    table { border-top-color: gray; }
    ul, ol, menu, dir { padding-left: 40px; }
    td, th { padding: 1px; }
    fieldset { padding: 0.35em 0.75em 0.625em; }
    dialog { padding: 1em; }
    """
}
