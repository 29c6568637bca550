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
        let queries = TableAggregates(try AggregateTable(csv: csv, name: "r.csv"))
        let query = UnitValueQuery(event: "buy", field: "amount", indicator: false, windowMs: nil, pre: false, cap: nil)
        await #expect(throws: AnalysisError.self) { _ = try await queries.valueSums(experiment: "e", x: query, y: nil) }
        #expect(try await queries.exposures(experiment: "e").variations["a"]?.units == 3)
    }
}
