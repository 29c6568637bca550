import Foundation
import RemixAnalysis
import RemixLogReader
import RemixReports
import Testing

/// Corrupt lines, torn final lines, empty logs and unknown experiments.
@Suite struct DataQualityTests {
    static let good = AnalysisFixture.exposure("a", "e", "control", id: 0, at: 1)

    @Test func badLinesAreCountedSkippedAndNamedByLineNumber() throws {
        let path = try AnalysisFixture.log([
            Self.good, "not json", #"{"ts":"2026-11-23T09:00:01.000Z","type":"#, "", "[1,2]",
            AnalysisFixture.exposure("b", "e", "treatment", id: 1, at: 2),
        ])
        let report = try Analyzer.run(AnalysisOptions(logs: [path], metrics: ["m"], jobs: 1))
        #expect(report.log.lines == 6)
        #expect(report.log.badLines == 3)
        #expect(report.log.firstBadLines.map(\.line) == [2, 3, 5])
        #expect(report.log.firstBadLines.allSatisfy { $0.path == path })
        #expect(report.log.firstBadLines.map(\.reason) == [.syntax(byte: 1), .syntax(byte: 41), .notAnObject])
        #expect(report.log.tornFinalLine == false)
        #expect(report.experiments.first?.variations.map(\.units) == [1, 1])
    }

    @Test func strictMakesBadLinesFatal() throws {
        let path = try AnalysisFixture.log([Self.good, "{oops"])
        #expect(throws: AnalysisError.strict(badLines: 1, first: [BadLine(path: path, line: 2, reason: .syntax(byte: 2))])) {
            try Analyzer.run(AnalysisOptions(logs: [path], metrics: ["m"], strict: true, jobs: 1))
        }
    }

    @Test func aTornFinalLineIsReportedAsSuch() throws {
        let path = try AnalysisFixture.log([Self.good, #"{"ts":"2026-11-23T09:00:0"#], torn: true)
        let report = try Analyzer.run(AnalysisOptions(logs: [path], metrics: ["m"], jobs: 1))
        #expect(report.log.tornFinalLine)
        #expect(report.log.badLines == 1)
        #expect(TableReport.render(report, style: .terminal(colour: false)).contains("the final line of \(path) is torn"))
    }

    @Test func aCompleteFinalLineWithoutNewlineCounts() throws {
        let path = try AnalysisFixture.log([Self.good], torn: true)
        let report = try Analyzer.run(AnalysisOptions(logs: [path], metrics: ["m"], jobs: 1))
        #expect(report.log.badLines == 0 && !report.log.tornFinalLine)
        #expect(report.experiments.count == 1)
    }

    @Test func escapedStringsAndOtherKeyOrdersTakeTheFullParser() throws {
        let path = try AnalysisFixture.log([
            #"{"user":"a\u0062","type":"exposure","experiment":"e","variation":"control","variationId":0,"inExperiment":true,"hashUsed":true,"ts":"2026-11-23T09:00:01+00:00"}"#,
            #"{"nested":{"k":[1,{"x":"}"}]},"ts":"2026-11-23T09:00:02.000Z","type":"exposure","user":"c","experiment":"e","variation":"treatment","variationId":1,"inExperiment":true,"hashUsed":true}"#,
            #"{"ts":"2026-11-23T09:00:03.000Z","type":"m","user":"ab"}"#,
        ])
        let report = try Analyzer.run(AnalysisOptions(logs: [path], metrics: ["m"], jobs: 1))
        let experiment = try #require(report.experiments.first)
        #expect(report.log.badLines == 0)
        #expect(experiment.variations.map(\.units) == [1, 1])
        #expect(experiment.variations.map { $0.metrics[0].conversions } == [1, 0])
    }

    @Test func anEmptyLogIsAClearError() throws {
        let path = try AnalysisFixture.log([], torn: true)
        #expect(throws: AnalysisError.emptyLog(files: [path])) {
            try Analyzer.run(AnalysisOptions(logs: [path], metrics: ["m"], jobs: 1))
        }
        #expect(AnalysisError.emptyLog(files: [path]).description.contains("run 'remix simulate' first"))
    }

    @Test func aFileOfNothingButBadLinesIsNotAnEventLog() throws {
        let path = try AnalysisFixture.log(["PK\u{03}\u{04} binary", "<html>", "{\"broken\":"])
        let error = AnalysisError.noEvents(files: [path], badLines: 3, lines: 3, first: [
            BadLine(path: path, line: 1, reason: .syntax(byte: 1)), BadLine(path: path, line: 2, reason: .syntax(byte: 1)),
            BadLine(path: path, line: 3, reason: .syntax(byte: 11)),
        ])
        #expect(throws: error) {
            try Analyzer.run(AnalysisOptions(logs: [path], metrics: ["m"], jobs: 1))
        }
        #expect(error.description.contains("is it a Remix event log?"))
    }

    @Test func aFileOfMostlyBadLinesIsNotAnEventLogButAFewBadLinesAreCounted() throws {
        let good = AnalysisFixture.event("a", "m", at: 1)
        let mostlyBad = try AnalysisFixture.log([good, "\u{7F}ELF binary", "<html>"])
        let error = #expect(throws: AnalysisError.self) {
            try Analyzer.run(AnalysisOptions(logs: [mostlyBad], metrics: ["m"], jobs: 1))
        }
        #expect(error?.description.hasPrefix("2 of the 3 lines of \(mostlyBad) are not JSON events (first: ") == true,
                "\(String(describing: error))")
        let halfBad = try AnalysisFixture.log([good, "<html>"], torn: true)
        let report = try Analyzer.run(AnalysisOptions(logs: [halfBad], metrics: ["m"], jobs: 1))
        #expect(report.log.badLines == 1, "half bad is still a log, with its bad line counted")
        #expect(!report.log.tornFinalLine, "a final line that does not start like an event is not called torn")
        let torn = try AnalysisFixture.log([good, good, "{\"ts\":\"2026-11-23T09:"], torn: true)
        #expect(try Analyzer.run(AnalysisOptions(logs: [torn], metrics: ["m"], jobs: 1)).log.tornFinalLine)
    }

    @Test func aLogWithoutExposuresSaysThereIsNothingToCompare() throws {
        let path = try AnalysisFixture.log([AnalysisFixture.event("a", "m", at: 1)])
        let report = try Analyzer.run(AnalysisOptions(logs: [path], metrics: ["m"], jobs: 1))
        #expect(report.experiments.isEmpty)
        #expect(TableReport.render(report, style: .terminal(colour: false)).contains("no exposures in the log"))
    }

    @Test func anUnknownExperimentListsTheKnownOnes() throws {
        let path = try AnalysisFixture.log([Self.good])
        let error = AnalysisError.unknownExperiment(key: "nope", known: ["e"])
        #expect(throws: error) {
            try Analyzer.run(AnalysisOptions(logs: [path], experiment: "nope", metrics: ["m"], jobs: 1))
        }
        #expect(error.description.contains("experiments in it: e"))
    }

    @Test func aMissingFileIsAClearError() throws {
        #expect(throws: AnalysisError.self) {
            try Analyzer.run(AnalysisOptions(logs: ["/nonexistent/events.jsonl"], metrics: ["m"], jobs: 1))
        }
    }
}
