import Foundation

/// Inline SVG charts for the HTML report: no script, no external file, nothing to fetch.
///
/// Each chart is one `<svg role="img">` with an `aria-label` that says what it shows; the report
/// puts the same numbers in a table next to it, because a chart's shapes say nothing to a screen
/// reader or to someone who needs the exact figures. Every label passes through
/// `HTMLEscaping.escape`: page types and vendor names come from crawled pages and configuration.
struct SVGCharts {
    struct Series {
        let name: String
        let color: String
    }

    /// One bar of a stacked or grouped chart, with its label under the axis.
    struct Column {
        let label: String
        let values: [Int]
        /// Draws a dashed marker before the column: something other than the site changed there.
        var marker: Marker? = nil

        var marked: Bool { marker != nil }
    }

    /// What changed before a column besides the site. The label is written beside the marker,
    /// shortened to the room there; the detail is the marker's tooltip. Neither replaces the
    /// chart's own text alternative, which must name the change too (a role="img" chart's inner
    /// text is not read out).
    struct Marker {
        /// e.g. "rules added: empty-table-header"
        let label: String
        /// e.g. "Run 6 (2024-07-06): rules added: empty-table-header"
        let detail: String
    }

    static let width = 760
    private static let plotLeft = 52
    private static let plotRight = 12
    /// Above the plot: room for the markers' labels when a chart has any.
    private static let plainTop = 14
    private static let markedTop = 32
    private static let plotHeight = 200
    private static let axisColor = "#4b5563"
    private static let gridColor = "#d1d5db"
    static let markerColor = "#1d4ed8"
    /// The markers' labels are text: darker, for the report's 7:1.
    private static let markerTextColor = "#1e40af"
    /// A guess at the width of one character of 11-unit text, to shorten labels before they run
    /// into the next marker.
    private static let characterWidth = 6.2

    /// Columns with their values stacked bottom-up in series order (`stacked`), or side by side.
    static func columns(_ columns: [Column], series: [Series], stacked: Bool, label: String) -> String {
        let markedIndices = columns.indices.filter { columns[$0].marked }
        let plotTop = markedIndices.isEmpty ? plainTop : markedTop
        let height = plotTop + plotHeight + 44
        let plotWidth = Double(width - plotLeft - plotRight)
        let totals = columns.map { stacked ? $0.values.reduce(0, +) : ($0.values.max() ?? 0) }
        let top = niceMaximum(totals.max() ?? 0)
        let slot = plotWidth / Double(max(columns.count, 1))
        // Never wider than 48 units: two runs should look like two bars, not two walls.
        let barWidth = max(1.5, min(slot * 0.72, 48))
        func y(_ value: Int) -> Double { Double(plotTop + plotHeight) - Double(value) / Double(top) * Double(plotHeight) }

        var svg = openSVG(height: height, label: label)
        svg += axes(top: top, plotTop: plotTop)
        // Label at most about ten columns so the text never overlaps.
        let labelEvery = max(1, Int((Double(columns.count) / 10).rounded(.up)))
        for (index, column) in columns.enumerated() {
            let left = Double(plotLeft) + Double(index) * slot + (slot - barWidth) / 2
            if let marker = column.marker {
                let x = Double(plotLeft) + Double(index) * slot
                // The label runs right, above the plot, up to the next marker or the plot's end.
                let end = markedIndices.first { $0 > index }.map { Double(plotLeft) + Double($0) * slot } ?? Double(width - plotRight)
                let characters = Int((end - x - 8) / characterWidth)
                svg += "<g class=\"change-marker\"><title>\(HTMLEscaping.escape(marker.detail))</title>"
                svg += "<line x1=\"\(format(x))\" y1=\"\(plotTop)\" x2=\"\(format(x))\" y2=\"\(plotTop + plotHeight)\" stroke=\"\(markerColor)\" stroke-width=\"2\" stroke-dasharray=\"5 3\"/>"
                svg += "<path d=\"M\(format(x - 5)) \(plotTop - 8)h10l-5 7z\" fill=\"\(markerColor)\"/>"
                if characters >= 4 {
                    svg += "<text x=\"\(format(x - 5))\" y=\"\(plotTop - 12)\" font-size=\"11\" fill=\"\(markerTextColor)\">\(HTMLEscaping.escape(shortened(marker.label, to: characters)))</text>"
                }
                svg += "</g>"
            }
            if stacked {
                var base = 0
                for (seriesIndex, value) in column.values.enumerated() where value > 0 {
                    svg += rect(x: left, y: y(base + value), width: barWidth, height: y(base) - y(base + value), color: series[seriesIndex].color)
                    base += value
                }
            } else {
                let each = barWidth / Double(max(series.count, 1))
                for (seriesIndex, value) in column.values.enumerated() where value > 0 {
                    svg += rect(x: left + Double(seriesIndex) * each, y: y(value), width: max(1, each - 1), height: y(0) - y(value), color: series[seriesIndex].color)
                }
            }
            if index % labelEvery == 0 || index == columns.count - 1 && columns.count <= 10 {
                let center = Double(plotLeft) + (Double(index) + 0.5) * slot
                svg += "<text x=\"\(format(center))\" y=\"\(plotTop + plotHeight + 16)\" text-anchor=\"middle\" font-size=\"11\" fill=\"\(axisColor)\">\(HTMLEscaping.escape(column.label))</text>"
            }
        }
        return svg + "</svg>"
    }

