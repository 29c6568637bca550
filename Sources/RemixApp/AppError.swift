/// Why a use case did not do what it was asked, as its user reads it: the `problems` found (each a
/// line shown as it is: a diagnostic with its `file:line:column`), then the `messages`, each shown
/// as `remix: …`. Every bad input ends as one of these, or as a typed error of the library that
/// found it (`RouteError`, `AnalysisError`, `PluginError`, …), which is shown as `remix: …` too.
public struct AppError: Error, Equatable, CustomStringConvertible {
    /// Lines shown as they are, first.
    public var problems: [String]
    /// What went wrong and what to do, each shown as `remix: …`.
    public var messages: [String]

    /// The error `message`, after `problems`.
    public init(_ message: String, problems: [String] = []) {
        self.init(messages: [message], problems: problems)
    }

    /// The error of several `messages`, after `problems`.
    public init(messages: [String], problems: [String] = []) {
        self.messages = messages
        self.problems = problems
    }

    public var description: String { (problems + messages).joined(separator: "\n") }
}
