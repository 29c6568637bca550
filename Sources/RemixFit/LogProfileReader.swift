import RemixLogReader

/// What the profile keeps of one session while it is open: who, when it started and ended, the
/// time of its last screen or domain event, and the front screen (name without context) of each
/// screen change with its time.
struct ProfiledSession {
    var user: String
    var start: Int64
    var end: Int64?
    /// When the session's last screen change or domain event was logged (exposures and run
    /// records do not count), for a session the log never ends.
    var lastEvent: Int64?
    var screens: [(name: String, time: Int64)] = []
}

/// Streams a log into a ``LogProfile``. Sessions open and close as ``SessionAssembler`` decides
/// (lines without a user or session, and lines of a session that was never started, left out; a
/// session started again ends the open one; sessions still open at the end handed on in order of
/// their ids), but only what the profile reads is kept: the fidelity comparison reads logs of
/// hundreds of thousands of users, and building each session's full trace (every domain event's
/// fields as strings) took about two thirds of its time.
final class LogProfileReader: EventLineVisitor {
    private(set) var profile = LogProfile()
    private var open: [String: ProfiledSession] = [:]
    private var lastStart: [String: Int64] = [:]
    private var variationOf: [String: [String: String]] = [:]
    /// The front screen's name for the stacks seen first (a log repeats a few hundred stacks; the
    /// table stops growing at `remembered`, so that a log of ever new stacks cannot fill memory).
    private var screenNames: [String: String] = [:]
    private static let remembered = 4_096
    private var members: [EventLine.Member] = []

    func visit(_ scanned: ScannedEventLine, raw: Span<UInt8>) {
        guard MemberWalker.members(of: raw, into: &members) else { return }
        let line = EventLine(scanned, members: members)
        if line.type == "exposure", line.literal("inExperiment", in: raw) == "true", let experiment = line.string("experiment", in: raw),
           let variation = line.string("variation", in: raw) {
            exposed(experiment: experiment, variation: variation, user: line.user)
        }
        guard !line.user.isEmpty, let session = line.string("session", in: raw), !session.isEmpty else { return }
        switch line.type {
        case "session_started":
            if let previous = open.removeValue(forKey: session) { completed(previous) }
            open[session] = ProfiledSession(user: line.user, start: line.time)
        case "session_ended":
            guard var ended = open.removeValue(forKey: session) else { return }
            ended.end = line.time
            completed(ended)
        case "exposure", "run":
            return
        case "screen":
            guard let index = open.index(forKey: session), line.string("transition", in: raw) != nil, let stack = line.string("stack", in: raw)
            else { return }
            open.values[index].screens.append((screenName(ofStack: stack), line.time))
            open.values[index].lastEvent = line.time
        default:
            guard let index = open.index(forKey: session) else { return }
            open.values[index].lastEvent = line.time
        }
    }

    /// Hands on every session still open (the log ended before their `session_ended`).
    func finish() {
        for id in open.keys.sorted() {
            if let session = open.removeValue(forKey: id) { completed(session) }
        }
    }

    private func exposed(experiment: String, variation: String, user: String) {
        guard variationOf[user]?[experiment] == nil else { return }
        variationOf[user, default: [:]][experiment] = variation
        profile.variations[experiment, default: [:]][variation, default: LogProfile.Group()].users += 1
    }

    private func completed(_ session: ProfiledSession) {
        let gap = lastStart[session.user].map { Double(session.start - $0) / 86_400_000 }
        let isNew = lastStart[session.user] == nil
        lastStart[session.user] = session.start
        profile.all.add(session, newUser: isNew, gap: gap)
        for (experiment, variation) in variationOf[session.user] ?? [:] {
            profile.variations[experiment, default: [:]][variation, default: LogProfile.Group()].add(session, newUser: false, gap: gap)
        }
    }

    private func screenName(ofStack stack: String) -> String {
        if let name = screenNames[stack] { return name }
        let name = SessionSegments.baseName(SessionSegments.front(ofStack: stack))
        if screenNames.count < Self.remembered { screenNames[stack] = name }
        return name
    }
}
