/// A position in a text file, 1-based.
public struct SourceLocation: Sendable, Equatable, Comparable, CustomStringConvertible {
    /// The file's path as the user gave it.
    public var file: String
    /// The line, from 1.
    public var line: Int
    /// The column, from 1.
    public var column: Int

    /// Makes a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    public var description: String { "\(file):\(line):\(column)" }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.file, a.line, a.column) < (b.file, b.line, b.column)
    }
}

/// How serious a diagnostic is.
public enum Severity: String, Sendable, Equatable {
    case error, warning
}

/// One problem in a file: `file:line:column: error: message`.
public struct Diagnostic: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the problem is.
    public var location: SourceLocation
    /// Error or warning.
    public var severity: Severity
    /// What is wrong and what to do.
    public var message: String

    /// Makes a diagnostic.
    public init(_ location: SourceLocation, _ severity: Severity = .error, _ message: String) {
        self.location = location
        self.severity = severity
        self.message = message
    }

    public var description: String { "\(location): \(severity.rawValue): \(message)" }
}
