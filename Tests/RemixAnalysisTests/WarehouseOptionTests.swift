import Foundation
import RemixCLITestSupport
import RemixTestSupport
import Testing

/// `remix analyze --sql DIALECT --table NAME` and `--aggregates RESULT.csv` as a user runs them:
/// a table name is only ever a quoted name, and a result no query gives is refused.
@Suite struct WarehouseOptionTests {
    @Test(arguments: ["duckdb", "spark", "postgresql"])
    func anInjectedTableNameIsRefusedAndASchemaQualifiedOneIsQuoted(dialect: String) async throws {
        let folder = try AnalyzeCommandTests.project()
        let experiments = ["--experiments", folder.path("experiments")]
        let injected = await RemixInProcess.run(["analyze", "--sql", dialect, "--table", "events; DROP TABLE users; --"] + experiments)
        #expect(injected.status == 1 && injected.stdout.isEmpty, "\(injected.stdout)")
        #expect(injected.stderr.contains(#"remix: --table is the events table's name, a plain identifier optionally after its schema"#)
                && injected.stderr.contains(#"not "events; DROP TABLE users; --""#), "\(injected.stderr)")
        let control = await RemixInProcess.run(["analyze", "--sql", dialect, "--table", "ev\u{1B}[2J"] + experiments)
        #expect(control.status == 1 && !control.stderr.contains("\u{1B}") && control.stderr.contains(#"ev\u001b[2J"#), "\(control.stderr)")

        let qualified = await RemixInProcess.run(["analyze", "--sql", dialect, "--table", "analytics.events"] + experiments)
        #expect(qualified.status == 0, "\(qualified.stderr)")
        let quoted = dialect == "spark" ? "FROM `analytics`.`events`" : #"FROM "analytics"."events""#
        #expect(qualified.stdout.contains(quoted), "\(qualified.stdout.prefix(2000))")
        #expect(!qualified.stdout.contains("FROM analytics.events"))
    }

    /// Rows a warehouse never returns: more conversions than units, negative units, a row twice,
    /// negative lines — each refused naming the line, with no report.
    @Test func impossibleAggregatesAreRefusedNamingTheLine() async throws {
        let folder = try AnalyzeCommandTests.project()
        let header = "section,experiment,variation,question,part,rank,n,value\n"
        let cases: [(rows: String, line: Int, says: String)] = [
            ("lines,,,,,,300,\nunits,e,control,,,,252,\nconversions,e,control,advert_published,,,999,\n", 4,
             #"section conversions, experiment "e", variation "control", question "advert_published" counts 999 units, but the variation has 252"#),
            ("lines,,,,,,300,\nunits,e,control,,,,-252,\n", 3, "n is -252"),
            ("lines,,,,,,300,\nunits,e,control,,,,20,\nunits,e,control,,,,20,\n", 4, "a second row for section units"),
            ("lines,,,,,,-300,\n", 2, "n is -300"),
        ]
        for (index, item) in cases.enumerated() {
            let result = try folder.write("result\(index).csv", header + item.rows)
            let analysis = await RemixInProcess.run(["analyze", "--aggregates", result, "--experiments", folder.path("experiments")])
            #expect(analysis.status == 1 && analysis.stdout.isEmpty, "\(analysis.stdout)")
            #expect(analysis.stderr.contains("remix: cannot read \(result):\(item.line): ") && analysis.stderr.contains(item.says),
                    "\(analysis.stderr)")
        }
    }
}
