import Foundation
import RemixFormats
import GrowthBookAssignment
import RemixSystem

/// The embedded sticky-bucket store: a JSON Lines file of GrowthBook's documents, one a line,
/// appended to and never rewritten. A save merges each document into the one stored for its
/// `attributeName||attributeValue` (the new variation winning for the same `KEY__VERSION`, as the
/// event store's table does) and appends the merged, whole document, so the last line for a key
/// holds every experiment's assignment. Saves hold an exclusive advisory lock (`flock(2)`) on the
/// file from reading it to writing, and reads a shared one, so several processes — the shards of a
/// simulation, concurrent `remix assign` calls — may share one file without losing assignments.
/// A last line a writer stopped in (torn: no newline, not a document) is ignored when read, and
/// cut off by the next save before it appends: it never held a whole document.
package final class StickyBucketFile: StickyBucketStore {
    /// The file's path as given.
    package let path: String

    /// The store in `path` (created at the first save).
    package init(path: String) {
        self.path = path
    }

    /// Why `path` cannot be a sticky-bucket file (a folder, a device, a missing folder), or nil;
    /// checked before a command starts its work, so that nothing is done for a store it cannot keep.
    package func problem() -> StickyBucketFileError? {
        var status = stat()
        if stat(path, &status) == 0 {
            return (status.st_mode & S_IFMT) == S_IFREG ? nil : .notAFile(path: path, kind: LockedFile.kind(status.st_mode))
        }
        let folder = PathText.folder(of: path)
        var isFolder: ObjCBool = false
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) || !isFolder.boolValue {
            return .cannotOpen(path: path, reason: "its folder \(folder) does not exist")
        }
        return nil
    }

    /// Every document in the file by key, the last line for a key winning; none when the file does
    /// not exist.
    package func documentsByKey() throws(StickyBucketFileError) -> [String: StickyBucketDocument] {
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        let file = try LockedFile(path: path, writing: false)
        defer { file.close() }
        return try Self.parse(try file.contents(), path: path).documents
    }

    package func documents(for identifiers: [StickyBucketIdentifier]) async throws -> [StickyBucketDocument] {
        let all = try documentsByKey()
        return identifiers.compactMap { all[StickyBucketDocument.key(attributeName: $0.attributeName, attributeValue: $0.attributeValue)] }
    }

    package func save(_ documents: [StickyBucketDocument]) async throws {
        try merge(documents)
    }

    package func allDocuments() async throws -> [StickyBucketDocument] {
        let all = try documentsByKey()
        return all.keys.sorted().compactMap { all[$0] }
    }

    /// Merges `documents` (in order, a later one's assignments over an earlier one's) into the
    /// stored ones and appends one whole line per key, in the order the keys first appear — all
    /// under the file's exclusive lock, so that a concurrent save is read before this one merges.
    package func merge(_ documents: [StickyBucketDocument]) throws(StickyBucketFileError) {
        var order: [String] = []
        var incoming: [String: StickyBucketDocument] = [:]
        for document in documents {
            if let earlier = incoming[document.key] {
                incoming[document.key]?.assignments = earlier.assignments.merging(document.assignments) { _, new in new }
            } else {
                order.append(document.key)
                incoming[document.key] = document
            }
        }
        guard !order.isEmpty else { return }
        let file = try LockedFile(path: path, writing: true)
        defer { file.close() }
        let stored = try Self.parse(try file.contents(), path: path)
        if let tornAt = stored.tornAt { try file.truncate(at: tornAt) }
        var bytes: [UInt8] = stored.endsInsideLine ? [0x0A] : []
        for key in order {
            guard var document = incoming[key] else { continue }
            if let before = stored.documents[key] {
                document.assignments = before.assignments.merging(document.assignments) { _, new in new }
            }
            bytes += StickyBucketDocumentJSON.line(document)
        }
        try file.append(bytes)
    }

    /// What a file's bytes hold: the documents by key (the last line for a key winning), where a
    /// torn last line starts (nil without one), and whether the file ends in a whole document
    /// without its newline (written by hand), which a save then adds before its lines.
    struct Contents {
        var documents: [String: StickyBucketDocument] = [:]
        var tornAt: Int?
        var endsInsideLine = false
    }

    /// Parses a file's bytes; a line that is not a document is an error, but for a torn last line.
    static func parse(_ data: [UInt8], path: String) throws(StickyBucketFileError) -> Contents {
        var contents = Contents()
        var lineNumber = 0
        var start = 0
        while start < data.count {
            lineNumber += 1
            let end = data[start...].firstIndex(of: 0x0A) ?? data.count
            let line = data[start..<end]
            defer { start = end + 1 }
            guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) else { continue }
            if let document = StickyBucketDocumentJSON.document(Data(line)) {
                contents.documents[document.key] = document
                contents.endsInsideLine = end == data.count
            } else if end == data.count, StickyBucketDocumentJSON.isTorn(line) {
                contents.tornAt = start
            } else {
                throw .malformedLine(path: path, line: lineNumber)
            }
        }
        return contents
    }
}

/// A problem reading or writing a sticky-bucket file.
package enum StickyBucketFileError: Error, Equatable, CustomStringConvertible {
    case notAFile(path: String, kind: String)
    case cannotOpen(path: String, reason: String)
    case unreadable(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    case malformedLine(path: String, line: Int)

    package var description: String {
        switch self {
        case .notAFile(let path, let kind):
            "--sticky \(path) is \(kind), not a file of sticky-bucket documents; give a file path (it is created if "
                + "missing) or a postgres:// URL"
        case .cannotOpen(let path, let reason):
            "cannot open the sticky-bucket file \(path): \(reason); choose another --sticky"
        case .unreadable(let path, let reason):
            "cannot read the sticky-bucket file \(path): \(reason); check its permissions or choose another --sticky"
        case .cannotWrite(let path, let reason):
            "cannot write the sticky-bucket file \(path): \(reason); the documents stored before are intact"
        case .malformedLine(let path, let line):
            "\(path):\(line):1: error: not a sticky-bucket document (want {\"attributeName\": …, \"attributeValue\": …, "
                + "\"assignments\": {\"KEY__VERSION\": \"variation\"}}); remove the line or choose another --sticky file"
        }
    }
}

/// GrowthBook's sticky-bucket document as one JSON line, keys sorted.
package enum StickyBucketDocumentJSON {
    /// How every line ``line(_:)`` writes starts (its keys are sorted).
    static let start = Array(#"{"assignments":{"#.utf8)

    /// The document's line, ending in a newline.
    package static func line(_ document: StickyBucketDocument) -> [UInt8] {
        let object: [String: Any] = [
            "attributeName": document.attributeName, "attributeValue": document.attributeValue,
            "assignments": document.assignments,
        ]
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return Array(data) + [0x0A]
    }

    /// The document a JSON object holds, or nil when it is not one.
    package static func document(_ data: Data) -> StickyBucketDocument? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let name = object["attributeName"] as? String, let value = object["attributeValue"] as? String,
              let assignments = object["assignments"] as? [String: Any]
        else { return nil }
        var stored: [String: String] = [:]
        for (key, variation) in assignments {
            guard let variation = variation as? String else { return nil }
            stored[key] = variation
        }
        return StickyBucketDocument(attributeName: name, attributeValue: value, assignments: stored)
    }

    /// Whether `line` (not a document) is what a writer stopped in the middle of leaves: the
    /// start of a line ``line(_:)`` writes, cut short.
    static func isTorn(_ line: ArraySlice<UInt8>) -> Bool {
        line.starts(with: start) || start.starts(with: line)
    }
}
