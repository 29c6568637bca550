import RemixLogReader

/// The analysis' passes over logs with the reader (RemixLogReader): the first pass into a
/// ``LogTally``, and the second passes for value sums and dimensions.
extension LogReader {
    /// Tallies every log in `paths` (`-` is standard input) with up to `jobs` threads.
    /// With `kept`, the events of its types are kept too (each part within its share of the budget).
    static func tally(paths: [String], tracked: [String], timed: Set<String>, until: Int64 = .max,
                      kept: KeptEvents? = nil, keptFieldNames: [[UInt8]] = [], jobs: Int,
                      sizes: Sizes = Sizes()) throws(AnalysisError) -> LogTally {
        let partKept = kept.map { KeptEvents(types: $0.types, fieldCount: $0.fieldCount, limit: $0.limit / max(jobs, 1)) }
        // The first part becomes the whole (merging it into an empty tally would intern every unit again).
        var total: LogTally?
        for path in paths {
            let parts = try AnalysisError.reading { () throws(LogReadError) in
                try read(path, jobs: jobs, sizes: sizes) {
                    LogTally(tracked: tracked, timed: timed, until: until, kept: partKept, keptFieldNames: keptFieldNames)
                }
            }
            var lineOffset = 0
            for var part in parts {
                if total == nil {
                    part.becomeWhole(path: displayName(path), keptLimit: kept?.limit)
                    total = part
                } else {
                    total?.merge(part, path: displayName(path), lineOffset: lineOffset)
                }
                lineOffset += part.lines
            }
        }
        return total ?? LogTally(tracked: tracked, timed: timed, until: until, kept: kept, keptFieldNames: keptFieldNames)
    }

    /// Reads every log in `paths` again into per-unit sums (see ``ValueTally``); the logs must be
    /// regular files, read a second time.
    static func sumValues(paths: [String], empty: ValueTally, jobs: Int,
                          sizes: Sizes = Sizes()) throws(AnalysisError) -> ValueTally {
        var total = empty
        for path in paths {
            let parts = try AnalysisError.reading { () throws(LogReadError) in try read(path, jobs: jobs, sizes: sizes, { empty }) }
            for part in parts { total.merge(part) }
        }
        return total
    }

    /// Reads every log in `paths` again for each unit's dimension value (see ``DimensionTally``).
    static func readDimension(paths: [String], empty: DimensionTally, jobs: Int,
                              sizes: Sizes = Sizes()) throws(AnalysisError) -> DimensionTally {
        var total = empty
        for path in paths {
            let parts = try AnalysisError.reading { () throws(LogReadError) in try read(path, jobs: jobs, sizes: sizes, { empty }) }
            for part in parts { total.merge(part) }
        }
        return total
    }
}

extension LineSplitter {
    /// Splits `bytes` (the whole input) into lines of at most `maxLineLength` bytes and tallies
    /// them as an analysis of the `tracked` metrics would; returns the lines counted. For the fuzz
    /// checks (Tests/Fuzz), which exercise the reader on arbitrary bytes.
    package static func tally(_ bytes: Span<UInt8>, maxLineLength: Int, tracked: [String],
                              timed: Set<String>) -> Int {
        var tally = LogTally(tracked: tracked, timed: timed)
        var splitter = LineSplitter(maxLineLength: maxLineLength)
        _ = splitter.split(bytes, atEnd: true, into: &tally)
        return tally.lines
    }
}

extension LogTally: LineSink {
    var numericNames: [[UInt8]] { keptFieldNames }
    var needles: [[UInt8]] { [] }
}
