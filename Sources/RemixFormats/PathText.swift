/// Paths as text, where Foundation's own reading cannot be used: `NSString.deletingLastPathComponent`
/// traps (an illegal instruction, swift-corelibs-foundation in Swift 6.3.1) on a path of one
/// character and slashes only — `--output y`, an experiment named `k`, `x/` — and gives "" for `//`.
package enum PathText {
    /// The folder part of `path`, as `NSString.deletingLastPathComponent` gives it: `a/b.yaml` →
    /// `a`, `a/b/` → `a`, `/a` → `/`, `/` and `//` → `/`, and a bare name (`y`, `b.yaml/`) → the empty string.
    package static func folder(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        var folder = trimmed[..<slash]
        while folder.count > 1, folder.hasSuffix("/") { folder = folder.dropLast() }
        return folder.isEmpty ? "/" : String(folder)
    }
}
