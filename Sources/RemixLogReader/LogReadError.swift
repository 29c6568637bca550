/// A log that cannot be read: the reader's errors, worded as the analysis words them
/// (`AnalysisError` in RemixAnalysis takes them over case by case).
package enum LogReadError: Error, Equatable, CustomStringConvertible {
    case cannotRead(path: String, reason: String)
    case noLogs(pattern: String)

    package var description: String {
        switch self {
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        case .noLogs(let pattern): "no log matches '\(pattern)'"
        }
    }
}
