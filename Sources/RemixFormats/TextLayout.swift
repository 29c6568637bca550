/// Text laid out for a terminal of a given width (in characters): lines wrapped at spaces with a
/// hanging indent, and tables as aligned columns, or as a block per row where the columns do not fit.
package enum TextLayout {
    /// `line` wrapped at spaces into lines of at most `width` characters. The lines after the first
    /// start with `indent` spaces (default: the line's own leading spaces and two more); a word
    /// longer than a line is cut where the line ends. Trailing spaces are dropped.
    package static func wrap(_ line: String, width: Int, indent: Int? = nil) -> [String] {
        guard line.count > width, width > 0 else { return [line] }
        let leading = line.prefix { $0 == " " }.count
        let hanging = String(repeating: " ", count: min(indent ?? leading + 2, width / 2))
        var lines: [String] = []
        var current = String(repeating: " ", count: min(leading, width / 2))
        var empty = true
        for word in line.dropFirst(leading).split(separator: " ", omittingEmptySubsequences: false) {
            if current.count + (empty ? 0 : 1) + word.count <= width {
                current += (empty ? "" : " ") + word
                empty = false
                continue
            }
            if !empty {
                lines.append(current)
                (current, empty) = (hanging, true)
                // The spaces that ended the line end it: the next line starts at a word.
                if word.isEmpty { continue }
            }
            var rest = Substring(word)
            while current.count + rest.count > width {
                let room = max(width - current.count, 1)
                lines.append(current + rest.prefix(room))
                rest = rest.dropFirst(room)
                current = hanging
            }
            current += rest
            empty = rest.isEmpty
        }
        if !empty || lines.isEmpty { lines.append(current) }
        return lines.map { String($0.reversed().drop { $0 == " " }.reversed()) }
    }

    /// `rows` (the header first) as aligned columns two spaces apart, trailing spaces dropped.
    package static func columns(_ rows: [[String]]) -> [String] {
        guard let header = rows.first else { return [] }
        let widths = header.indices.map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            String(row.enumerated().map { column, cell in
                cell + String(repeating: " ", count: max(widths[column] - cell.count, 0))
            }.joined(separator: "  ").reversed().drop { $0 == " " }.reversed())
        }
    }

    /// Each row of `rows` (the header first, which is not shown itself) as a block of lines: its
    /// first `keys` cells and its cells under an empty heading on the first line (`a · b — c`),
    /// then every other non-empty cell as `heading: cell`, packed `·`-separated into lines of at
    /// most `width`, indented by two spaces. Every cell of the row is in its block.
    package static func blocks(_ rows: [[String]], keys: Int, width: Int) -> [[String]] {
        guard let header = rows.first else { return [] }
        return rows.dropFirst().map { row in
            // Each cell that says something, with its heading and whether it is a key.
            let cells = row.enumerated().filter { !$0.element.isEmpty }.map { column, cell in
                (heading: column < header.count ? header[column] : "", cell: cell, key: column < keys)
            }
            let named = cells.filter { $0.key }.map { $0.cell }
            let untitled = cells.filter { !$0.key && $0.heading.isEmpty }.map { $0.cell }
            let title = named.joined(separator: " · ") + (untitled.isEmpty ? "" : " — " + untitled.joined(separator: " · "))
            var lines = wrap(title, width: width)
            var current = ""
            for (heading, cell, key) in cells where !key && !heading.isEmpty {
                let item = "\(heading): \(cell)"
                if !current.isEmpty, current.count + 3 + item.count <= width {
                    current += " · " + item
                    continue
                }
                if !current.isEmpty { lines += wrap(current, width: width, indent: 4) }
                current = "  " + item
            }
            if !current.isEmpty { lines += wrap(current, width: width, indent: 4) }
            return lines
        }
    }
}
