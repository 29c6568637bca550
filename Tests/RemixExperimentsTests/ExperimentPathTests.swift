import Foundation
import RemixExperiments
import RemixYAML
import Testing

/// Every way an experiment path can fail to read is one clear diagnostic naming the path (issue 21).
@Suite struct ExperimentPathTests {
    @Test func aSymbolicLinkLoopAndAFolderNamedYAMLAreClearErrors() throws {
        let folder = try ExperimentFolder()
        try folder.write("good.yaml", Fixture.experiment("good"))
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("loop.yaml").path,
                                                   withDestinationPath: "loop.yaml")
        try FileManager.default.createDirectory(at: folder.url.appendingPathComponent("folder.yaml"),
                                                withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: folder.url.appendingPathComponent("gone.yaml").path,
                                                   withDestinationPath: "nowhere.yaml")
        let (set, problems) = folder.load()
        #expect(set.definitions.map(\.key) == ["good"])
        #expect(folder.rendered(problems) == [
            "folder.yaml:1:1: error: cannot read this file: it is a folder, not a file",
            "gone.yaml:1:1: error: cannot read this file: it is a symbolic link to 'nowhere.yaml', which does not exist",
            "loop.yaml:1:1: error: cannot read this file: it is a symbolic link loop (following its links leads back "
                + "to itself); point it at a real file or remove it",
        ])
        #expect(!problems.contains { $0.message.contains("NSCocoaErrorDomain") })
    }

    @Test func pathProblemTellsAMissingPathFromAUsableOne() throws {
        let folder = try ExperimentFolder()
        let file = try folder.write("k.yaml", Fixture.experiment("k"))
        #expect(ExperimentSet.pathProblem(folder.path) == nil)
        #expect(ExperimentSet.pathProblem(file) == nil)
        let missing = try #require(ExperimentSet.pathProblem(folder.path + "/nope"))
        #expect(missing.description == "\(folder.path)/nope:1:1: error: no such file or folder; give the experiments "
                + "folder (default: experiments) or an experiment file")
        try FileManager.default.createSymbolicLink(atPath: folder.path + "/self", withDestinationPath: "self")
        #expect(ExperimentSet.pathProblem(folder.path + "/self")?.message.hasPrefix(
            "cannot read experiments here: it is a symbolic link loop") == true)
    }

    @Test func aFileThatIsNotUTF8IsAnErrorAtItsFirstBadByte() throws {
        let folder = try ExperimentFolder()
        let path = folder.url.appendingPathComponent("latin1.yaml")
        try Data("key: k\ndescription: caf".utf8 + [0xE9] + Data("\n".utf8)).write(to: path)
        #expect(throws: Diagnostic(SourceLocation(file: path.path, line: 2, column: 17), .error,
                                   "this file is not UTF-8 text; save it as UTF-8")) {
            try YAMLFile.read(path.path)
        }
    }

    @Test func aFileLargerThanTheLimitIsRefusedBeforeItIsRead() throws {
        let folder = try ExperimentFolder()
        let path = folder.url.appendingPathComponent("huge.yaml").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(YAMLLimits.maxBytes + 1))  // sparse: nothing is written
        try handle.close()
        #expect(throws: Diagnostic(SourceLocation(file: path, line: 1, column: 1), .error,
                                   "the file has 16777217 bytes; a YAML file may have at most 16777216 (16 MiB): "
                                   + "split it into smaller files")) {
            try YAMLFile.read(path)
        }
    }

    @Test func aPipeIsNotReadSoItCannotHang() throws {
        let folder = try ExperimentFolder()
        let path = folder.url.appendingPathComponent("pipe.yaml").path
        #expect(mkfifo(path, 0o600) == 0)
        #expect(YAMLFile.kind(of: path) == .unusable("it is not a regular file (a device, pipe or socket)"))
        let (_, problems) = folder.load()
        #expect(folder.rendered(problems) == [
            "pipe.yaml:1:1: error: cannot read this file: it is not a regular file (a device, pipe or socket)",
        ])
    }

    @Test func moreVariationsThanTheLimitIsOneError() throws {
        let many = (0...ExperimentFileParser.maxVariations).map { "{key: v\($0), feature: ManualGroupInsertion}" }
        let (definition, problems) = ExperimentFileParser.parse(Fixture.experiment("k", variations: many), file: "k.yaml")
        #expect(definition == nil)
        #expect(problems.map(\.description) == [
            "k.yaml:6:3: error: an experiment may have at most 1000 variations, not 1001; split it into several experiments",
        ])
        // The limit itself is fine, and duplicate keys are still found (by a lookup, not a scan).
        var fine = Array(many.dropLast())
        #expect(ExperimentFileParser.parse(Fixture.experiment("k", variations: fine), file: "k.yaml").1.isEmpty)
        fine[999] = "{key: v3, feature: ManualGroupInsertion}"
        #expect(ExperimentFileParser.parse(Fixture.experiment("k", variations: fine), file: "k.yaml").1.map(\.message)
                == ["variation key 'v3' is used twice (first at line 9)"])
    }
}
