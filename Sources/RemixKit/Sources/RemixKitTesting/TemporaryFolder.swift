import Foundation

/// A fresh, empty folder for one test's files (a plugin's catalog, experiment files, a log),
/// removed when the value is released.
public final class TemporaryFolder {
    /// The folder.
    public let url: URL

    /// The folder's path.
    public var location: String { url.path }

    /// Makes the folder under the system's temporary directory.
    public init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("remix-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the folder.
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` (creating folders on the way) and returns its path.
    @discardableResult
    public func write(_ name: String, _ text: String) throws -> String {
        let path = self.path(name)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    /// Copies `source` into the folder as `name` and returns the copy's path.
    @discardableResult
    public func copy(_ source: String, as name: String) throws -> String {
        let path = self.path(name)
        try FileManager.default.copyItem(atPath: source, toPath: path)
        return path
    }
}
