import RemixBuiltIns
import RemixHost
import RemixKit
import RemixTerminal
import Testing

/// Scripted terminal sessions, as a person would type them, publishing through each insertion flow.
@Suite struct TerminalScriptTests {
    /// Runs `lines` through a terminal driver and returns everything it printed.
    static func transcript(
        app: String = "marketplace", platform: String? = nil, slot: String? = nil, _ lines: [String]
    ) throws -> (output: String, outcome: TerminalOutcome) {
        let registry = try BuiltInModules.registry()
        var output = ""
        let chooser = slot.map { FixedSlotChooser(fillers: ["insertion": $0]) }
        let session = try AppSession(app: app, platform: platform, registry: registry,
                                     events: TerminalEventEcho { output += $0 }, chooser: chooser)
        var input = lines[...]
        let outcome = TerminalDriver(session: session, readLine: { input.popFirst() }, write: { output += $0 }).run()
        return (output, outcome)
    }

    @Test func manualInsertionPublishesThroughTheTerminal() throws {
        // New advert, Bicycles, Off road bikes, Mountain bikes, type the title, Next.
        let (output, outcome) = try Self.transcript(slot: "ManualGroupInsertion",
                                                    ["5", "1", "1", "2", "1", "Steel hardtail", "2", "q"])
        #expect(outcome == TerminalOutcome(quit: true, errors: []))
        #expect(output.contains("── adverts > groups > groups(Bicycles) > groups(Off road bikes) > title ──"))
        #expect(output.contains("• advert_published"))
        #expect(output.contains("group=\"4\" title=\"Steel hardtail\""))
        #expect(output.contains("Select \"Steel hardtail\" (Mountain bikes)"))
    }

    @Test func theWayForwardAndDrillDownRowsAreMarked() throws {
        let (output, outcome) = try Self.transcript(slot: "ManualGroupInsertion", ["5", "2", "q"])
        #expect(outcome.errors.isEmpty)
        #expect(output.contains("  5) [New advert]\n  6) Filters\n"))
        #expect(output.contains("""
            ── adverts > groups ──
            Select group
              1) Select "Bicycles" ›
              2) Select "Cars"
              3) Reset
              b) Back
            """))
        #expect(output.contains("""
            ── adverts > groups > title ──
            Advert title
              Advert title: ""
              1) Type Advert title (now "")
              2) [Next]
            """))
    }

    @Test func aLoadingToastIsShownAsBusy() throws {
        let (output, _) = try Self.transcript(slot: "AutoGroupInsertion", ["5", "1", "Racing car", "2", "q"])
        #expect(output.contains("── adverts > title ^ toast(Autoselecting group...) ──\nAutoselecting group... (busy)\n"))
        #expect(output.components(separatedBy: "(busy)").count == 2)
    }

    @Test func calculatorsAnalyseAndOKAreTheWayForward() throws {
        let (output, _) = try Self.transcript(app: "calculator", ["1", "4", "2", "2", "3"])
        #expect(output.contains("  3) [Analyse]\n"))
        #expect(output.contains("  1) [OK]\n"))
    }

    @Test func autoInsertionWaitsForTheRecommendationAndPublishes() throws {
        let (output, outcome) = try Self.transcript(slot: "AutoGroupInsertion", ["5", "1", "Racing car", "2", "q"])
        #expect(outcome.errors.isEmpty)
        #expect(output.contains("toast(Autoselecting group...)"))
        #expect(output.contains("(2 s pass)"))
        #expect(output.contains("group=\"5\" title=\"Racing car\""))
        #expect(output.contains("Select \"Racing car\" (Racers)"))
    }

    @Test func alternatingInsertionGivesManualThenAuto() throws {
        // First attempt (Manual): back on the root group list cancels. Second (Auto): publish.
        let (output, outcome) = try Self.transcript(["5", "b", "5", "1", "sofa", "2", "q"])
        #expect(outcome.errors.isEmpty)
        #expect(output.contains("• insertion_cancelled"))
        #expect(output.contains("flow=\"AutoGroupInsertionCoordinator\""))
        #expect(output.contains("group=\"10\" title=\"sofa\""))
    }

    @Test func tabletInsertionHasACancelButton() throws {
        let (output, outcome) = try Self.transcript(platform: "tablet", slot: "ManualGroupInsertion", ["5", "3", "q"])
        #expect(outcome.errors.isEmpty)
        #expect(output.contains("── adverts |  ^ groups ──"))
        #expect(output.contains("3) Cancel"))
        #expect(output.contains("• insertion_cancelled"))
    }

    @Test func unknownActionsAreReportedAndTheSessionGoesOn() throws {
        let (output, outcome) = try Self.transcript(["x", "42", "b", "6", "q"])
        #expect(outcome.quit)
        #expect(outcome.errors.count == 3)
        #expect(output.contains("! unknown action 'x': type a number from 1 to 6, q (quit)"))
        #expect(output.contains("! there is no screen to go back to here"))
        #expect(output.contains("── adverts > filter ──"))
    }

    @Test func endOfInputEndsTheSession() throws {
        let (output, outcome) = try Self.transcript(app: "calculator", ["1", "4", "2", "2", "3"])
        #expect(outcome == TerminalOutcome(quit: false, errors: []))
        #expect(output.contains("6 is not prime"))
        #expect(output.hasSuffix("(end of input)\n"))
    }
}
