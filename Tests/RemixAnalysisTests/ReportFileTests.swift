import Foundation
@testable import RemixAnalysis
@testable import RemixReports
import RemixTestSupport
import Testing

/// `--output` writes into what the path names — never replaces a symlink, a hard link or a
/// device — and a write error is an error.
@Suite struct ReportFileTests {
    static func info(_ path: String) throws -> stat {
        var info = stat()
        try #require(stat(path, &info) == 0)
        return info
    }

    @Test func aSymlinkIsWrittenThroughAndStaysASymlink() throws {
        let folder = try TemporaryFolder()
        let target = try folder.write("target.txt", "old")
        let link = folder.path("link.txt")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        try ReportFile.write("new report\n", to: link)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == target)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "new report\n")
    }

    @Test func aHardLinkedFileKeepsItsInodeLinksAndMode() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("report.txt", String(repeating: "old and longer\n", count: 100))
        let other = folder.path("other-name.txt")
        try #require(link(path, other) == 0)
        try #require(chmod(path, 0o600) == 0)
        let before = try Self.info(path)
        try ReportFile.write("short\n", to: path)
        let after = try Self.info(path)
        #expect(after.st_ino == before.st_ino && after.st_nlink == 2)
        #expect(after.st_mode & 0o777 == 0o600)
        #expect(try String(contentsOfFile: other, encoding: .utf8) == "short\n", "truncated, written through")
    }

    @Test func aNewFileIsMade() throws {
        let folder = try TemporaryFolder()
        try ReportFile.write("x\n", to: folder.path("new.json"))
        #expect(try String(contentsOfFile: folder.path("new.json"), encoding: .utf8) == "x\n")
    }

    @Test func aFullDeviceIsAnErrorAndStaysADevice() throws {
        #expect(throws: ReportFile.WriteError(path: "/dev/full", reason: "No space left on device")) {
            try ReportFile.write("report\n", to: "/dev/full")
        }
        #expect(try Self.info("/dev/full").st_mode & S_IFMT == S_IFCHR)
        try ReportFile.write("report\n", to: "/dev/null")
        #expect(try Self.info("/dev/null").st_mode & S_IFMT == S_IFCHR)
    }

    @Test func aFIFOIsWrittenWhenSomethingReadsItAndRefusedWhenNothingDoes() throws {
        let folder = try TemporaryFolder()
        let fifo = folder.path("pipe")
        try #require(mkfifo(fifo, 0o600) == 0)
        #expect(throws: ReportFile.WriteError(path: fifo, reason: "it is a FIFO and nothing is reading it")) {
            try ReportFile.write("report\n", to: fifo)
        }
        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        try #require(reader >= 0)
        defer { close(reader) }
        try ReportFile.write("report\n", to: fifo)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(reader, &buffer, buffer.count)
        #expect(String(decoding: buffer[..<max(count, 0)], as: UTF8.self) == "report\n")
        #expect(try Self.info(fifo).st_mode & S_IFMT == S_IFIFO)
    }

    @Test func aFolderIsAnError() throws {
        let folder = try TemporaryFolder()
        #expect(throws: ReportFile.WriteError(path: folder.location, reason: "Is a directory")) {
            try ReportFile.write("report\n", to: folder.location)
        }
    }
}
