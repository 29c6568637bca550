import Foundation
import RemixTestSupport
import Testing

/// Every command that loads features takes `--plugins` and `REMIX_PLUGIN_PATH`, and sees plugin
/// features exactly like built-in ones; bad plugins end the command with one line and exit 1.
@Suite struct PluginCommandTests {
    @Test func featuresListsThePluginFromTheEnvironment() async throws {
        let result = await Remix.run(["features"], pluginPath: Build.folder)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("QuickInsertionPlugin (\(Build.plugin))"))
        #expect(result.stdout.contains("QuickInsertion [insertion]"))
        #expect(result.stdout.contains("can be filled by: ManualGroupInsertion, AutoGroupInsertion, AlternatingInsertion, QuickInsertion"))
        #expect(result.stderr.isEmpty)
    }

    @Test func featuresListsThePluginFromTheOption() async throws {
        let result = await Remix.run(["features", "--plugins", Build.plugin])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("QuickInsertion [insertion]"))
        let without = await Remix.run(["features"])
        #expect(without.status == 0)
        #expect(!without.stdout.contains("QuickInsertion"))
    }

    @Test func validateNeedsThePluginForThePluginExperiment() async throws {
        let with = await Remix.run(["validate", Build.experiments, "--plugins", Build.folder])
        #expect(with.status == 0, "stderr: \(with.stderr)")
        #expect(with.stdout.contains("2 experiments, 0 errors"))
        let without = await Remix.run(["validate", Build.experiments])
        #expect(without.status == 1)
        #expect(without.stderr.contains("unknown feature 'QuickInsertion'"))
        let defaults = await Remix.run(["validate"], pluginPath: Build.folder)
        #expect(defaults.status == 0, "the default experiments must stay valid: \(defaults.stderr)")
    }

    /// Without its plugin, a plugin's feature is named as one a plugin may provide, with how to load
    /// it, and beside it only the features that can fill the slot — not every registered feature.
    @Test func aPluginFeatureWithoutItsPluginSaysHowToLoadOne() async throws {
        let hint = "unknown feature 'QuickInsertion'; a plugin may provide it: load one with --plugins PATH or "
            + "REMIX_PLUGIN_PATH=PATH (`remix features` lists what is loaded)"
        let fillers = "(known marketplace/insertion features: AlternatingInsertion, AutoGroupInsertion, ManualGroupInsertion)"
        for arguments in [["validate", Build.experiments], ["run", "--slot", "insertion=QuickInsertion"],
                          ["routes", "--slot", "insertion=QuickInsertion"],
                          ["simulate", "--experiments", Build.experiments, "--users", "10", "--log", "/dev/null"]] {
            let result = await Remix.run(arguments, input: "")
            // validate's summary line is its output; the others print nothing.
            #expect(result.status == 1 && (result.stdout.isEmpty || arguments[0] == "validate"), "\(arguments): \(result.stdout)")
            #expect(result.stderr.contains(hint) && result.stderr.contains(fillers), "\(arguments): \(result.stderr)")
            #expect(!result.stderr.contains("GroupSelection"), "\(arguments): \(result.stderr)")
        }
    }

    @Test func assignExplainsAnAssignmentToThePluginFeature() async throws {
        var found = false
        for user in (1...40).map({ "u\($0)" }) where !found {
            let result = await Remix.run(["assign", "quick-insertion", "--experiments", Build.experiments, "--json",
                                          "--plugins", Build.folder, "--attributes", "{\"id\":\"\(user)\"}"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            found = result.stdout.contains("\"QuickInsertion\"")
        }
        #expect(found, "no user out of 40 was assigned QuickInsertion")
    }

    @Test func runWalksThePluginFlowInTheTerminal() async throws {
        let script = "5\n6\n5\nMountain bike\n2\n6\nq\n"
        let result = await Remix.run(["run", "--slot", "insertion=QuickInsertion", "--plugins", Build.folder], input: script)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("── adverts > quick ──"))
        #expect(result.stdout.contains("Choose a group for your advert"))
        #expect(result.stdout.contains("advert_published"))
        #expect(result.stdout.contains("group=\"4\" title=\"Mountain bike\""))
        // The plugin's semantics on the terminal: Publish is the way forward, the chosen group is ticked.
        #expect(result.stdout.contains("  6) [Publish]\n"))
        #expect(result.stdout.contains("  2) Select \"Mountain bikes\" (Bicycles › Off road bikes) ✓\n"))
        #expect(result.stdout.components(separatedBy: "✓").count == 2)
    }

    /// The sessions of a simulation of experiments/plugins exposed to `feature` as `variation`.
    private func pluginSessions(of log: String, feature: String, variation: String) throws -> [[[String: Any]]] {
        var sessions: [String: [[String: Any]]] = [:]
        let text = try String(contentsOfFile: log, encoding: .utf8)
        for line in text.split(separator: "\n") {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            sessions[event["session"] as? String ?? "", default: []].append(event)
        }
        return sessions.values.filter { events in
            events.contains { $0["type"] as? String == "exposure" && $0["feature"] as? String == feature
                && $0["variation"] as? String == variation && $0["inExperiment"] as? Bool == true }
        }
    }

    private func flows(of sessions: [[[String: Any]]]) -> Set<String?> {
        Set(sessions.flatMap { $0 }.filter { $0["type"] as? String == "insertion_started" }.map { $0["flow"] as? String })
    }

    private func published(_ sessions: [[[String: Any]]]) -> [[[String: Any]]] {
        sessions.filter { events in events.contains { $0["type"] as? String == "advert_published" } }
    }

    @Test func aSimulationExposesAndPublishesThroughThePluginFeatures() async throws {
        let folder = try TemporaryFolder()
        let log = folder.path("events.jsonl")
        // The two plugin experiments share their namespace half each: 600 sessions give each enough.
        let result = await Remix.run(["simulate", "--plugins", Build.folder, "--experiments", Build.experiments,
                                      "--sessions", "600", "--no-report", "--jobs", "2", "--log", log])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("experiment quick-insertion"))
        #expect(result.stdout.contains("experiment wizard-insertion"))
        let quick = try pluginSessions(of: log, feature: "QuickInsertion", variation: "quick")
        #expect(quick.count >= 20, "only \(quick.count) sessions were exposed to QuickInsertion")
        #expect(flows(of: quick) == ["QuickInsertionCoordinator"])
        #expect(!published(quick).isEmpty, "no session published through QuickInsertion")
        #expect(published(quick).count * 3 > quick.count * 2,
                "simulated users fill the one-screen form: \(published(quick).count) of \(quick.count) published")
        // The wizard's three steps are new screens, yet the same simulated user fills the title,
        // taps down the group path and submits the review, from their semantics alone.
        let wizard = try pluginSessions(of: log, feature: "WizardInsertion", variation: "wizard")
        #expect(wizard.count >= 20, "only \(wizard.count) sessions were exposed to WizardInsertion")
        #expect(flows(of: wizard) == ["WizardInsertionCoordinator"])
        #expect(published(wizard).count * 3 > wizard.count * 2,
                "simulated users walk the wizard: \(published(wizard).count) of \(wizard.count) published")
    }

    @Test func runWalksTheWizardStepByStepInTheTerminal() async throws {
        // Next without a title, type it, Next; Bicycles › Off road bikes › Mountain bikes; back from the
        // review; Trail bikes instead; Publish.
        let script = "5\n2\n1\nMountain bike\n2\n1\n1\n2\nb\n1\n1\nq\n"
        let result = await Remix.run(["run", "--slot", "insertion=WizardInsertion", "--plugins", Build.folder], input: script)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("── adverts > wizard-title ──\nStep 1 of 3: Title\n  Type a title for your advert\n"))
        #expect(result.stdout.contains("  2) [Next]\n"))
        #expect(result.stdout.contains("  1) Select \"Bicycles\" ›\n  2) Select \"Cars\"\n"))
        #expect(result.stdout.contains(
            "── adverts > wizard-title > wizard-group > wizard-group(Bicycles) > wizard-group(Off road bikes) > wizard-review ──\n"
            + "Step 3 of 3: Review\n  Title: Mountain bike\n  Group: Bicycles › Off road bikes › Mountain bikes\n  1) [Publish]\n"))
        #expect(result.stdout.contains("  2) Select \"Mountain bikes\" ✓\n"))
        #expect(result.stdout.contains("group=\"3\" title=\"Mountain bike\""))
        #expect(result.stdout.contains("insertion_completed"))
    }

    @Test func thePluginExperimentsShareTheirNamespaceWithoutOverlap() async throws {
        let result = await Remix.run(["validate", Build.experiments, "--namespaces"], pluginPath: Build.folder)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("  insertion-plugins: [0, 0.5) quick-insertion, [0.5, 1) wizard-insertion\n"))
        let onlyQuick = await Remix.run(["validate", Build.experiments, "--plugins", Build.plugin])
        #expect(onlyQuick.status == 1)
        #expect(onlyQuick.stderr.contains("unknown feature 'WizardInsertion'"))
    }

    @Test func simulateSeesNoPluginExperimentByDefault() async throws {
        let folder = try TemporaryFolder()
        let result = await Remix.run(["simulate", "--sessions", "20", "--no-report", "--jobs", "1",
                                      "--log", folder.path("events.jsonl")], pluginPath: Build.folder)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(!result.stdout.contains("quick-insertion"))
        #expect(!result.stdout.contains("wizard-insertion"))
    }

    // MARK: Bad plugins (a library that is no plugin, or a second copy of one, only in a remix process of its own)

    private func expectRefusal(_ result: Remix.Result, file: String, saying reason: String,
                               sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 1, sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(lines.first?.hasPrefix("remix: plugin \(file): \(reason)") == true, "stderr: \(result.stderr)",
                sourceLocation: sourceLocation)
    }

    @Test func aMissingFileIsRefused() async throws {
        let result = await Remix.run(["features", "--plugins", "/nonexistent/libNope.so"])
        expectRefusal(result, file: "/nonexistent/libNope.so", saying: "no such file or directory")
        let fromEnvironment = await Remix.run(["validate"], pluginPath: "/nonexistent")
        expectRefusal(fromEnvironment, file: "/nonexistent", saying: "no such file or directory")
    }

    @Test func aTextFileIsRefused() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("x.so", "hello\n")
        expectRefusal(await Remix.run(["features", "--plugins", file]), file: file, saying: "not a shared library")
        expectRefusal(await Remix.run(["assign", "insertion-flow", "--attributes", "{\"id\":\"u1\"}"], pluginPath: folder.location),
                      file: file, saying: "not a shared library")
    }

    @Test func aLibraryWithoutTheEntryPointIsRefused() throws {
        let folder = try TemporaryFolder()
        let copy = try folder.copy(Build.folder + "/libRemixKit.so", as: "libNotAPlugin.so")
        expectRefusal(try Remix.spawned(["features", "--plugins", copy]), file: copy,
                      saying: "no plugin entry point 'remix_plugin_register'")
        let original = try folder.copy(Build.folder + "/libRemixFeatures.so", as: "libRemixFeatures.so")
        #expect(FileManager.default.fileExists(atPath: original))
        let scanned = try Remix.spawned(["run"], pluginPath: folder.location, input: "q\n")
        expectRefusal(scanned, file: copy, saying: "no plugin entry point")
    }

    @Test func aSecondCopyOfAPluginIsRefusedByName() throws {
        let folder = try TemporaryFolder()
        let copy = try folder.copy(Build.plugin, as: "libQuickInsertionAgain.so")
        let result = try Remix.spawned(["simulate", "--sessions", "1", "--no-report", "--plugins", Build.plugin,
                                    "--plugins", copy, "--log", folder.path("events.jsonl")])
        expectRefusal(result, file: copy, saying: "refused: module 'QuickInsertionPlugin' is already loaded")
    }

    @Test func theSamePluginFromBothSourcesIsLoadedOnce() async throws {
        let result = await Remix.run(["features", "--plugins", Build.plugin], pluginPath: Build.folder)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.components(separatedBy: "QuickInsertion [insertion]").count == 2)
    }
}
