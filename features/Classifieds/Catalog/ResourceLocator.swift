import Foundation

/// Finds a module's resource file at run time without trapping when it is missing: beside the
/// running executable (where the build puts resource bundles), under `REMIX_DATA_DIR`, or in the
/// source tree the module was built from.
public enum ResourceLocator {
    /// The first existing copy of `file` among the usual places, or nil.
    public static func find(_ file: String, bundle: String, sourceFile: String = #filePath, sourceFolder: String) -> URL? {
        let manager = FileManager.default
        var candidates: [URL] = []
        if let dir = ProcessInfo.processInfo.environment["REMIX_DATA_DIR"] {
            candidates.append(URL(fileURLWithPath: dir).appendingPathComponent(file))
        }
        let executable = URL(fileURLWithPath: CommandLine.arguments.first ?? "").resolvingSymlinksInPath()
        let selfExe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        for directory in [selfExe.deletingLastPathComponent(), executable.deletingLastPathComponent(),
                          Bundle.main.bundleURL] {
            candidates.append(directory.appendingPathComponent(bundle).appendingPathComponent(file))
        }
        var source = URL(fileURLWithPath: sourceFile)
        while source.pathComponents.count > 1 && source.lastPathComponent != sourceFolder {
            source.deleteLastPathComponent()
        }
        candidates.append(source.appendingPathComponent("Resources").appendingPathComponent(file))
        return candidates.first { manager.fileExists(atPath: $0.path) }
    }
}
