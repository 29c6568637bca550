import Foundation
import RemixAnalysis

/// The HTML report's SVG charts, drawn from plain view data. Each chart carries a `<title>` and a
/// `<desc>` that say in words what it shows, and each mark a `<title>` a browser shows on hover.
enum HTMLChart {
    /// One estimate with its interval (a row of a forest plot, a point of a series).
    struct Interval {
        var label: String
        var colour: Int
        var estimate: Double
        var low: Double
        var high: Double
        /// The comparison in the JSON report (its `expected` and `ci`).
        var pointer: JSONPointer
        /// The verdict, shown after the figure ("" for none).
        var mark = ""
        /// Shown instead of a figure when there is none to draw (a lift against a baseline of 0).
        var undefined: String?
    }

    /// One bar of the funnel: a variation's share reaching a screen.
    struct Bar {
        var variation: String
        var colour: Int
        var share: Double
        var pointer: JSONPointer
    }

    /// One variation's time to conversion.
    struct Timing {
        var variation: String
        var colour: Int
        var median: Double?
        var p90: Double?
        var pointer: JSONPointer
    }

    /// Every chart is this wide: drawn at it on a desktop and scaled down to a phone's width, where
    /// its text stays about 10 px; names go on a line of their own above their marks, so long
    /// ones need not be cut short.
    static let width = 440.0

    /// Each row's label and figure on a line, and under it its estimate as a point and its interval
    /// as a line, against the zero line, on one axis. A row with `undefined` has no point.
    static func forest(_ rows: [Interval], format: HTMLNumber, relative: Bool, title: String) -> String {
        // Room at both ends for the axis' outer labels, centred on their ticks.
        let left = 26.0, right = width - 26, rowHeight = 36.0, top = 4.0
        let height = top + Double(rows.count) * rowHeight + 26
        let values = rows.filter { $0.undefined == nil }.flatMap { [$0.estimate, $0.low, $0.high] }
        let scale = Scale(values + [0], from: left, to: right, clampTo: relative ? (-1, 3) : nil)
        let described = rows.map { row in
            "\(row.label): " + (row.undefined ?? "\(format.text(row.estimate)) [\(format.text(row.low)), \(format.text(row.high))]")
                + (row.mark.isEmpty ? "" : " \(row.mark)")
        }
        var svg = open(height: height, title: title, description: described.joined(separator: "; "))
        svg += scale.axis(top: top, bottom: height - 22, format: format)
        for (index, row) in rows.enumerated() {
            let y = top + Double(index) * rowHeight
            let figure = (row.undefined ?? format.text(row.estimate)) + (row.mark.isEmpty ? "" : " " + row.mark)
            svg += "<g><title>\(HTMLStyle.escape(described[index]))</title>"
                + label(row.label, x: 6, y: y + 13, room: width - 24 - textWidth(figure))
                + "<text class=\"label\" x=\"\(n(width - 6))\" y=\"\(n(y + 13))\" text-anchor=\"end\">"
                + (row.undefined.map(HTMLStyle.escape) ?? format.element(row.estimate, row.pointer("expected"), tag: "tspan"))
                + (row.mark.isEmpty ? "" : " " + HTMLStyle.escape(row.mark)) + "</text>"
            if row.undefined == nil, row.estimate.isFinite, row.low.isFinite, row.high.isFinite {
                let colour = HTMLStyle.colour(row.colour)
                svg += "<line class=\"ci \(colour)\" x1=\"\(n(scale.x(row.low)))\" x2=\"\(n(scale.x(row.high)))\" "
                    + "y1=\"\(n(y + 25))\" y2=\"\(n(y + 25))\"/>"
                svg += "<circle class=\"\(colour)\" cx=\"\(n(scale.x(row.estimate)))\" cy=\"\(n(y + 25))\" r=\"5\"/>"
            }
            svg += "</g>"
        }
        return svg + "</svg>"
    }

    /// Bars of the share of each variation reaching each screen, under the screen's name.
    static func funnel(_ screens: [(screen: String, bars: [Bar])], title: String) -> String {
        let left = 6.0, right = width - 56, barHeight = 13.0
        var y = 4.0
        var body = "", described: [String] = []
        for (screen, bars) in screens {
            body += label(screen, x: left, y: y + 11, room: width - 12)
            y += 16
            for bar in bars {
                let share = bar.share.isFinite ? min(max(bar.share, 0), 1) : 0
                let text = "\(bar.variation) reaching \(screen): \(HTMLNumber.percent.text(bar.share))"
                described.append(text)
                body += "<g><title>\(HTMLStyle.escape(text))</title><rect class=\"bar \(HTMLStyle.colour(bar.colour))\" "
                    + "x=\"\(n(left))\" y=\"\(n(y))\" width=\"\(n(max(share * (right - left), 1)))\" height=\"\(n(barHeight))\"/>"
                    + "<text x=\"\(n(left + share * (right - left) + 6))\" y=\"\(n(y + barHeight - 2))\">"
                    + HTMLNumber.percent.element(bar.share, bar.pointer, tag: "tspan") + "</text></g>"
                y += barHeight + 2
            }
            y += 8
        }
        let height = y + 4
        return open(height: height, title: title, description: described.joined(separator: "; ")) + body + "</svg>"
    }

