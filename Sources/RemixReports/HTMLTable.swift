import RemixAnalysis

/// A table of the HTML page that fits the screen, from a desktop's to a phone's: its cells wrap at
/// spaces (a name anywhere) rather than push the page wider, and on a narrow screen each row is a
/// card of "heading: value" lines (the style sheet's `table.fit`), so no table scrolls sideways.
struct HTMLTable {
    /// A column: its heading as markup, the same as plain text for each card line, and whether
    /// its cells are text (left-aligned) rather than figures.
    struct Column {
        var heading: String
        var label: String
        var text = false

        /// A column headed by plain `text`.
        init(_ text: String, isText: Bool = false) {
            heading = HTMLStyle.escape(text)
            label = text
            self.text = isText
        }

        init(heading: String, label: String, text: Bool = false) {
            self.heading = heading
            self.label = label
            self.text = text
        }
    }

    var columns: [Column]
    /// Each row's cells as markup; a row with fewer cells spans its last one over the rest.
    var rows: [[String]] = []

    init(_ columns: [Column]) {
        self.columns = columns
    }

    mutating func add(_ cells: [String]) { rows.append(cells) }

    var html: String {
        var out = "<div class=\"scroll\"><table class=\"fit\"><tr>"
            + columns.map { "<th\($0.text ? " class=\"text\"" : "")>\($0.heading)</th>" }.joined() + "</tr>"
        for row in rows {
            out += "<tr>"
            for (index, cell) in row.enumerated() {
                let column = columns[index]
                let span = index == row.count - 1 && row.count < columns.count ? " colspan=\"\(columns.count - index)\"" : ""
                out += "<td\(column.text ? " class=\"text\"" : "")\(span) data-label=\"\(HTMLStyle.escape(column.label))\">\(cell)</td>"
            }
            out += "</tr>"
        }
        return out + "</table></div>\n"
    }
}
