import Foundation

/// The Remix checkout the tests are built from, found from this file's path.
package enum Repository {
    /// The repository's root folder.
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The shipped experiments folder.
    package static var experiments: String { root.appendingPathComponent("experiments").path }
}
