/// Tree construction's "has an element in scope" answers for the elements that HTML5 closes
/// implicitly, carried down the open elements so that no question walks up the tree.
struct OpenElements {
    var paragraphInButtonScope = false
    var buttonInScope = false
    var anchorInScope = false
    var listItem = false
    var definitionItem = false

    func entering(_ flags: TagFlags) -> OpenElements {
        let boundary = flags.contains(.scopeBoundary)
        let stopsItemSearch = flags.contains(.special) && !flags.contains(.addressDivOrP)
        return OpenElements(
            paragraphInButtonScope: flags.contains(.paragraph)
                || (!boundary && !flags.contains(.button) && paragraphInButtonScope),
            buttonInScope: flags.contains(.button) || (!boundary && buttonInScope),
            anchorInScope: flags.contains(.anchor) || (!boundary && anchorInScope),
            listItem: flags.contains(.listItem) || (!stopsItemSearch && listItem),
            definitionItem: flags.contains(.definitionItem) || (!stopsItemSearch && definitionItem)
        )
    }
}