    /// Each series' estimate as a line with its interval as a band, at evenly spaced cuts.
    static func overTime(_ series: [(label: String, colour: Int, points: [Interval])], cuts: [String],
                         format: HTMLNumber, relative: Bool, title: String) -> String {
        let left = 56.0, right = width - 10, top = 12.0, bottom = 210.0, height = 250.0
        let values = series.flatMap { $0.points.flatMap { [$0.estimate, $0.low, $0.high] } }
        let scale = Scale(values + [0], from: bottom, to: top, clampTo: relative ? (-1, 3) : nil)
        func x(_ index: Int) -> Double { cuts.count < 2 ? (left + right) / 2 : left + (right - left) * Double(index) / Double(cuts.count - 1) }
        let described = series.map { line in
            let last = line.points.last { $0.estimate.isFinite }
            return "\(line.label): " + (last.map { "\(format.text($0.estimate)) [\(format.text($0.low)), \(format.text($0.high))] at \(cuts.last ?? "")" } ?? "no estimate")
        }
        var svg = open(height: height, title: title, description: "cumulative effect at \(cuts.count) cut(s); " + described.joined(separator: "; "))
        for tick in scale.ticks {
            let y = scale.x(tick)
            svg += "<line class=\"\(tick == 0 ? "zero" : "axis")\" x1=\"\(n(left))\" x2=\"\(n(right))\" y1=\"\(n(y))\" y2=\"\(n(y))\"/>"
                + "<text class=\"tick\" x=\"\(n(left - 6))\" y=\"\(n(y + 4))\" text-anchor=\"end\">\(scale.label(tick, format))</text>"
        }
        for index in Set([0, cuts.count / 2, cuts.count - 1]).sorted() where cuts.indices.contains(index) {
            let anchor = cuts.count > 1 && index == 0 ? "start" : cuts.count > 1 && index == cuts.count - 1 ? "end" : "middle"
            svg += "<text class=\"tick\" x=\"\(n(x(index)))\" y=\"\(n(bottom + 18))\" text-anchor=\"\(anchor)\">"
                + HTMLStyle.escape(cuts[index].hasSuffix(":00Z") ? String(cuts[index].dropLast(4)) : cuts[index]) + "</text>"
        }
        for line in series {
            let colour = HTMLStyle.colour(line.colour)
            let shown = line.points.enumerated().filter { $0.element.estimate.isFinite && $0.element.low.isFinite && $0.element.high.isFinite }
            guard !shown.isEmpty else { continue }
            let upper = shown.map { "\(n(x($0.offset))),\(n(scale.x($0.element.high)))" }
            let lower = shown.reversed().map { "\(n(x($0.offset))),\(n(scale.x($0.element.low)))" }
            svg += "<polygon class=\"band \(colour)\" points=\"\((upper + lower).joined(separator: " "))\"/>"
            svg += "<polyline class=\"line \(colour)\" points=\""
                + shown.map { "\(n(x($0.offset))),\(n(scale.x($0.element.estimate)))" }.joined(separator: " ") + "\"/>"
            for (index, point) in shown {
                svg += "<circle class=\"\(colour)\" cx=\"\(n(x(index)))\" cy=\"\(n(scale.x(point.estimate)))\" r=\"\(cuts.count > 40 ? "1.5" : "3")\"><title>"
                    + HTMLStyle.escape("\(line.label) until \(cuts[index]): \(format.text(point.estimate)) "
                                       + "[\(format.text(point.low)), \(format.text(point.high))]") + "</title></circle>"
            }
        }
        return svg + "</svg>"
    }

