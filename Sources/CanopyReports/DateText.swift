import Foundation

/// Formats dates the same way in every report and message: UTC, ISO 8601 order.
public struct DateText: Sendable {
    private let day: DateFormatter
    private let minute: DateFormatter

    public init() {
        func formatter(_ format: String) -> DateFormatter {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.dateFormat = format
            return formatter
        }
        day = formatter("yyyy-MM-dd")
        minute = formatter("yyyy-MM-dd HH:mm 'UTC'")
    }

    /// `2026-11-26`
    public func date(_ date: Date) -> String { day.string(from: date) }
    /// `2026-11-26 08:30 UTC`
    public func time(_ date: Date) -> String { minute.string(from: date) }
    /// `MM-dd`, for chart axes.
    public func short(_ date: Date) -> String { String(day.string(from: date).dropFirst(5)) }
}
