import RemixAnalysis

/// Gathers a log's lines into sessions as they stream past and hands each session on when it ends
/// (its `session_ended`, or the end of the log for one that has none). Lines of different sessions
/// may interleave; only open sessions are held.
final class SessionAssembler: EventLineVisitor {
    private var open: [String: SessionTrace] = [:]
    private let completed: (SessionTrace) -> Void
    /// Lines of a session that had no `session_started` before them, which are left out.
    private(set) var orphanLines = 0
    /// The most sessions open at once (a log whose sessions never end holds them all).
    private(set) var mostOpen = 0

    /// The host's event types, which are not domain events.
    static let hostTypes: Set<String> = ["run", "session_started", "session_ended", "screen", "exposure"]

    init(_ completed: @escaping (SessionTrace) -> Void) {
        self.completed = completed
    }

    private var members: [EventLine.Member] = []

    func visit(_ scanned: ScannedEventLine) {
        guard MemberWalker.members(of: scanned.raw, into: &members) else { return }
        visit(EventLine(scanned, members: members))
    }

    func visit(_ line: EventLine) {
        guard !line.user.isEmpty, let session = line.string("session"), !session.isEmpty else { return }
        switch line.type {
        case "session_started":
            if let previous = open.removeValue(forKey: session) { completed(previous) }
            var trace = SessionTrace(id: session, user: line.user, start: line.time)
            trace.visit = line.integer("visit") ?? 1
            trace.attributes = line.stringMembers("attributes").filter { $0.key != "id" }.map { ($0.key, $0.value) }
            open[session] = trace
            mostOpen = max(mostOpen, open.count)
        case "session_ended":
            guard var trace = open.removeValue(forKey: session) else { return orphanLines += 1 }
            trace.end = line.time
            completed(trace)
        default:
            guard open[session] != nil else { return orphanLines += 1 }
            append(line, to: session)
        }
    }

    private func append(_ line: EventLine, to session: String) {
        switch line.type {
        case "exposure":
            if let slot = line.string("slot"), let feature = line.string("feature") { open[session]?.fillers[slot] = feature }
        case "screen":
            guard let transition = line.string("transition"), let stack = line.string("stack") else { return }
            open[session]?.events.append(.init(time: line.time, kind: .screen(transition: transition, screen: line.string("screen"),
                                                                                stack: stack)))
        case "run":
            return
        default:
            var fields: [SessionTrace.Field] = []
            for name in line.fieldNames where !["ts", "type", "session", "user"].contains(name) {
                if let text = line.string(name) {
                    fields.append(.init(name: name, value: text, texts: [text]))
                } else if let literal = line.literal(name), !line.isNull(name) {
                    fields.append(.init(name: name, value: literal, texts: line.strings(name)))
                }
            }
            open[session]?.events.append(.init(time: line.time, kind: .domain(type: line.type, fields: fields)))
        }
    }

    /// Hands on every session still open (the log ended before their `session_ended`).
    func finish() {
        for id in open.keys.sorted() {
            if let trace = open.removeValue(forKey: id) { completed(trace) }
        }
    }
}
