import Foundation

/// What a use case tells its user besides its result, as it works. The CLI prints each on
/// standard error (``Notice/text``); tests keep them and read them.
package enum Notice: Equatable, Sendable {
    /// A warning: `remix: warning: …`.
    case warning(String)
    /// A note: `remix: note: …`.
    case note(String)
    /// A message of its own: `remix: …` (e.g. "logged 12 events to run.jsonl").
    case message(String)
    /// A line shown as it is: a diagnostic with its `file:line:column`.
    case line(String)

    /// The line as the user reads it.
    package var text: String {
        switch self {
        case .warning(let text): "remix: warning: \(text)"
        case .note(let text): "remix: note: \(text)"
        case .message(let text): "remix: \(text)"
        case .line(let text): text
        }
    }
}

/// How far a long use case has come: `done` of `total` items of `unit`.
package struct WorkProgress: Equatable, Sendable {
    /// What is counted.
    package enum Unit: Equatable, Sendable {
        /// Simulated users (`simulate`).
        case users
        /// Whole simulated runs, called `label` (`check aa`: "A/A run"; `plan --simulate`: "run").
        case runs(String)
        /// Bytes of a file read (`log copy` into a store).
        case bytes
        /// Events written (`log copy` out of a store).
        case events
    }

    /// What is counted.
    package var unit: Unit
    /// Items done.
    package var done: Int
    /// Items in all.
    package var total: Int

    /// `done` of `total` items of `unit`.
    package init(_ unit: Unit, done: Int, total: Int) {
        self.unit = unit
        self.done = done
        self.total = total
    }
}

/// What every use case is given besides its options: where its notices and its progress go, the
/// environment it reads (`REMIX_PLUGIN_PATH`, `REMIX_PLUGIN_TIMING`) and the machine's cores.
/// The CLI passes the process's; a test passes its own, so that it reads what a user would see.
package struct AppContext {
    /// Receives each notice, in order.
    package var notify: (Notice) -> Void
    /// Receives progress; ``WorkProgress/done`` equals ``WorkProgress/total`` once the work is done. It may
    /// be called on a thread of the work's own.
    package var progress: @Sendable (WorkProgress) -> Void
    /// The environment variables the use cases read.
    package var environment: [String: String]
    /// The cores worker threads are capped at.
    package var cores: Int

    /// A context that sends notices to `notify` and progress to `progress`.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment,
                cores: Int = ProcessInfo.processInfo.activeProcessorCount,
                notify: @escaping (Notice) -> Void, progress: @escaping @Sendable (WorkProgress) -> Void = { _ in }) {
        self.notify = notify
        self.progress = progress
        self.environment = environment
        self.cores = max(cores, 1)
    }

    /// Says a warning.
    func warn(_ text: String) { notify(.warning(text)) }

    /// `requested` worker threads (nil: one per core), capped at the cores: more threads than cores
    /// only contend (64 jobs on 2 cores ran 8× slower than 2). Says so when it caps.
    func usefulJobs(_ requested: Int?) -> Int {
        guard let requested else { return cores }
        guard requested > cores else { return requested }
        warn("--jobs \(requested) is more than this machine's \(cores) cores; using \(cores)")
        return cores
    }
}

/// Keeps what a use case said, for tests and for callers that show it later.
package final class NoticeLog {
    /// Every notice, in order.
    package private(set) var notices: [Notice] = []

    /// An empty log.
    package init() {}

    /// A context whose notices go into this log (and its progress nowhere).
    package func context(environment: [String: String] = ProcessInfo.processInfo.environment, cores: Int = 2) -> AppContext {
        AppContext(environment: environment, cores: cores) { [self] in notices.append($0) }
    }

    /// The notices as the CLI prints them, a line each.
    package var text: String { notices.map(\.text).joined(separator: "\n") }
}
