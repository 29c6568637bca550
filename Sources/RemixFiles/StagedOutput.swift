import Foundation
import RemixFormats
import RemixSystem

/// An output written under a hidden name and moved into place only when complete, so that a
/// failure or a stop signal (SIGINT, SIGTERM) leaves the destination as it was and nothing else
/// behind: until ``commit()`` or ``discard()``, a stop signal removes what was staged.
///
/// A file is staged beside its destination and renamed over it. A folder of files (``folder(_:)``)
/// is staged inside the destination folder, when it exists, and its files are then moved into it;
/// otherwise beside the first of its folders that does not exist yet, which is renamed into place.
/// A folder that replaces the destination whole (``replacing(folder:)``) is staged beside it; on
/// commit the old folder is moved aside, the new one renamed into place and the old one removed.
package final class StagedOutput: Sendable {
    /// Why an output could not be staged or moved into place.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var path: String
        package var reason: String
        package var description: String { "cannot write \(path): \(reason)" }
    }

    /// Where the output belongs.
    package let destination: String
    /// Where it is written meanwhile: a file for ``file(_:)``, a folder for ``folder(_:)``.
    package let path: String
    /// For a folder: the part of `path` renamed into place, and where to (nil when the files are
    /// moved into an existing destination).
    private let rename: (from: String, to: String)?
    /// Where the destination is moved while its replacement is renamed into place; nil when it is
    /// not replaced whole.
    private let aside: String?
    private let registration: StopSignals.Registration

    private init(destination: String, path: String, rename: (from: String, to: String)?, removing staged: String,
                 aside: String? = nil) {
        self.destination = destination
        self.path = path
        self.rename = rename
        self.aside = aside
        registration = StopSignals.shared.onStop("the unfinished \((destination as NSString).lastPathComponent) was removed") {
            Self.remove(staged)
        }
    }

    /// Stages the file `destination`: write ``path``, then ``commit()``.
    package static func file(_ destination: String) -> StagedOutput {
        let folder = PathText.folder(of: destination)
        let name = (destination as NSString).lastPathComponent
        let path = (folder.isEmpty ? "" : folder + "/") + ".\(name).partial-\(getpid())"
        return StagedOutput(destination: destination, path: path, rename: (path, destination), removing: path)
    }

    /// Stages files for the folder `destination` (made with its missing parents on commit): write
    /// them under ``path`` at the same relative paths, then ``commit()``.
    package static func folder(_ destination: String) throws(Failure) -> StagedOutput {
        var existing = destination.isEmpty ? "." : destination
        var missing: [String] = []
        while !isFolder(existing) {
            guard !FileManager.default.fileExists(atPath: existing) else {
                throw Failure(path: destination, reason: "\(existing) is a file, not a folder")
            }
            missing.insert((existing as NSString).lastPathComponent, at: 0)
            let parent = PathText.folder(of: existing)
            existing = parent.isEmpty ? "." : parent
        }
        let tag = "remix-staged-\(getpid())"
        guard let first = missing.first else {
            let path = existing + "/." + tag
            let staged = StagedOutput(destination: destination, path: path, rename: nil, removing: path)
            try staged.makeFolder(path)
            return staged
        }
        let top = existing + "/." + first + "." + tag
        let path = ([top] + missing.dropFirst()).joined(separator: "/")
        let staged = StagedOutput(destination: destination, path: path, rename: (top, existing + "/" + first), removing: top)
        try staged.makeFolder(path)
        return staged
    }

    /// Stages the folder `destination` anew: write its files under ``path`` at the same relative
    /// paths, then ``commit()`` — the folder then holds those files and no other (its parent must
    /// exist).
    package static func replacing(folder destination: String) throws(Failure) -> StagedOutput {
        let parent = PathText.folder(of: destination)
        let name = (destination as NSString).lastPathComponent
        let beside = (parent.isEmpty ? "" : parent + "/") + "." + name
        let path = beside + ".remix-staged-\(getpid())"
        let staged = StagedOutput(destination: destination, path: path, rename: (path, destination), removing: path,
                                  aside: beside + ".remix-old-\(getpid())")
        try staged.makeFolder(path)
        return staged
    }

    /// Writes `text` as the staged file (``file(_:)``), with stop signals held back.
    package func write(_ text: String) throws(Failure) {
        try Self.write(text, to: path, reporting: destination)
    }

    /// Writes `text` as the staged file of `file`, a path inside the destination folder, with stop
    /// signals held back (so a stop never finds a file half-made, nor one made after the folder
    /// was removed).
    package func write(_ text: String, as file: String) throws(Failure) {
        let relative = file.hasPrefix(destination + "/") ? String(file.dropFirst(destination.count + 1))
                                                         : (file as NSString).lastPathComponent
        try Self.write(text, to: path + "/" + relative, reporting: file)
    }

    /// Writes `text` to `staged` with stop signals held back; a failure names `file`.
    private static func write(_ text: String, to staged: String, reporting file: String) throws(Failure) {
        let failure: Failure? = StopSignals.shared.holdingStops {
            do {
                try text.write(toFile: staged, atomically: false, encoding: .utf8)
                return nil
            } catch {
                return Failure(path: file, reason: error.localizedDescription)
            }
        }
        if let failure { throw failure }
    }

    /// Moves what was staged into place, with stop signals held back so that it is never cut in
    /// half; what is staged is removed if that fails.
    package func commit() throws(Failure) {
        defer { StopSignals.shared.remove(registration) }
        let outcome: Failure? = StopSignals.shared.holdingStops {
            if let rename, let aside {
                return replace(rename, movingAside: aside)
            }
            if let rename {
                guard Foundation.rename(rename.from, rename.to) == 0 else {
                    return Failure(path: destination, reason: String(cString: strerror(errno)))
                }
                return nil
            }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path).sorted()) ?? []
            for name in names where Foundation.rename(path + "/" + name, destination + "/" + name) != 0 {
                return Failure(path: destination + "/" + name, reason: String(cString: strerror(errno)))
            }
            return nil
        }
        if let outcome {
            discard()
            throw outcome
        }
        if rename == nil { Self.remove(path) }
    }

    /// Renames the staged folder over the destination: the old one aside first (when there is one),
    /// back again if the rename fails, removed once the new one is in place.
    private func replace(_ rename: (from: String, to: String), movingAside aside: String) -> Failure? {
        var status = stat()
        let existed = lstat(destination, &status) == 0
        if existed, Foundation.rename(destination, aside) != 0 {
            return Failure(path: destination, reason: String(cString: strerror(errno)))
        }
        guard Foundation.rename(rename.from, rename.to) == 0 else {
            let reason = String(cString: strerror(errno))
            if existed { _ = Foundation.rename(aside, destination) }
            return Failure(path: destination, reason: reason)
        }
        if existed { Self.remove(aside) }
        return nil
    }

    /// Removes what was staged; the destination stays as it was.
    package func discard() {
        Self.remove(rename?.from ?? path)
        StopSignals.shared.remove(registration)
    }

    private func makeFolder(_ folder: String) throws(Failure) {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            discard()
            throw Failure(path: destination, reason: "cannot make a folder there (\(error.localizedDescription))")
        }
    }

    private static func isFolder(_ path: String) -> Bool {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
    }

    private static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }
}