    /// Horizontal bars, one row per item, the value written after each bar.
    static func bars(_ items: [(label: String, value: Int)], color: String, label: String) -> String {
        let rowHeight = 24, labelWidth = 230, valueWidth = 56
        let height = max(1, items.count) * rowHeight + 8
        let barSpace = Double(width - labelWidth - valueWidth)
        let top = max(items.map(\.value).max() ?? 0, 1)
        var svg = openSVG(height: height, label: label)
        for (index, item) in items.enumerated() {
            let y = 4 + index * rowHeight
            let length = max(1, Double(item.value) / Double(top) * barSpace)
            svg += "<text x=\"\(labelWidth - 8)\" y=\"\(y + 16)\" text-anchor=\"end\" font-size=\"12\" fill=\"#1f2937\">\(HTMLEscaping.escape(shortened(item.label, to: 34)))</text>"
            svg += rect(x: Double(labelWidth), y: Double(y + 3), width: length, height: Double(rowHeight - 8), color: color)
            svg += "<text x=\"\(format(Double(labelWidth) + length + 6))\" y=\"\(y + 16)\" font-size=\"12\" fill=\"#1f2937\">\(item.value)</text>"
        }
        return svg + "</svg>"
    }

    private static func openSVG(height: Int, label: String) -> String {
        // role="img" with a name makes the chart one image to assistive technology; its shapes are
        // presentational. focusable="false" keeps old browsers from adding it to the tab order.
        "<svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\" aria-label=\"\(HTMLEscaping.escape(label))\" focusable=\"false\" "
            + "viewBox=\"0 0 \(width) \(height)\" width=\"100%\" style=\"max-width:\(width)px\">"
    }

    private static func axes(top: Int, plotTop: Int) -> String {
        var svg = ""
        for step in 0...4 {
            let value = top * step / 4
            let y = Double(plotTop + plotHeight) - Double(step) / 4 * Double(plotHeight)
            svg += "<line x1=\"\(plotLeft)\" y1=\"\(format(y))\" x2=\"\(width - plotRight)\" y2=\"\(format(y))\" stroke=\"\(step == 0 ? axisColor : gridColor)\" stroke-width=\"1\"/>"
            svg += "<text x=\"\(plotLeft - 6)\" y=\"\(format(y + 4))\" text-anchor=\"end\" font-size=\"11\" fill=\"\(axisColor)\">\(value)</text>"
        }
        return svg
    }

    private static func rect(x: Double, y: Double, width: Double, height: Double, color: String) -> String {
        "<rect x=\"\(format(x))\" y=\"\(format(y))\" width=\"\(format(width))\" height=\"\(format(max(0, height)))\" fill=\"\(color)\"/>"
    }

    /// An axis maximum of four round steps (1, 2 or 5 times a power of ten each) at or above
    /// `value`, so the tick labels are whole, readable numbers.
    static func niceMaximum(_ value: Int) -> Int {
        let needed = max(1, (value + 3) / 4)
        var magnitude = 1
        while true {
            for factor in [1, 2, 5] where factor * magnitude >= needed { return 4 * factor * magnitude }
            magnitude *= 10
        }
    }

    static func shortened(_ text: String, to length: Int) -> String {
        text.count <= length ? text : String(text.prefix(length - 1)) + "…"
    }

    private static func format(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
