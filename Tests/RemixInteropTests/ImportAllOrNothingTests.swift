import Foundation
import RemixCLITestSupport
import RemixTestSupport
import Testing

/// `remix import growthbook` writes every file of a payload or none: a rule found wrong stops it
/// before anything is written, and a stop signal leaves the output folder as it was.
@Suite struct ImportAllOrNothingTests {
    /// A payload of rules on Marketplace's insertion slot, each in its own slice of one namespace,
    /// the first only for the saved group `uk`.
    static func payload(keys: [String]) -> String {
        let rules = keys.enumerated().map { index, key in
            let start = Double(index) / Double(keys.count), end = Double(index + 1) / Double(keys.count)
            let condition = index == 0 ? #""condition": {"country": {"$inGroup": "uk"}}, "# : ""
            return #"{"key": "\#(key)", \#(condition)"hashAttribute": "id", "hashVersion": 2, "#
                + #""namespace": ["slices", \#(start), \#(end)], "coverage": 1, "weights": [0.5, 0.5], "#
                + #""variations": ["ManualGroupInsertion", "AutoGroupInsertion"], "meta": [{"key": "manual"}, {"key": "auto"}]}"#
        }
        return #"{"savedGroups": {"uk": ["GB"]}, "features": {"marketplace.insertion": {"rules": [\#(rules.joined(separator: ",\n"))]}}}"#
    }

    static let importArguments = ["--app", "marketplace", "--slot", "insertion", "--out", "imported"]

    static func names(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    /// Runs `remix import growthbook` in process on the folder's payload.json, into its `imported`.
    static func importPayload(in folder: TemporaryFolder) async -> ProcessResult {
        await RemixInProcess.run(["import", "growthbook", folder.path("payload.json"), "--app", "marketplace", "--slot", "insertion",
                                  "--out", folder.path("imported")], environment: ["REMIX_PLUGIN_PATH": nil])
    }

    @Test func aKeyTooLongForAFileNameStopsTheImportBeforeAnyFileIsWritten() async throws {
        let folder = try TemporaryFolder()
        try folder.write("payload.json", Self.payload(keys: ["first", String(repeating: "k", count: 300)]))
        let result = await Self.importPayload(in: folder)
        #expect(result.status == 1)
        #expect(result.stderr.contains("rule 2 ('kkkk") && result.stderr.contains("has a key of 300 bytes"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("nothing was written\n"), "\(result.stderr)")
        #expect(Self.names(folder.location) == ["payload.json"], "no folder, no file")

        // Into a folder that exists: it keeps what it held.
        try folder.write("imported/kept.yaml", "# not an experiment yet\n")
        let again = await Self.importPayload(in: folder)
        #expect(again.status == 1)
        #expect(Self.names(folder.path("imported")) == ["kept.yaml"])
    }

    @Test func aGoodPayloadArrivesWhole() async throws {
        let folder = try TemporaryFolder()
        try folder.write("payload.json", Self.payload(keys: ["first", "second"]))
        let result = await Self.importPayload(in: folder)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.names(folder.path("imported")) == ["first.yaml", "saved-groups.yaml", "second.yaml"])
        let validate = await RemixInProcess.run(["validate", folder.path("imported")], environment: ["REMIX_PLUGIN_PATH": nil])
        #expect(validate.status == 0, "\(validate.stderr)")
    }

    /// Stopped while it writes its files, an import leaves no file and no temporary folder.
    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aStoppedImportLeavesNothing(signal: Int32, status: Int32) throws {
        let folder = try TemporaryFolder()
        try folder.write("payload.json", Self.payload(keys: (0..<Self.manyRules).map { "rule-\($0)" }))
        let remix = try BackgroundRemix(["import", "growthbook", "payload.json"] + Self.importArguments, in: folder.url,
                                        outputIn: folder.location, tag: "import")
        // The first thing the import writes in the folder is its temporary folder (before the fix, its first file).
        let (writing, result) = remix.stop(with: signal) { Self.names(folder.location).contains { $0.contains("imported") } }
        #expect(writing, "the import never began writing; stderr: \(result.stderr)")
        #expect(!result.signalled && result.status == status, "\(result.status): \(result.stderr)")
        #expect(Self.names(folder.location) == ["import.stderr", "import.stdout", "payload.json"], "no file, no temporary folder")
    }

    /// Enough rules that writing their files takes long enough to be stopped midway.
    static let manyRules = 3000
}
