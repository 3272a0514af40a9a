/// Roles known so far, by element position: for each position, not known yet, no role, or a
/// role name. A position holds a small number for a name in a table of the names met, so the
/// page's array is two bytes an element and dropping it frees no strings one at a time: as
/// `[String??]`, four such arrays were 24 bytes an element each, and tearing them down after
/// every page was a few percent of a styled crawl's instructions (callgrind).
struct RoleSlots {
    private static let unknown: Int16 = -2
    private static let noRole: Int16 = -1
    /// How many distinct names are kept; past this (never reached by role names) a role is
    /// answered each time rather than kept.
    private static let namesKept = 256

    private var codes: [Int16] = []
    private var names: [String] = []

    var isEmpty: Bool { codes.isEmpty }

    /// Room for `count` positions, none known.
    mutating func allocate(_ count: Int) {
        codes = Array(repeating: Self.unknown, count: count)
        names = []
    }

    /// Forgets everything.
    mutating func removeAll() {
        codes = []
        names = []
    }

    /// nil when the position is not known yet; `.some(nil)` when it has no role.
    subscript(position: Int) -> String?? {
        let code = codes[position]
        switch code {
        case Self.unknown: return nil
        case Self.noRole: return .some(nil)
        default: return .some(names[Int(code)])
        }
    }

    mutating func set(_ role: String?, at position: Int) {
        guard let role else {
            codes[position] = Self.noRole
            return
        }
        // A page has a few dozen role names at most: a scan of short strings beats hashing one.
        if let index = names.firstIndex(of: role) {
            codes[position] = Int16(index)
        } else if names.count < Self.namesKept {
            codes[position] = Int16(names.count)
            names.append(role)
        }
    }
}
