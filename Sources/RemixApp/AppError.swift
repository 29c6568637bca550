/// Why a use case did not do what it was asked, as its user reads it: the `problems` found (each a
/// line shown as it is: a diagnostic with its `file:line:column`), then the `messages`, each shown
/// as `remix: …`. Every bad input ends as one of these, or as a typed error of the library that
/// found it (`RouteError`, `AnalysisError`, `PluginError`, …), which is shown as `remix: …` too.
package struct AppError: Error, Equatable, CustomStringConvertible {
    /// Lines shown as they are, first.
    package var problems: [String]
    /// What went wrong and what to do, each shown as `remix: …`.
    package var messages: [String]

    /// The error `message`, after `problems`.
    package init(_ message: String, problems: [String] = []) {
        self.init(messages: [message], problems: problems)
    }

    /// The error of several `messages`, after `problems`.
    package init(messages: [String], problems: [String] = []) {
        self.messages = messages
        self.problems = problems
    }

    package var description: String { (problems + messages).joined(separator: "\n") }
}
