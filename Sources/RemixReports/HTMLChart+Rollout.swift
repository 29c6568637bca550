import RemixAnalysis

extension HTMLChart {
    /// One decision of a rollout drawn as a bar: the share of traffic from its time on.
    struct ShareStep {
        var label: String
        var share: Double
        var rollback: Bool
        var pointer: JSONPointer
    }

    /// A rollout's share of traffic after each decision, a bar per decision in time order.
    static func rolloutShares(_ steps: [ShareStep], title: String) -> String {
        let left = 6.0, right = width - 56, barHeight = 13.0
        var y = 4.0
        var body = "", described: [String] = []
        for step in steps {
            let share = step.share.isFinite ? min(max(step.share, 0), 1) : 0
            let text = "\(step.label): share \(HTMLNumber.percent.text(step.share)) from then on"
            described.append(text)
            body += "<text class=\"label\" x=\"\(n(left))\" y=\"\(n(y + 11))\">\(HTMLStyle.escape(step.label))</text>"
            y += 16
            body += "<g><title>\(HTMLStyle.escape(text))</title><rect class=\"bar \(HTMLStyle.colour(step.rollback ? 2 : 1))\" "
                + "x=\"\(n(left))\" y=\"\(n(y))\" width=\"\(n(max(share * (right - left), 1)))\" height=\"\(n(barHeight))\"/>"
                + "<text x=\"\(n(left + share * (right - left) + 6))\" y=\"\(n(y + barHeight - 2))\">"
                + HTMLNumber.percent.element(step.share, step.pointer, tag: "tspan") + "</text></g>"
            y += barHeight + 10
        }
        let height = y + 2
        return "<svg role=\"img\" width=\"\(n(width))\" height=\"\(n(height))\" viewBox=\"0 0 \(n(width)) \(n(height))\">"
            + "<title>\(HTMLStyle.escape(title))</title><desc>\(HTMLStyle.escape(described.joined(separator: "; ")))</desc>"
            + body + "</svg>"
    }
}
