/// What the fit keeps of one session of a log: who, when, which features filled the app's slots,
/// and the screens and domain events in order. Simulation-only fields (`persona`, `intent`,
/// `outcome`) are never read.
struct SessionTrace {
    /// One screen change or domain event.
    struct Event {
        enum Kind {
            /// A navigation change: its transition, the screen it names (with context) and the stack.
            case screen(transition: String, screen: String?, stack: String)
            /// A feature's domain event with its string, number and list fields.
            case domain(type: String, fields: [Field])
        }

        var time: Int64
        var kind: Kind
    }

    /// A domain event's field: its value as a string (a number as written), and its texts — the
    /// string itself, or the strings of a list — which is how what users typed is recorded.
    struct Field {
        var name: String
        var value: String
        var texts: [String]
    }

    var id: String
    var user: String
    /// 1 for a user's first session.
    var visit = 1
    /// When `session_started` was logged (ms since the epoch).
    var start: Int64
    /// The app its `session_started` names, when it does.
    var app: String?
    /// The session's attributes, `id` left out, in log order.
    var attributes: [(name: String, value: String)] = []
    /// The feature each slot was filled with, as the exposures say (slot → feature).
    var fillers: [String: String] = [:]
    var events: [Event] = []
    /// When `session_ended` was logged; nil when the log has none for the session.
    var end: Int64?

    /// The `platform` attribute, when the session has one.
    var platform: String? { attributes.first { $0.name == "platform" }?.value }
}
