import RemixAnalysis
import RemixFormats

/// ``AggregateQueries`` answered from a warehouse's result (``AggregateTable``): the report
/// `remix analyze --aggregates RESULT.csv` builds is the one the log gives, through the same code
/// as an event store's. A question the result has no rows for is an error naming it (the query
/// was made for other experiments, metrics or options), and so is a result no query gives
/// (``AggregateTableCheck``: an aggregate twice, a negative count, more units counted than exposed).
package struct TableAggregates: AggregateQueries {
    private let name: String
    /// Rows by section, then by experiment.
    private let sections: [String: [String: [AggregateTable.Row]]]

    package init(_ table: AggregateTable) throws(AnalysisError) {
        try AggregateTableCheck.check(table)
        name = table.name
        var sections: [String: [String: [AggregateTable.Row]]] = [:]
        for row in table.rows { sections[row.section, default: [:]][row.experiment, default: []].append(row) }
        self.sections = sections
    }

    private func rows(_ section: String, _ experiment: String = "") -> [AggregateTable.Row] {
        sections[section]?[experiment] ?? []
    }

    /// The row's value as a double (the nearest to its decimal text).
    private func number(_ row: AggregateTable.Row) throws(AnalysisError) -> Double {
        guard let text = row.value, let value = Double(text) else {
            throw .cannotRead(path: "\(name):\(row.line)", reason: "value is '\(row.value ?? "")', not a number")
        }
        return value
    }

    private func missing(_ what: String) -> AnalysisError {
        .cannotRead(path: name, reason: "it has no rows for \(what); make it with the query 'remix analyze --sql' prints "
                    + "for the same experiments folder, metrics and options")
    }

    package func overview() async throws(AnalysisError) -> AggregateOverview {
        guard let lines = rows("lines").first?.n else { throw missing("the section lines") }
        var experiments: [String: [(key: String, id: Int, feature: String)]] = [:]
        for (experiment, found) in sections["variation"] ?? [:] {
            experiments[experiment] = found.sorted { $0.variation < $1.variation }.map { ($0.variation, $0.n ?? 0, $0.value ?? "") }
        }
        let runs = rows("run").sorted { ($0.rank ?? 0) < ($1.rank ?? 0) }.compactMap { $0.value.map { Array($0.utf8) } }
        return AggregateOverview(name: name, lines: lines, runRecords: runs, experiments: experiments)
    }

    package func exposures(experiment: String) async throws(AnalysisError) -> ExposureAggregates {
        var variations: [String: (units: Int, first: Int64, last: Int64)] = [:]
        var multiple = 0
        for row in rows("units", experiment) {
            if row.variation.isEmpty {
                if row.part.isEmpty { multiple = row.n ?? 0 }
                continue
            }
            var found = variations[row.variation] ?? (0, 0, 0)
            switch row.part {
            case "first": found.first = Int64(row.n ?? 0)
            case "last": found.last = Int64(row.n ?? 0)
            default: found.units = row.n ?? 0
            }
            variations[row.variation] = found
        }
        return ExposureAggregates(variations: variations, multiple: multiple)
    }

    package func screens(experiment: String, limit: Int) async throws(AnalysisError) -> ScreenAggregates {
        // Names in the order the warehouse first saw them (rank), as a log file's funnel keeps the first ones.
        let all = rows("screen_events", AggregateScope.cut(of: experiment)).sorted { ($0.rank ?? 0, $0.question) < ($1.rank ?? 0, $1.question) }
        var names = all.map(\.question).sorted(), otherEvents = 0
        if names.count > limit {
            otherEvents = all.dropFirst(limit).reduce(0) { $0 + ($1.n ?? 0) }
            names = all.prefix(limit).map(\.question)
        }
        let kept = Set(names)
        var units: [String: [String: Int]] = [:]
        var other: [String: Int]? = otherEvents > 0 ? [:] : nil
        for row in rows("screen", experiment) {
            if row.part == "other" || !kept.contains(row.question) {
                if row.part == "other" { other?[row.variation] = row.n ?? 0 }
            } else {
                units[row.variation, default: [:]][row.question] = row.n ?? 0
            }
        }
        return ScreenAggregates(names: names, units: units, other: other, otherEvents: otherEvents)
    }

    package func conversions(experiment: String, event: String) async throws(AnalysisError) -> [String: Int] {
        var found: [String: Int] = [:]
        for row in rows("conversions", experiment) where row.question == event { found[row.variation] = row.n ?? 0 }
        return found
    }

    /// Counts and ranked values of `section` rows for `question`, per variation.
    private func ranked(_ section: String, experiment: String, question: String) throws(AnalysisError) -> [String: RankedValues<Double>] {
        var found: [String: RankedValues<Double>] = [:]
        for row in rows(section, experiment) where row.question == question {
            var values = found[row.variation] ?? RankedValues(count: 0, values: [:])
            if row.part == "count" {
                values.count = row.n ?? 0
            } else if let rank = row.rank {
                values.values[rank] = try number(row)
            }
            found[row.variation] = values
        }
        return found
    }

    /// `found` with every rank `ranks` asks for, or the error naming the first one missing.
    private func checked(_ found: RankedValues<Double>, _ ranks: [Int], _ what: String) throws(AnalysisError) -> RankedValues<Double> {
        if let rank = ranks.first(where: { found.values[$0] == nil }) { throw missing("rank \(rank) of \(what)") }
        return found
    }

    package func durations(experiment: String, event: String,
                           ranks: (Int) -> [Int]) async throws(AnalysisError) -> [String: RankedValues<Int64>] {
        var result: [String: RankedValues<Int64>] = [:]
        for (variation, values) in try ranked("durations", experiment: experiment, question: event) {
            let found = try checked(values, ranks(values.count), "the times to '\(event)' in \(experiment)/\(variation)")
            result[variation] = RankedValues(count: found.count, values: found.values.mapValues { Int64($0) })
        }
        return result
    }

    package func valueSums(experiment: String, x: UnitValueQuery, y: UnitValueQuery?) async throws(AnalysisError) -> [String: ValueSums] {
        let question = WarehouseQuery.sumsKey(x: x, y: y)
        var counts: [String: [String: Int]] = [:], texts: [String: [String: AggregateTable.Row]] = [:]
        for row in rows("sums", experiment) where row.question == question {
            if row.n != nil || ["conversions", "missing", "non_numeric", "kx", "ky", "kxy"].contains(row.part) {
                counts[row.variation, default: [:]][row.part] = row.n ?? 0
            } else {
                texts[row.variation, default: [:]][row.part] = row
            }
        }
        if counts.isEmpty, !rows("units", experiment).isEmpty { throw missing("the sums of \(question) in \(experiment)") }
        var found: [String: ValueSums] = [:]
        for (variation, count) in counts {
            let parts = texts[variation] ?? [:]
            func exact(_ part: String) throws(AnalysisError) -> ExactSum {
                guard let row = parts[part], let text = row.value else { return ExactSum() }
                guard let pair = DecimalPair.split(text) else {
                    throw .cannotRead(path: "\(name):\(row.line)", reason: "value is '\(text)', not a finite decimal number")
                }
                var sum = ExactSum(pair.high)
                sum.add(pair.low)
                return sum
            }
            var sums = ValueSums()
            sums.conversions = count["conversions"] ?? 0
            (sums.missing, sums.nonNumeric) = (count["missing"] ?? 0, count["non_numeric"] ?? 0)
            var sx = try exact("x"), sxx = try exact("xx"), sy = try exact("y"), syy = try exact("yy"), sxy = try exact("xy")
            // Units above a cap count the cap itself: its share is added here, exactly.
            let kx = Double(count["kx"] ?? 0), ky = Double(count["ky"] ?? 0), kxy = Double(count["kxy"] ?? 0)
            if let cap = x.cap, kx > 0 {
                sx.add(cap, times: kx)
                Self.add(cap, squaredTimes: kx, to: &sxx)
                let others = try exact("xa_y")
                sxy.add(cap, times: others.high)
                sxy.add(cap, times: others.low)
            }
            if let cap = y?.cap, ky > 0 {
                sy.add(cap, times: ky)
                Self.add(cap, squaredTimes: ky, to: &syy)
                let others = try exact("ya_x")
                sxy.add(cap, times: others.high)
                sxy.add(cap, times: others.low)
            }
            if let capX = x.cap, let capY = y?.cap, kxy > 0 {
                let product = capX * capY, error = (-product).addingProduct(capX, capY)
                sxy.add(product, times: kxy)
                sxy.add(error, times: kxy)
            }
            (sums.x, sums.xSquares, sums.y, sums.ySquares, sums.products) = (sx.value, sxx.value, sy.value, syy.value, sxy.value)
            found[variation] = sums
        }
        return found
    }

    /// Adds `count × cap²` to `sum` exactly (cap² as a product and its rounding error).
    private static func add(_ cap: Double, squaredTimes count: Double, to sum: inout ExactSum) {
        let square = cap * cap, error = (-square).addingProduct(cap, cap)
        sum.add(square, times: count)
        sum.add(error, times: count)
    }

    package func unitValues(experiment: String, x: UnitValueQuery, groups: [[String]],
                            ranks: (Int, Int) -> [Int]) async throws(AnalysisError) -> [RankedValues<Double>] {
        let perVariation = try ranked("unit_values", experiment: experiment, question: x.key)
        let overSlots = try ranked("cap_values", experiment: experiment, question: x.key)["*"]
        var result: [RankedValues<Double>] = []
        for (index, group) in groups.enumerated() {
            // A group is one variation (a quantile) or the counted slots together (a cap's percentile).
            var values = group.count == 1 ? perVariation[group[0]] ?? RankedValues(count: 0, values: [:]) : RankedValues(count: 0, values: [:])
            if let overSlots, group.count > 1 || values.count == overSlots.count, !overSlots.values.isEmpty {
                values.count = overSlots.count
                values.values.merge(overSlots.values) { first, _ in first }
            }
            result.append(try checked(values, ranks(index, values.count), "the unit values of \(x.key) in \(experiment)"))
        }
        return result
    }

    package func eventValues(experiment: String, x: UnitValueQuery,
                             ranks: (Int) -> [Int]) async throws(AnalysisError) -> [String: RankedValues<Double>] {
        var result: [String: RankedValues<Double>] = [:]
        for (variation, values) in try ranked("event_values", experiment: experiment, question: x.key) {
            result[variation] = try checked(values, ranks(values.count), "the event values of \(x.key) in \(experiment)/\(variation)")
        }
        return result
    }

    package func cuts() async throws(AnalysisError) -> CutAggregates {
        var found = CutAggregates()
        for row in rows("cut") {
            switch row.part {
            case "count": found.count = row.n ?? 0
            case "last": found.last = Int64(row.n ?? 0)
            default: if let at = row.n { found.cuts.append(Int64(at)) }
            }
        }
        found.cuts.sort()
        return found
    }

    package func slices(experiment: String) async throws(AnalysisError) -> [String] {
        let ranked = rows("slice", experiment).sorted { ($0.rank ?? 0) < ($1.rank ?? 0) }
        let shown = ranked.prefix(DimensionSlicer.shown).map(\.question)
        return ranked.count > DimensionSlicer.shown ? shown + [DimensionSlicer.otherName] : shown
    }

    package func phaseAggregates(experiment: String) async throws(AnalysisError) -> PhaseAggregates {
        var found = PhaseAggregates()
        for row in rows("phase_first", experiment) { if let phase = row.rank { found.firstExposed[phase] = row.n ?? 0 } }
        for row in rows("phase_crossing", experiment) {
            if row.part == "units" { found.unitsInSeveralPhases = row.n ?? 0 } else { found.switching = row.n ?? 0 }
        }
        return found
    }

    package func clusterSums(experiment: String, x: UnitValueQuery,
                             quantiles: [String: Double]) async throws(AnalysisError) -> [String: ClusterSums] {
        var found: [String: ClusterSums] = [:]
        for row in rows("clusters", experiment) where row.question == x.key {
            var sums = found[row.variation] ?? ClusterSums()
            switch row.part {
            case "units": sums.units = row.n ?? 0
            case "main": sums.main = try number(row)
            case "main_squares": sums.mainSquares = try number(row)
            case "count": sums.count = try number(row)
            case "count_squares": sums.countSquares = try number(row)
            case "products": sums.products = try number(row)
            default: break
            }
            found[row.variation] = sums
        }
        return found
    }
}
