import Foundation
import RemixFiles
import RemixTestSupport
import Testing

/// No output is an input or another output, by any name: the same path, a symbolic link, a hard
/// link, a folder's file; streams are never refused.
@Suite struct OutputCheckTests {
    @Test func anInputIsNeverAnOutputByAnyName() throws {
        let folder = try TemporaryFolder()
        let input = try folder.write("experiments/flow.yaml", "key: flow\n")
        try FileManager.default.linkItem(atPath: input, toPath: folder.path("hard-link"))
        try FileManager.default.createSymbolicLink(atPath: folder.path("soft-link"), withDestinationPath: input)
        let inputs = [OutputCheck.Input("a file of the experiments folder", folder.path("experiments"))]
        for name in [input, folder.path("hard-link"), folder.path("soft-link"), folder.path("experiments/../experiments/flow.yaml")] {
            let problem = OutputCheck(inputs: inputs, outputs: [.init("--output", name)]).problem()
            #expect(problem == "refusing to write --output \(name): it is a file of the experiments folder \(input), which "
                    + "this command reads; choose another --output (nothing was written)")
        }
        #expect(OutputCheck(inputs: inputs, outputs: [.init("--output", folder.path("report.txt"))]).problem() == nil)
    }

    @Test func twoOutputsAreNeverOneFileEvenBeforeEitherExists() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("sub"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.path("alias"), withDestinationPath: folder.path("sub"))
        try FileManager.default.createSymbolicLink(atPath: folder.path("dangling"), withDestinationPath: folder.path("sub/a.jsonl"))
        for other in [folder.path("sub/a.jsonl"), folder.path("alias/a.jsonl"), folder.path("dangling")] {
            let problem = OutputCheck(inputs: [], outputs: [.init("--log", folder.path("sub/a.jsonl")), .init("--html", other)])
                .problem()
            #expect(problem == "refusing to write --html \(other): it is the same file as --log \(folder.path("sub/a.jsonl")); "
                    + "give each output a file of its own (nothing was written)")
        }
        #expect(OutputCheck(inputs: [], outputs: [.init("--log", folder.path("a.jsonl")), .init("--html", folder.path("a.html"))])
            .problem() == nil)
    }

    @Test func streamsAreNeverRefused() {
        let outputs = [OutputCheck.Output("--log", "/dev/null"), OutputCheck.Output("--html", "/dev/null")]
        #expect(OutputCheck(inputs: [.init("the event log", "/dev/null")], outputs: outputs).problem() == nil)
    }

    /// A folder replaced whole may hold no input, and only files the command writes there.
    @Test func aReplacedFolderHoldsNoInputAndOnlyTheCommandsFiles() throws {
        let folder = try TemporaryFolder()
        let log = try folder.write("out.replicates/log.jsonl", "{}\n")
        try folder.write("out.replicates/1.yaml", "old\n")
        let replaced = OutputCheck.Folder("--output", folder.path("out.replicates")) { $0.hasSuffix(".yaml") }
        #expect(OutputCheck(inputs: [.init("the log", log)], outputs: [], folders: [replaced]).problem()
                == "refusing to write --output \(folder.path("out.replicates")): it is a folder that holds the log \(log), which this "
                + "command reads, and it is replaced whole; choose another --output (nothing was written)")
        #expect(OutputCheck(inputs: [], outputs: [], folders: [replaced]).problem()
                == "refusing to write --output \(folder.path("out.replicates")): it is a folder that holds files this command did not "
                + "write (log.jsonl), and it is replaced whole; move them or choose another --output (nothing was written)")
        try FileManager.default.removeItem(atPath: log)
        #expect(OutputCheck(inputs: [], outputs: [], folders: [replaced]).problem() == nil)
        #expect(OutputCheck(inputs: [], outputs: [], folders: [.init("--output", folder.path("none")) { _ in false }]).problem() == nil)
    }
}