    /// Each variation's name and figures on a line, and under it its median (dot) and 90th
    /// percentile (square) on a shared seconds axis.
    static func timing(_ rows: [Timing], title: String) -> String {
        // Room at both ends for the axis' outer labels, centred on their ticks.
        let left = 26.0, right = width - 26, rowHeight = 36.0, top = 4.0
        let height = top + Double(rows.count) * rowHeight + 26
        let scale = Scale(rows.flatMap { [$0.median, $0.p90].compactMap { $0 } } + [0], from: left, to: right, clampTo: nil)
        let described = rows.map { row in
            "\(row.variation): " + (row.median.map { "median \(HTMLNumber.tenths.text($0)) s, p90 \(HTMLNumber.tenths.text(row.p90 ?? $0)) s" }
                                    ?? "no conversions")
        }
        var svg = open(height: height, title: title, description: described.joined(separator: "; "))
        svg += scale.axis(top: top, bottom: height - 22, format: .tenths, unit: " s", marksZero: false)
        for (index, row) in rows.enumerated() {
            let y = top + Double(index) * rowHeight
            let colour = HTMLStyle.colour(row.colour)
            var figures = "no conversions", plain = figures
            var marks = ""
            if let median = row.median {
                let p90 = row.p90 ?? median
                marks = "<line class=\"ci \(colour)\" x1=\"\(n(scale.x(median)))\" x2=\"\(n(scale.x(p90)))\" y1=\"\(n(y + 25))\" "
                    + "y2=\"\(n(y + 25))\"/><circle class=\"\(colour)\" cx=\"\(n(scale.x(median)))\" cy=\"\(n(y + 25))\" r=\"5\"/>"
                    + "<rect class=\"\(colour)\" x=\"\(n(scale.x(p90) - 4.5))\" y=\"\(n(y + 20.5))\" width=\"9\" height=\"9\"/>"
                figures = "median " + HTMLNumber.tenths.element(median, row.pointer("medianSeconds"), tag: "tspan") + " s · p90 "
                    + (row.p90.map { HTMLNumber.tenths.element($0, row.pointer("p90Seconds"), tag: "tspan") } ?? "-") + " s"
                plain = "median \(HTMLNumber.tenths.text(median)) s · p90 \(HTMLNumber.tenths.text(p90)) s"
            }
            svg += "<g><title>\(HTMLStyle.escape(described[index]))</title>"
                + label(row.variation, x: 6, y: y + 13, room: width - 24 - textWidth(plain))
                + "<text class=\"label\" x=\"\(n(width - 6))\" y=\"\(n(y + 13))\" text-anchor=\"end\">\(figures)</text>" + marks + "</g>"
        }
        return svg + "</svg>"
    }

    /// A name as a chart's label at (`x`, `y`), cut to fit `room` units.
    private static func label(_ text: String, x: Double, y: Double, room: Double) -> String {
        "<text class=\"label\" x=\"\(n(x))\" y=\"\(n(y))\">\(HTMLStyle.escape(short(text, max(Int(room / characterWidth), 8))))</text>"
    }

    /// About the width of a character of the charts' 12-unit text (wider than most, so text cut
    /// to fit never runs into the next).
    private static let characterWidth = 7.0

    private static func textWidth(_ text: String) -> Double { Double(text.count) * characterWidth }

    private static func open(height: Double, title: String, description: String) -> String {
        "<svg role=\"img\" width=\"\(n(width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\">"
            + "<title>\(HTMLStyle.escape(title))</title><desc>\(HTMLStyle.escape(description))</desc>"
    }

    /// A coordinate with at most one decimal.
    static func n(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(format: "%.1f", rounded)
    }

    private static func short(_ text: String, _ limit: Int) -> String { text.count > limit ? text.prefix(limit - 1) + "…" : text }

    /// A linear map from values to coordinates over "nice" rounded bounds, with their ticks.
    struct Scale {
        let low: Double, high: Double, start: Double, end: Double
        let ticks: [Double]

        init(_ values: [Double], from start: Double, to end: Double, clampTo limits: (Double, Double)?) {
            var finite = values.filter(\.isFinite)
            if let limits { finite = finite.map { min(max($0, limits.0), limits.1) } }
            var low = finite.min() ?? 0, high = finite.max() ?? 1
            if high - low < 1e-12 { (low, high) = (low - 1, high + 1) }
            let raw = (high - low) / 4, magnitude = pow(10, (log10(raw)).rounded(.down)), ratio = raw / magnitude
            let step = (ratio < 1.5 ? 1 : ratio < 3 ? 2 : ratio < 7 ? 5 : 10) * magnitude
            let first = (low / step).rounded(.down) * step, last = (high / step).rounded(.up) * step
            self.low = first
            self.high = last
            self.start = start
            self.end = end
            let count = Int(((last - first) / step).rounded())
            ticks = (0...max(count, 0)).map { index in
                let tick = first + Double(index) * step
                return abs(tick) < step / 1e6 ? 0 : tick
            }
        }

        /// The coordinate of `value`, kept inside the axis.
        func x(_ value: Double) -> Double {
            let clamped = min(max(value.isFinite ? value : 0, low), high)
            return start + (clamped - low) / (high - low) * (end - start)
        }

        /// A tick's label: whole percents without decimals, so that labels stay short.
        func label(_ tick: Double, _ format: HTMLNumber) -> String {
            let percent = tick * 100
            guard format == .signedPercent || format == .percent, abs(percent - percent.rounded()) < 1e-9 else { return format.text(tick) }
            return String(format: format == .signedPercent ? "%+.0f%%" : "%.0f%%", percent)
        }

        /// Vertical grid lines with labels below, the zero line dashed.
        func axis(top: Double, bottom: Double, format: HTMLNumber, unit: String = "", marksZero: Bool = true) -> String {
            ticks.map { tick in
                "<line class=\"\(tick == 0 && marksZero ? "zero" : "axis")\" x1=\"\(n(x(tick)))\" x2=\"\(n(x(tick)))\" "
                    + "y1=\"\(n(top))\" y2=\"\(n(bottom))\"/><text class=\"tick\" x=\"\(n(x(tick)))\" y=\"\(n(bottom + 16))\" "
                    + "text-anchor=\"middle\">\(label(tick, format))\(unit)</text>"
            }.joined()
        }
    }
}
