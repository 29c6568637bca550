import Foundation
import RemixCLITestSupport
import RemixTestSupport
import Testing

/// Runs `remix` commands as a user would, with piped input (in process: ``RemixInProcess``).
@Suite struct RemixBinaryTests {
    static func remix(_ arguments: [String], input: String = "") async throws -> ProcessResult {
        await RemixInProcess.run(arguments, input: input)
    }

    @Test func featuresListsAppsSlotsAndFeatures() async throws {
        let result = try await Self.remix(["features"])
        #expect(result.status == 0)
        for name in ["marketplace", "groupbrowser", "calculator", "Discovery", "AdvertList", "GroupSelection",
                     "ManualGroupInsertion", "AutoGroupInsertion", "AlternatingInsertion", "GroupBrowser", "Calculator",
                     "slot insertion [insertion] default AlternatingInsertion",
                     "slot navigation [groupFinder] default TreeGroupFinder", "slot entry [sumEntry] default TwoFieldEntry",
                     "TreeGroupFinder", "SearchGroupFinder", "TwoFieldEntry", "ExpressionEntry"] {
            #expect(result.stdout.contains(name), "missing \(name)")
        }
    }

    @Test(arguments: [
        ("ManualGroupInsertion", "5\n2\n1\nOld banger\n2\nq\n", "group=\"10\" title=\"Old banger\""),
        ("AutoGroupInsertion", "5\n1\nMountain bike\n2\nq\n", "group=\"4\" title=\"Mountain bike\""),
        ("AlternatingInsertion", "5\n2\n1\nFirst\n2\n6\n1\nBMX bike\n2\nq\n", "group=\"3\" title=\"BMX bike\""),
    ])
    func scriptedRunPublishesThroughEachFlow(flow: String, script: String, published: String) async throws {
        let result = try await Self.remix(["run", "--app", "marketplace", "--slot", "insertion=\(flow)"], input: script)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains(published))
    }

    @Test(arguments: [
        (["--app", "groupbrowser", "--slot", "navigation=SearchGroupFinder"], "5\nmoun\n1\nq\n",
         "── search > item(Mountain bikes) ──", "group_viewed group=\"4\""),
        (["--app", "groupbrowser", "--slot", "navigation=TreeGroupFinder"], "2\nq\n",
         "── groups > item(Cars) ──", "group_viewed group=\"10\""),
        (["--app", "calculator", "--slot", "entry=ExpressionEntry"], "1\n4 plus 3\n2\n1\n4 + 3\n2\nq\n",
         "expression_rejected reason=\"malformed\"", "sum_analysed sum=7 prime=true"),
        (["--app", "calculator", "--slot", "entry=TwoFieldEntry"], "1\n4\n2\n3\n3\nq\n",
         "── sum ^ prime ──", "sum_analysed sum=7 prime=true"),
    ])
    func scriptedRunFillsTheSeedAppsSlots(arguments: [String], script: String, screen: String, event: String) async throws {
        let result = try await Self.remix(["run"] + arguments, input: script)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout.contains(screen), "\(result.stdout)")
        #expect(result.stdout.contains(event))
    }

    @Test func badInputGivesAClearMessageAndExitOne() async throws {
        let unknownApp = try await Self.remix(["run", "--app", "marketplce"])
        #expect(unknownApp.status == 1)
        #expect(unknownApp.stderr.contains("unknown app 'marketplce'; did you mean 'marketplace'?"))
        let platform = try await Self.remix(["run", "--platform", "watch"])
        #expect(platform.status == 1)
        #expect(platform.stderr.contains("does not run on 'watch'"))
        let slot = try await Self.remix(["run", "--slot", "insertion=Calculator"])
        #expect(slot.status == 1)
        #expect(slot.stderr.contains("cannot fill slot 'insertion'"))
        let action = try await Self.remix(["run"], input: "seven\nq\n")
        #expect(action.status == 1)
        #expect(action.stdout.contains("unknown action 'seven'"))
        #expect(!action.stderr.contains("Fatal error"))
    }
}
