import Foundation

/// The app a log is of, as its first `session_started` or `run` line names it: what `remix fit`
/// fits when no app is given. Reads only as far as that line.
enum LogApp {
    /// What the first lines of the logs say.
    enum Finding: Equatable {
        /// The app named by the first `session_started` or `run` line that names one.
        case named(String)
        /// The logs have `session_started` lines, none naming an app.
        case unnamed
        /// The logs have no `session_started` line.
        case noSessions
    }

    /// The app the first of `paths` to name one names.
    static func find(in paths: [String]) -> Finding {
        var sawSession = false
        for path in paths {
            guard let file = FileHandle(forReadingAtPath: path) else { continue }
            defer { try? file.close() }
            var buffer = Data()
            while true {
                let chunk = (try? file.read(upToCount: 1 << 16)) ?? nil
                let atEnd = chunk?.isEmpty ?? true
                if let chunk { buffer.append(chunk) }
                var start = buffer.startIndex
                while start < buffer.endIndex,
                      let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) ?? (atEnd ? buffer.endIndex : nil) {
                    switch app(of: buffer[start..<newline]) {
                    case .named(let app): return .named(app)
                    case .unnamed: sawSession = true
                    case .noSessions: break
                    }
                    start = min(newline + 1, buffer.endIndex)
                }
                if atEnd { break }
                buffer = Data(buffer[start...])
            }
        }
        return sawSession ? .unnamed : .noSessions
    }

    /// What one line says: the app of a `session_started` or `run` line, `unnamed` for a
    /// `session_started` line without one, `noSessions` for any other line.
    private static func app(of line: Data) -> Finding {
        guard line.range(of: Data(#""session_started""#.utf8)) != nil || line.range(of: Data(#""run""#.utf8)) != nil,
              let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any],
              let type = object["type"] as? String, type == "session_started" || type == "run" else { return .noSessions }
        if let app = object["app"] as? String, !app.isEmpty { return .named(app) }
        return type == "session_started" ? .unnamed : .noSessions
    }
}
