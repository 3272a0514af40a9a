import Foundation

/// HTTP dates (RFC 9110 §5.6.7, IMF-fixdate) for headers a test server sends, e.g. Retry-After.
public enum HTTPDate {
    public static func string(from date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
