import Foundation
import RemixFiles
import RemixTestSupport
import Testing

/// A staged output is all or nothing: until it is committed the destination is as it was, and
/// discarding it leaves nothing behind.
@Suite struct StagedOutputTests {
    static func names(_ path: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    }

    @Test func aFileReplacesItsDestinationOnlyOnCommit() throws {
        let folder = try TemporaryFolder()
        let destination = try folder.write("out.json", "old\n")
        let staged = StagedOutput.file(destination)
        try "new\n".write(toFile: staged.path, atomically: false, encoding: .utf8)
        #expect(try String(contentsOfFile: destination, encoding: .utf8) == "old\n")
        try staged.commit()
        #expect(try String(contentsOfFile: destination, encoding: .utf8) == "new\n")
        #expect(Self.names(folder.location) == ["out.json"])

        let dropped = StagedOutput.file(destination)
        try "newer\n".write(toFile: dropped.path, atomically: false, encoding: .utf8)
        dropped.discard()
        #expect(try String(contentsOfFile: destination, encoding: .utf8) == "new\n")
        #expect(Self.names(folder.location) == ["out.json"])
    }

    @Test func aFolderOfFilesArrivesWhole() throws {
        let folder = try TemporaryFolder()
        try folder.write("experiments/kept.yaml", "key: kept\n")
        let existing = try StagedOutput.folder(folder.path("experiments"))
        try existing.write("a\n", as: folder.path("experiments/a.yaml"))
        try existing.write("b\n", as: folder.path("experiments/b.yaml"))
        #expect(Self.names(folder.path("experiments")).filter { !$0.hasPrefix(".") } == ["kept.yaml"])
        try existing.commit()
        #expect(Self.names(folder.path("experiments")) == ["a.yaml", "b.yaml", "kept.yaml"])

        let new = try StagedOutput.folder(folder.path("new/deeper"))
        try new.write("c\n", as: folder.path("new/deeper/c.yaml"))
        #expect(!FileManager.default.fileExists(atPath: folder.path("new")))
        try new.commit()
        #expect(Self.names(folder.path("new/deeper")) == ["c.yaml"])
        #expect(Self.names(folder.location) == ["experiments", "new"])

        let dropped = try StagedOutput.folder(folder.path("other"))
        try dropped.write("d\n", as: folder.path("other/d.yaml"))
        dropped.discard()
        #expect(Self.names(folder.location) == ["experiments", "new"])
    }

    /// A folder written again holds only the new files: the old ones go with it, at once.
    @Test func aReplacedFolderHoldsOnlyTheNewFiles() throws {
        let folder = try TemporaryFolder()
        for name in ["1", "2", "3"] { try folder.write("out.replicates/\(name).yaml", "old \(name)\n") }
        let replacing = try StagedOutput.replacing(folder: folder.path("out.replicates"))
        try replacing.write("new 1\n", as: folder.path("out.replicates/1.yaml"))
        #expect(Self.names(folder.path("out.replicates")) == ["1.yaml", "2.yaml", "3.yaml"], "nothing changes before the commit")
        try replacing.commit()
        #expect(Self.names(folder.path("out.replicates")) == ["1.yaml"])
        #expect(try String(contentsOfFile: folder.path("out.replicates/1.yaml"), encoding: .utf8) == "new 1\n")
        #expect(Self.names(folder.location) == ["out.replicates"], "nothing staged or old is left beside it")

        let dropped = try StagedOutput.replacing(folder: folder.path("out.replicates"))
        try dropped.write("new 2\n", as: folder.path("out.replicates/2.yaml"))
        dropped.discard()
        #expect(Self.names(folder.path("out.replicates")) == ["1.yaml"])
        #expect(Self.names(folder.location) == ["out.replicates"])

        let new = try StagedOutput.replacing(folder: folder.path("fresh"))
        try new.write("x\n", as: folder.path("fresh/x.yaml"))
        try new.commit()
        #expect(Self.names(folder.path("fresh")) == ["x.yaml"])
    }
}
