import Foundation
import RemixFormats
import Testing

/// `PathText.folder(of:)` is `NSString.deletingLastPathComponent`, also for the paths on which that
/// traps (one character, then slashes only: `y`, `x/`) or errs (slashes only: `//` gives "").
@Suite struct PathTextTests {
    /// Paths of one character and any slashes after it: Foundation (Swift 6.3.1) traps on them.
    static func trapsFoundation(_ path: String) -> Bool {
        guard let first = path.first, first != "/" else { return false }
        return path.dropFirst().allSatisfy { $0 == "/" }
    }

    @Test func theFolderIsFoundationsWhereFoundationWorks() {
        let parts = ["", "/", "//", "a", "bc", "b.yaml", "."]
        var paths: Set<String> = []
        for first in parts { for second in parts { for third in parts { paths.insert(first + second + third) } } }
        for path in paths where !Self.trapsFoundation(path) && !path.allSatisfy({ $0 == "/" }) {
            #expect(PathText.folder(of: path) == (path as NSString).deletingLastPathComponent, "\(path)")
        }
    }

    @Test func whereFoundationTrapsOrErrsTheFolderIsWhatItDocuments() {
        for path in ["y", ".", "x/", "a//", "./"] {
            #expect(PathText.folder(of: path) == "", "\(path)")
        }
        for path in ["/", "//", "///"] {
            #expect(PathText.folder(of: path) == "/", "the root's folder is the root: \(path)")
        }
        #expect(PathText.folder(of: "") == "")
    }
}
