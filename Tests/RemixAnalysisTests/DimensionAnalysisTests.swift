import Foundation
@testable import RemixAnalysis
import RemixKit
import RemixLogReader
@testable import RemixReports
import Testing

/// `--dimension`: each unit's value from its earliest session_started event, in any line order,
/// the most common values as slices and the rest as (other), with every slice's counts equal to
/// a direct count.
@Suite struct DimensionAnalysisTests {
    static func line(_ second: Int, _ type: String, _ user: String, _ extra: String = "") -> String {
        #"{"ts":"\#(MetricsAnalysisTests.timestamp(second))","type":"\#(type)","user":"\#(user)"\#(extra)}"#
    }

    /// 300 users over 13 countries (one spelt with an escape), a later session in another country
    /// that must not count, users without a session_started event.
    static func scenario() -> (lines: [String], country: [String: String], published: Set<String>) {
        var lines: [String] = [], country: [String: String] = [:], published = Set<String>()
        let countries = (0..<13).map { "C\($0)" }
        for index in 0..<300 {
            let user = "u\(index)", variation = index % 2
            let name = countries[(index * index + index / 7) % 13]
            // Later visit in another country, written before the first one.
            lines.append(line(5000 + index, "session_started", user,
                              #","persona":"p","attributes":{"id":"\#(user)","country":"ZZ"}"#))
            if index % 17 != 0 {
                let spelt = name == "C3" ? #"C\u0033"# : name
                let attributes = ##"{"note":"a \"}\" {[","id":""## + user
                    + ##"","nested":{"country":"no"},"list":[1,{"country":"x"}],"country":""## + spelt + "\"}"
                lines.append(line(100 + index, "session_started", user,
                                  ",\"persona\":\"p\(index % 3)\",\"visit\":1,\"attributes\":" + attributes))
                country[user] = name
            } else {
                country[user] = "ZZ"
            }
            lines.append(MetricsAnalysisTests.exposureLine(user, variation: variation, second: 200 + index))
            if (index * 7) % 5 < 2 + variation {
                lines.append(line(400 + index, "published", user))
                published.insert(user)
            }
        }
        var generator = SeededGenerator(seed: 7)
        lines.shuffle(using: &generator)
        return (lines, country, published)
    }

    @Test(arguments: [1, 2]) func slicesEqualADirectCount(jobs: Int) throws {
        let (lines, country, published) = Self.scenario()
        var options = AnalysisOptions(logs: [try AnalysisFixture.log(lines)], metrics: ["published"], jobs: jobs)
        options.dimension = "country"
        options.readSizes = LogReader.Sizes(chunk: 211, parallelMinimum: 64, maxLineLength: 1 << 20)
        let report = try Analyzer.run(options)
        #expect(report.log.badLines == 0)
        let experiment = try #require(report.experiments.first)
        var unitsOf: [String: Int] = [:]
        for value in country.values { unitsOf[value, default: 0] += 1 }
        let ranked: [String] = Self.ranked(unitsOf)
        let top: ArraySlice<String> = ranked.prefix(10)
        let sliceValues: [String] = experiment.slices.map(\.value)
        let expectedValues: [String] = Array(top) + ["(other)"]
        #expect(sliceValues == expectedValues)
        #expect(!sliceValues.contains { (value: String) -> Bool in value == "no" || value == "x" })
        var unitsInSlices = 0
        for slice in experiment.slices {
            let members: [String: String] = Self.members(of: slice.value, in: country, top: top)
            for (variation, counted) in slice.experiment.variations.enumerated() {
                let users: [String] = members.keys.filter { (user: String) -> Bool in Int(user.dropFirst())! % 2 == variation }
                let conversions: Int = users.filter(published.contains).count
                #expect(counted.units == users.count, "\(slice.value)")
                #expect(counted.metrics[0].conversions == conversions, "\(slice.value)")
                unitsInSlices += counted.units
            }
            let hasSRM: Bool = slice.experiment.srmPValue != nil
            let comparisons: Int = slice.experiment.comparisons.count
            #expect(hasSRM && comparisons == 1)
        }
        #expect(unitsInSlices == 300)
        let json: String = JSONReport.render(report)
        #expect(json.contains(#""slices":[{"value":"#) && json.contains(#""dimension":"country""#))
        let csv: [Substring] = CSVReport.render(report).split(separator: "\n")
        let header: Substring? = csv.first
        #expect(header?.hasSuffix(",dimension,dimension_value,absolute_expected,absolute_ci_lower,absolute_ci_upper") == true)
        let otherRows: Int = csv.filter { (row: Substring) -> Bool in row.hasSuffix(",country,(other),,,") }.count
        #expect(otherRows == 2)
        let table = TableReport.render(report, style: .terminal(colour: false))
        #expect(table.contains("e · country = \(ranked[0]) · "))
    }

    /// The dimension values, most units first, ties by name.
    static func ranked(_ unitsOf: [String: Int]) -> [String] {
        let sorted: [(key: String, value: Int)] = unitsOf.sorted { (a: (key: String, value: Int), b: (key: String, value: Int)) -> Bool in
            (a.value, b.key) > (b.value, a.key)
        }
        return sorted.map { (entry: (key: String, value: Int)) -> String in entry.key }
    }

    /// The users whose country is in the slice named `value`: the value itself, or for (other)
    /// every country outside the top ones.
    static func members(of value: String, in country: [String: String], top: ArraySlice<String>) -> [String: String] {
        if value == "(other)" {
            return country.filter { (entry: (key: String, value: String)) -> Bool in !top.contains(entry.value) }
        }
        return country.filter { (entry: (key: String, value: String)) -> Bool in entry.value == value }
    }

    @Test func personaIsATopLevelFieldAndAnUnknownNameIsAnError() throws {
        let path = try AnalysisFixture.log(Self.scenario().lines)
        var options = AnalysisOptions(logs: [path], metrics: ["published"], jobs: 1)
        options.dimension = "persona"
        let slices = try #require(try Analyzer.run(options).experiments.first).slices
        let personas: Set<String> = Set(slices.map(\.value))
        #expect(personas == ["p0", "p1", "p2", "p"])
        options.dimension = "cuntry"
        #expect(throws: AnalysisError.self) { try Analyzer.run(options) }
        do {
            _ = try Analyzer.run(options)
        } catch {
            #expect(error.description.hasPrefix("--dimension cuntry: no session_started event has 'attributes.cuntry'"))
        }
    }

    @Test func thePathReaderSkipsStringsArraysAndNestedObjects() {
        func read(_ text: String, _ path: [String]) -> String? {
            JSONPathReader.scalar(in: Array(text.utf8).span, path: path.map { Array($0.utf8) }).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(read(#"{"a":"}{\"","b":{"c":[{"d":1}],"d":"x\u0041"}}"#, ["b", "d"]) == "xA")
        #expect(read(#"{ "a" : 12.5e3 , "b":true}"#, ["a"]) == "12.5e3")
        #expect(read(#"{"a":{"b":1}}"#, ["a"]) == nil)
        #expect(read(#"{"a":[1,2]}"#, ["a"]) == nil)
        #expect(read(#"{"a":1}"#, ["a", "b"]) == nil)
        #expect(read(#"{"a":"unterminated"#, ["a"]) == nil)
        #expect(read(#"{"x":[1,"]"],"a":null}"#, ["a"]) == "null")
        #expect(read("", ["a"]) == nil)
    }
}
