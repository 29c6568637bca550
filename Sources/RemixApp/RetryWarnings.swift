import Synchronization

/// The store's retry warnings, kept from the sink's executor (where they happen) until the use case
/// says them through its context, in order, once the store step ends. A context's `notify` is not
/// `Sendable`, so the sink cannot call it.
final class RetryWarnings: Sendable {
    private let warnings = Mutex<[String]>([])

    /// Keeps `warning`.
    @Sendable func keep(_ warning: String) {
        warnings.withLock { $0.append(warning) }
    }

    /// Says the warnings kept so far, in order, and forgets them.
    func say(_ context: AppContext) {
        for warning in warnings.withLock({ kept -> [String] in defer { kept = [] }; return kept }) { context.warn(warning) }
    }
}
