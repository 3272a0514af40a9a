extension StringProtocol {
    func trimmingWhitespace() -> String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
        while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
        return String(slice)
    }
}
