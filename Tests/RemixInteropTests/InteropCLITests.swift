import Foundation
import RemixCLITestSupport
import RemixExperiments
import RemixInterop
import RemixTestSupport
import Testing

/// `remix export growthbook` and `remix import growthbook`, as a user runs them from the repository root.
@Suite struct InteropCLITests {
    static func remix(_ arguments: [String]) async -> ProcessResult {
        await RemixInProcess.run(arguments, environment: ["REMIX_PLUGIN_PATH": nil])
    }

    @Test func exportPrintsTheLibrarysPayloadAndNotesOnStandardError() async throws {
        let result = await Self.remix(["export", "growthbook", "--at", "2026-12-15T12:00:00Z"])
        #expect(result.status == 0, "\(result.stderr)")
        let registry = try Fixtures.registry()
        let expected = try GrowthBookExport.make(Fixtures.load([Paths.experiments], registry: registry),
                                                 registry: registry, at: Fixtures.december)
        #expect(result.stdout == expected.json)
        #expect(result.stderr == "remix: note: experiments/uk-manual-first.yaml: experiment 'uk-manual-first' runs on a "
                + "schedule (2026-12-01T00:00:00Z to 2027-01-01T00:00:00Z): GrowthBook applies schedules when it builds "
                + "the payload, so this payload holds its rule until it ends; export again then\n")
    }

    @Test func exportThenImportWritesFilesThatValidate() async throws {
        let folder = try TemporaryFolder()
        let payload = folder.path("payload.json")
        let export = await Self.remix(["export", "growthbook", "experiments/plugins", "--plugins", RemixProcess.buildFolder.path,
                                       "--app", "marketplace", "--output", payload])
        #expect(export.status == 0 && export.stdout.isEmpty, "\(export.stderr)")
        let out = folder.path("imported")
        let imported = await Self.remix(["import", "growthbook", payload, "--app", "marketplace", "--slot", "insertion",
                                         "--out", out, "--plugins", RemixProcess.buildFolder.path])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout == "wrote \(out)/quick-insertion.yaml\nwrote \(out)/wizard-insertion.yaml\n"
                + "2 experiments from feature 'marketplace.insertion'; check them with 'remix validate \(out)'\n")
        let validate = await Self.remix(["validate", out, "--plugins", RemixProcess.buildFolder.path])
        #expect(validate.status == 0 && validate.stdout == "2 experiments, 0 errors, 0 warnings\n", "\(validate.stderr)")
        let again = await Self.remix(["export", "growthbook", out, "--plugins", RemixProcess.buildFolder.path,
                                      "--app", "marketplace"])
        #expect(again.stdout == (try String(contentsOfFile: payload, encoding: .utf8)))
        // Without the plugin, QuickInsertion is no registered feature.
        let missing = await Self.remix(["import", "growthbook", payload, "--app", "marketplace", "--slot", "insertion",
                                        "--out", folder.path("other")])
        #expect(missing.status == 1 && missing.stdout.isEmpty)
        #expect(missing.stderr.contains("variation 3 ('quick'): unknown feature 'QuickInsertion'; a plugin may provide it: "
                                        + "load one with --plugins PATH or REMIX_PLUGIN_PATH=PATH"), "\(missing.stderr)")
        #expect(missing.stderr.hasSuffix("nothing was written\n"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("other")))
    }

    @Test(arguments: [
        (["export", "growthbook", "--at", "yesterday"], "remix: --at must be a date like 2026-12-01"),
        (["export", "growthbook", "--app", "calculater"], "remix: --app: unknown app 'calculater'; did you mean 'calculator'?"),
        (["export", "growthbook", "no-such-folder"], "no-such-folder:1:1: error: no such file or folder"),
        (["import", "growthbook", "missing.json", "--app", "marketplace", "--slot", "insertion"], "missing.json: no such file"),
        (["import", "growthbook", "README.md", "--app", "marketplace", "--slot", "insertion"], "README.md: not valid JSON"),
        (["import", "growthbook", "Package.swift", "--app", "marketplce", "--slot", "insertion"],
         "--app/--slot: unknown app 'marketplce'; did you mean 'marketplace'?"),
        (["import", "growthbook", "Package.swift", "--app", "marketplace", "--slot", "insertoin"],
         "--app/--slot: app 'marketplace' has no slot 'insertoin'; did you mean 'insertion'?"),
    ])
    func badInputIsAClearMessageAndExitOne(arguments: [String], message: String) async throws {
        let result = await Self.remix(arguments)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix(message), "\(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
    }

    @Test func anUnsupportedRuleNamesTheFileAndWhatToDo() async throws {
        let folder = try TemporaryFolder()
        let payload = try folder.write("p.json", """
            {"features": {"marketplace.insertion": {"rules": [{"key": "cb", "contextualBanditRef": "cb",
             "variations": ["ManualGroupInsertion", "AutoGroupInsertion"]}]}}}
            """)
        let result = await Self.remix(["import", "growthbook", payload, "--app", "marketplace", "--slot", "insertion",
                                       "--out", folder.path("x")])
        #expect(result.status == 1)
        #expect(result.stderr == "\(payload): feature 'marketplace.insertion' rule 1 ('cb') is a contextual bandit, whose metric "
                + "and update times the payload does not hold (a bandit file needs them, docs/bandits.md); leave it out with "
                + "--skip-unsupported\nnothing was written\n")
        let skipped = await Self.remix(["import", "growthbook", payload, "--app", "marketplace", "--slot", "insertion",
                                        "--out", folder.path("x"), "--skip-unsupported"])
        #expect(skipped.status == 0 && skipped.stdout.hasPrefix("0 experiments"))
        #expect(skipped.stderr.contains("remix: note: feature 'marketplace.insertion' rule 1 ('cb') is left out"))
    }

    @Test(arguments: [["export", "growthbook"], ["import", "growthbook"]])
    func helpDescribesTheCommand(command: [String]) async throws {
        let result = await Self.remix(command + ["--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("docs/growthbook.md"))
        #expect(result.stdout.contains(command[0] == "export" ? "--output" : "--skip-unsupported"))
    }
}
