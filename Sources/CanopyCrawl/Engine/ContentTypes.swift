import Foundation

/// Which responses are pages to parse and audit.
enum ContentTypes {
    /// HTML by its Content-Type; without one, by what the body starts with, as browsers sniff.
    static func isHTML(_ contentType: String?, body: [UInt8]) -> Bool {
        if let contentType, !contentType.trimmingCharacters(in: .whitespaces).isEmpty {
            let essence = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
            return essence == "text/html" || essence == "application/xhtml+xml"
        }
        return startsLikeHTML(body)
    }

    private static func startsLikeHTML(_ body: [UInt8]) -> Bool {
        var start = body.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < body.count, [0x20, 0x09, 0x0A, 0x0D, 0x0C].contains(body[start]) { start += 1 }
        let head = String(decoding: body[start..<min(body.count, start + 14)], as: UTF8.self).lowercased()
        return head.hasPrefix("<!doctype html") || head.hasPrefix("<html") || head.hasPrefix("<head") || head.hasPrefix("<body")
    }
}
