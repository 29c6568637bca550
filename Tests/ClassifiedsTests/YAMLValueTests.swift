import RemixYAML
import Testing

/// Typed access to YAML nodes, with errors at the node's position.
@Suite struct YAMLValueTests {
    private func value(_ key: String, in yaml: String) throws -> YAMLValue {
        try #require(try YAMLValue.parse(yaml, file: "f.yaml").mapping()[key])
    }

    @Test func intReadsWholeNumbers() throws {
        #expect(try value("n", in: "n: 42").int() == 42)
        #expect(try value("n", in: "n: -7").int() == -7)
    }

    @Test func intRejectsTextAtTheValue() throws {
        let error = #expect(throws: Diagnostic.self) { try value("count", in: "count: abc").int("count") }
        #expect(error?.description == "f.yaml:1:8: error: count must be a whole number, not 'abc'")
        #expect(throws: Diagnostic.self) { try value("count", in: "count: 1.5").int("count") }
    }

    @Test func intRejectsAListNamingItsKind() throws {
        let error = #expect(throws: Diagnostic.self) { try value("count", in: "count: [1, 2]").int("count") }
        #expect(error?.description == "f.yaml:1:8: error: count must be a whole number, not a list")
    }

    @Test func doubleReadsDecimalsAndWholeNumbers() throws {
        #expect(try value("x", in: "x: 1.5").double() == 1.5)
        #expect(try value("x", in: "x: 2").double() == 2)
        #expect(try value("x", in: "x: -0.25").double() == -0.25)
    }

    @Test func doubleRejectsTextAndQuotedNumbers() throws {
        let error = #expect(throws: Diagnostic.self) { try value("weight", in: "weight: heavy").double("weight") }
        #expect(error?.description == "f.yaml:1:9: error: weight must be a number, not 'heavy'")
        let quoted = #expect(throws: Diagnostic.self) { try value("weight", in: "weight: \"1.5\"").double("weight") }
        #expect(quoted?.description == "f.yaml:1:9: error: weight must be a number, not '1.5'")
    }

    @Test func boolReadsTrueAndFalse() throws {
        #expect(try value("b", in: "b: true").bool() == true)
        #expect(try value("b", in: "b: false").bool() == false)
    }

    @Test func boolRejectsOtherWordsAndQuotedBools() throws {
        let error = #expect(throws: Diagnostic.self) {
            try value("active", in: "name: x\nactive: maybe").bool("active")
        }
        #expect(error?.description == "f.yaml:2:9: error: active must be true or false, not 'maybe'")
        #expect(throws: Diagnostic.self) { try value("active", in: "active: \"true\"").bool("active") }
        #expect(throws: Diagnostic.self) { try value("active", in: "active: 1").bool("active") }
    }

    @Test func stringTakesScalarsAsTheirText() throws {
        #expect(try value("s", in: "s: hello world").string() == "hello world")
        #expect(try value("s", in: "s: 42").string() == "42")
        #expect(try value("s", in: "s: \"quoted\"").string() == "quoted")
    }

    @Test func stringRejectsAMapping() throws {
        let error = #expect(throws: Diagnostic.self) { try value("s", in: "s:\n  a: 1").string("s") }
        #expect(error?.description == "f.yaml:2:3: error: s must be text, not a mapping")
    }

    @Test func sequenceAndMappingCheckTheirKind() throws {
        #expect(try value("l", in: "l: [a, b]").sequence().map { try $0.string() } == ["a", "b"])
        let notList = #expect(throws: Diagnostic.self) { try value("l", in: "l: a").sequence("l") }
        #expect(notList?.description == "f.yaml:1:4: error: l must be a list, not a scalar")
        let notMapping = #expect(throws: Diagnostic.self) { try YAMLValue.parse("[1]", file: "f.yaml").mapping("root") }
        #expect(notMapping?.description == "f.yaml:1:1: error: root must be a mapping, not a list")
    }

    @Test func nullIsPlainTildeNullOrEmpty() throws {
        #expect(try value("a", in: "a: ~").isNull)
        #expect(try value("a", in: "a: null").isNull)
        #expect(try value("a", in: "a:").isNull)
        #expect(try !value("a", in: "a: \"null\"").isNull)
        #expect(try !value("a", in: "a: x").isNull)
    }

    @Test func emptyDocumentIsAnEmptyMappingAtTheStart() throws {
        let root = try YAMLValue.parse("", file: "f.yaml").mapping()
        #expect(root.entries.isEmpty)
        #expect(root.location == SourceLocation(file: "f.yaml", line: 1, column: 1))
    }

    @Test func mappingKeepsEntriesInFileOrderWithKeyPositions() throws {
        let root = try YAMLValue.parse("b: 1\na: 2\n", file: "f.yaml").mapping()
        #expect(root.entries.map(\.key) == ["b", "a"])
        #expect(root.entries.map(\.keyLocation.line) == [1, 2])
        #expect(root["a"]?.location == SourceLocation(file: "f.yaml", line: 2, column: 4))
        #expect(root["c"] == nil)
    }

    @Test func requiredKeyMissingIsReportedAtTheMapping() throws {
        let root = try value("thing", in: "top: 1\nthing:\n  a: 1\n").mapping("thing")
        let error = #expect(throws: Diagnostic.self) { try root.required("b", in: "a thing") }
        #expect(error?.description == "f.yaml:3:3: error: a thing needs 'b'")
    }

    @Test func unknownKeysSuggestOrListAndKeepTheSeverity() throws {
        let root = try YAMLValue.parse("nmae: x\nzzz: y\nname: z\n", file: "f.yaml").mapping()
        let problems = root.unknownKeys(allowed: ["name", "size"], in: "a box", severity: .warning) { key, known in
            key == "nmae" ? "name" : nil
        }
        #expect(problems.map(\.description) == [
            "f.yaml:1:1: warning: unknown key 'nmae' in a box; did you mean 'name'?",
            "f.yaml:2:1: warning: unknown key 'zzz' in a box; known keys: name, size",
        ])
    }

    @Test func sourceLocationsOrderByFileLineColumn() {
        let a = SourceLocation(file: "a", line: 2, column: 9)
        let b = SourceLocation(file: "a", line: 10, column: 1)
        let c = SourceLocation(file: "b", line: 1, column: 1)
        #expect(a < b && b < c)
        #expect(a.description == "a:2:9")
    }
}
