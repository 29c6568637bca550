@testable import RemixWarehouse
import Testing
@testable import RemixAnalysis

/// The warehouse result's CSV (``AggregateTable``) and the query's quoting (``WarehouseDialect``).
struct WarehouseTableTests {
    @Test func quotedFieldsKeepCommasQuotesAndLineBreaks() throws {
        let csv = "section,experiment,variation,question,part,rank,n,value\r\n"
            + "conversions,\"x,\"\"y\"\"\",\"a\nb\",e,,,12,\n" + "sums,x,a,q,x,,,0.1000000000000000055511151231257827\n"
        let table = try AggregateTable(csv: csv, name: "r.csv")
        #expect(table.rows.count == 2)
        #expect(table.rows[0].experiment == "x,\"y\"" && table.rows[0].variation == "a\nb" && table.rows[0].n == 12)
        #expect(table.rows[0].rank == nil && table.rows[0].value == nil)
        #expect(table.rows[1].line == 4, "a record's line counts the line breaks inside quotes")
        #expect(table.rows[1].value.flatMap(Double.init) == 0.1)
    }

    @Test func aHeaderWithoutTheColumnsOrABadNumberSaysWhere() {
        #expect(throws: AnalysisError.self) { try AggregateTable(csv: "a,b\n1,2\n", name: "r.csv") }
        do {
            _ = try AggregateTable(csv: "section,experiment,variation,question,part,rank,n,value\nlines,,,,,,1.5,\n", name: "r.csv")
            Issue.record("a fractional count was read")
        } catch {
            #expect(error.description.contains("r.csv:2") && error.description.contains("n is '1.5'"), "\(error.description)")
        }
    }

    @Test func namesAreQuotedForEachDialect() {
        #expect(WarehouseDialect.duckdb.literal("a'b") == "'a''b'")
        #expect(WarehouseDialect.postgresql.identifier("a\"b") == "\"a\"\"b\"")
        #expect(WarehouseDialect.spark.literal(#"a\'b"#) == #"'a\\\'b'"#)
        #expect(WarehouseDialect.spark.identifier("a`b") == "`a``b`")
    }

    @Test func aQuestionTheResultLacksIsAnError() async throws {
        let csv = "section,experiment,variation,question,part,rank,n,value\nlines,,,,,,3,\nunits,e,a,,,,3,\n"
        let queries = try TableAggregates(try AggregateTable(csv: csv, name: "r.csv"))
        let query = UnitValueQuery(event: "buy", field: "amount", indicator: false, windowMs: nil, pre: false, cap: nil)
        await #expect(throws: AnalysisError.self) { _ = try await queries.valueSums(experiment: "e", x: query, y: nil) }
        #expect(try await queries.exposures(experiment: "e").variations["a"]?.units == 3)
    }

    /// A result no query gives is refused, naming the line: more units counted than the variation
    /// has, a negative count, an aggregate twice (the same row, or the same names with another count).
    @Test(arguments: [
        ("units,e,a,,,,252,\nconversions,e,a,published,,,999,\n", "r.csv:4", "counts 999 units, but the variation has 252"),
        ("units,e,a,,,,-5,\n", "r.csv:3", "n is -5"),
        ("units,e,a,,,,252,\nunits,e,a,,,,252,\n", "r.csv:4", "a second row for section units, experiment \"e\", variation \"a\" (the first is line 3)"),
        ("units,e,a,,,,252,\nunits,e,a,,,,100,\n", "r.csv:4", "a second row"),
        ("units,e,a,,,,10,\nsums,e,a,q,conversions,,11,\n", "r.csv:4", "counts 11 units"),
        ("units,e,a,,,,10,\ndurations,e,a,buy,count,,12,\n", "r.csv:4", "counts 12 units"),
        ("units,e,a,,,,10,\nscreen,e,b,home,,,1,\n", "r.csv:4", "the variation has 0"),
        ("units,e,a,,,,10,\nunit_values,e,a,q,rank,-1,,5\n", "r.csv:4", "rank is -1"),
    ])
    func impossibleRowsAreRefused(rows: String, place: String, reason: String) throws {
        let csv = "section,experiment,variation,question,part,rank,n,value\nlines,,,,,,300,\n" + rows
        do {
            _ = try TableAggregates(try AggregateTable(csv: csv, name: "r.csv"))
            Issue.record("accepted: \(rows)")
        } catch {
            #expect(error.description.hasPrefix("cannot read \(place): ") && error.description.contains(reason), "\(error.description)")
        }
    }

    @Test func negativeLinesAreRefusedAndTimesAndIdsMayBeNegative() throws {
        let header = "section,experiment,variation,question,part,rank,n,value\n"
        #expect(throws: AnalysisError.self) { try TableAggregates(try AggregateTable(csv: header + "lines,,,,,,-1,\n", name: "r.csv")) }
        // A variation id, a first exposure before 1970 and the cuts' times are not counts.
        let fine = header + "lines,,,,,,3,\nvariation,e,a,,,,-1,\nunits,e,a,,,,3,\nunits,e,a,,first,,-5000,\n"
            + "units,e,a,,last,,-4000,\ncut,,,,count,,2,\ncut,,,,at,,-3600000,\ncut,,,,at,,0,\ncut,,,,last,,3600000,\n"
        _ = try TableAggregates(try AggregateTable(csv: fine, name: "r.csv"))
    }

    /// `--table` is a (schema-qualified) identifier, quoted in each dialect; anything else is refused.
    @Test func theEventsTableIsAQuotedIdentifier() {
        for dialect in WarehouseDialect.allCases {
            for hostile in ["events; DROP TABLE users; --", "events x", "a.b.c.d", "", ".events", "events.", "1events", "ev\"ents",
                            "ev`ents", "évents", String(repeating: "e", count: 64)] {
                #expect(dialect.table(hostile) == nil, "\(dialect) accepted \(hostile)")
            }
        }
        #expect(WarehouseDialect.duckdb.table("Analytics.events_2") == #""Analytics"."events_2""#)
        #expect(WarehouseDialect.spark.table("analytics.Events") == "`analytics`.`Events`")
        #expect(WarehouseDialect.postgresql.table("Analytics.Events") == #""analytics"."events""#, "PostgreSQL reads a plain name in lower case")
        #expect(WarehouseDialect.postgresql.table("db.team_a.events") == #""db"."team_a"."events""#)
    }
}
