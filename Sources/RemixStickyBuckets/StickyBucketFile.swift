import Foundation
import GrowthBookAssignment
import RemixEventLog

/// The embedded sticky-bucket store: a JSON Lines file of GrowthBook's documents, one a line,
/// appended to and never rewritten. The last line for an `attributeName||attributeValue` wins.
/// Lines are appended whole, with `O_APPEND` in single writes (``JSONLinesFile``), so several
/// processes — the shards of a simulation, concurrent `remix assign` calls — may share one file as
/// they share an event log.
package final class StickyBucketFile: StickyBucketStore {
    /// The file's path as given.
    package let path: String

    /// The store in `path` (created at the first save).
    package init(path: String) {
        self.path = path
    }

    /// Every document in the file by key, the last line for a key winning; none when the file does
    /// not exist.
    package func documentsByKey() throws(StickyBucketFileError) -> [String: StickyBucketDocument] {
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path) }
        var documents: [String: StickyBucketDocument] = [:]
        var lineNumber = 0
        for line in data.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) else { continue }
            guard let document = StickyBucketDocumentJSON.document(Data(line)) else {
                throw .malformedLine(path: path, line: lineNumber)
            }
            documents[document.key] = document
        }
        return documents
    }

    package func documents(for identifiers: [StickyBucketIdentifier]) async throws -> [StickyBucketDocument] {
        let all = try documentsByKey()
        return identifiers.compactMap { all[StickyBucketDocument.key(attributeName: $0.attributeName, attributeValue: $0.attributeValue)] }
    }

    package func save(_ documents: [StickyBucketDocument]) async throws {
        try append(documents)
    }

    package func allDocuments() async throws -> [StickyBucketDocument] {
        let all = try documentsByKey()
        return all.keys.sorted().compactMap { all[$0] }
    }

    /// Appends one line per document, in the order given, in one write.
    package func append(_ documents: [StickyBucketDocument]) throws {
        guard !documents.isEmpty else { return }
        var bytes: [UInt8] = []
        for document in documents { bytes += StickyBucketDocumentJSON.line(document) }
        let file = try JSONLinesFile(path: path)
        try file.append(encodedLines: bytes)
        try file.close()
    }
}

/// A problem reading a sticky-bucket file.
package enum StickyBucketFileError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String)
    case malformedLine(path: String, line: Int)

    package var description: String {
        switch self {
        case .unreadable(let path):
            "cannot read the sticky-bucket file \(path); check its permissions or choose another --sticky"
        case .malformedLine(let path, let line):
            "\(path):\(line):1: error: not a sticky-bucket document (want {\"attributeName\": …, \"attributeValue\": …, "
                + "\"assignments\": {\"KEY__VERSION\": \"variation\"}}); remove the line or choose another --sticky file"
        }
    }
}

/// GrowthBook's sticky-bucket document as one JSON line, keys sorted.
package enum StickyBucketDocumentJSON {
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
}
