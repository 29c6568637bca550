import Foundation

/// The Remix checkout the tests are built from, found from this file's path.
public enum Repository {
    /// The repository's root folder.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The shipped experiments folder.
    public static var experiments: String { root.appendingPathComponent("experiments").path }
}
