import RemixLogReader

/// Gathers a log's lines into sessions by their session id, whatever order they come in, and hands
/// each session on once it is whole: its `session_started` and `session_ended` read and
/// ``settlingLines`` more lines after that (so that a line of the same millisecond written after
/// the end, or a repeated line, still finds it), or at the end of the log. Lines of different
/// sessions may interleave; only open sessions are held. A session's events are handed on in time
/// order (lines of one millisecond in the order they were read).
///
/// Each line and each session is counted once: a line read again within its session (byte for
/// byte) is left out, and so is a whole session whose lines a session of the same id already had
/// (a log named twice, or copied into another) — ``duplicateLines`` and ``duplicateSessions`` say
/// how many. Lines of a session whose `session_started` never comes are left out
/// (``orphanLines``).
final class SessionAssembler: EventLineVisitor {
    /// A session being gathered (a class: it is changed in place, line by line, wherever it is held).
    private final class Gathering {
        var trace: SessionTrace
        /// Which gathering of the id this is (an id started again begins another).
        let serial: Int
        var started = false
        var ended = false
        /// The hashes of the lines read, to leave out a line read again.
        var lineHashes: Set<Int> = []
        /// The lines' hashes added up: the session's content, whatever the order of its lines.
        var content: UInt64 = 0
        var lineCount = 0
        /// Whether an event came before one of an earlier time.
        var unordered = false

        init(trace: SessionTrace, serial: Int) {
            self.trace = trace
            self.serial = serial
        }
    }

    /// Lines read after a session has both started and ended before it is handed on.
    static let settlingLines = 1_000
    /// Lines held for sessions not started (yet): past this many, the oldest such sessions are
    /// left out, so that a log without `session_started` lines cannot fill memory.
    static let mostWaitingLines = 200_000

    private var open: [String: Gathering] = [:]
    /// Sessions started and ended, in the order they were, with the line after which each is handed on.
    private var settling: [(session: String, serial: Int, due: Int)] = []
    private var settled = 0
    /// Sessions not started, in the order they were first read, and the lines they hold.
    private var waiting: [(session: String, serial: Int)] = []
    private var waited = 0
    private var waitingLines = 0
    private var lineNumber = 0
    private var nextSerial = 0
    /// The content of every session handed on (its id's hash mixed in).
    private var handedOn: Set<UInt64> = []
    private let completed: (SessionTrace) -> Void

    /// Lines left out: of sessions whose `session_started` never came.
    private(set) var orphanLines = 0
    /// Lines read again within their session, and the lines of whole sessions read again.
    private(set) var duplicateLines = 0
    /// Sessions left out because a session of the same id had the same lines.
    private(set) var duplicateSessions = 0
    /// The most sessions open at once (a log whose sessions never end holds them all).
    private(set) var mostOpen = 0

    /// The host's event types, which are not domain events.
    static let hostTypes: Set<String> = ["run", "session_started", "session_ended", "screen", "exposure"]

    init(_ completed: @escaping (SessionTrace) -> Void) {
        self.completed = completed
    }

    private var members: [EventLine.Member] = []

    func visit(_ scanned: ScannedEventLine, raw: Span<UInt8>) {
        guard MemberWalker.members(of: raw, into: &members) else { return }
        var hasher = Hasher()
        raw.hash(into: &hasher)
        visit(EventLine(scanned, members: members), raw: raw, hash: hasher.finalize())
    }

    /// Takes `line`, whose bytes `raw` hash to `hash`.
    func visit(_ line: EventLine, raw: Span<UInt8>, hash: Int) {
        lineNumber += 1
        while settled < settling.count, settling[settled].due < lineNumber { handOnSettled() }
        guard !line.user.isEmpty, let session = line.string("session", in: raw), !session.isEmpty else { return }
        var existing = open[session]
        if existing?.lineHashes.contains(hash) == true {
            duplicateLines += 1
            return
        }
        switch line.type {
        case "session_started":
            if let previous = existing, previous.started {
                // Started again: the session open under this id ends here, after those that ended before.
                while settled < settling.count { handOnSettled() }
                if open[session] === previous {
                    open.removeValue(forKey: session)
                    handOn(previous)
                }
                existing = nil
            }
            let gathering = existing ?? newGathering(session, user: line.user, time: line.time, starting: true)
            if existing == nil { open[session] = gathering }
            if !gathering.started { waitingLines -= gathering.lineCount }
            gathering.started = true
            gathering.trace.user = line.user
            gathering.trace.start = line.time
            gathering.trace.visit = line.integer("visit", in: raw) ?? 1
            gathering.trace.app = line.string("app", in: raw)
            gathering.trace.attributes = line.stringMembers("attributes", in: raw).filter { $0.key != "id" }.map { ($0.key, $0.value) }
            add(hash, to: gathering)
            if gathering.ended { settle(gathering) }
            mostOpen = max(mostOpen, open.count)
        case "session_ended":
            let gathering = existing ?? newGathering(session, user: line.user, time: line.time)
            if existing == nil { open[session] = gathering }
            guard !gathering.ended else { return orphanLines += 1 }
            gathering.ended = true
            gathering.trace.end = line.time
            add(hash, to: gathering)
            if gathering.started { settle(gathering) }
        default:
            let gathering = existing ?? newGathering(session, user: line.user, time: line.time)
            if existing == nil { open[session] = gathering }
            append(line, raw: raw, to: gathering)
            add(hash, to: gathering)
        }
        if waitingLines > Self.mostWaitingLines { leaveOutOldestWaiting() }
    }

    /// Hands on every session still open, those that ended first (the log ended before the others'
    /// `session_ended`, which then end at their last event) in order of their ids.
    func finish() {
        while settled < settling.count { handOnSettled() }
        for id in open.keys.sorted() {
            if let gathering = open.removeValue(forKey: id) { handOn(gathering) }
        }
    }

    /// A gathering for `session`, first read at `time`; unless it starts with this line, it waits
    /// for its start.
    private func newGathering(_ session: String, user: String, time: Int64, starting: Bool = false) -> Gathering {
        nextSerial += 1
        if !starting {
            if waiting.count - waited > 4096, waiting.count - waited > 2 * open.count { compactWaiting() }
            waiting.append((session, nextSerial))
        }
        return Gathering(trace: SessionTrace(id: session, user: user, start: time), serial: nextSerial)
    }

    /// Forgets the waiting sessions that have started or gone since.
    private func compactWaiting() {
        waiting = waiting[waited...].filter { entry in open[entry.session].map { $0.serial == entry.serial && !$0.started } ?? false }
        waited = 0
    }

    private func add(_ hash: Int, to gathering: Gathering) {
        gathering.lineHashes.insert(hash)
        gathering.content &+= Self.mixed(UInt64(bitPattern: Int64(hash)))
        gathering.lineCount += 1
        if !gathering.started { waitingLines += 1 }
    }

    private func settle(_ gathering: Gathering) {
        settling.append((gathering.trace.id, gathering.serial, lineNumber + Self.settlingLines))
    }

    private func handOnSettled() {
        let next = settling[settled]
        settled += 1
        if settled > 4096, settled * 2 > settling.count {
            settling.removeFirst(settled)
            settled = 0
        }
        guard open[next.session]?.serial == next.serial, let gathering = open.removeValue(forKey: next.session) else { return }
        handOn(gathering)
    }

    private func handOn(_ gathering: Gathering) {
        guard gathering.started else {
            orphanLines += gathering.lineCount
            waitingLines -= gathering.lineCount
            return
        }
        var identity = Hasher()
        identity.combine(gathering.trace.id)
        let key = gathering.content &+ Self.mixed(UInt64(bitPattern: Int64(identity.finalize())))
        guard handedOn.insert(key).inserted else {
            duplicateSessions += 1
            duplicateLines += gathering.lineCount
            return
        }
        var trace = gathering.trace
        if gathering.unordered {
            trace.events = trace.events.enumerated()
                .sorted { $0.element.time != $1.element.time ? $0.element.time < $1.element.time : $0.offset < $1.offset }
                .map(\.element)
        }
        completed(trace)
    }

    /// Leaves out the sessions not started that were read first, until the lines held for such
    /// sessions are within ``mostWaitingLines``.
    private func leaveOutOldestWaiting() {
        while waitingLines > Self.mostWaitingLines / 2, waited < waiting.count {
            let next = waiting[waited]
            waited += 1
            if let gathering = open[next.session], gathering.serial == next.serial, !gathering.started {
                open.removeValue(forKey: next.session)
                handOn(gathering)
            }
        }
        compactWaiting()
    }

    /// A 64-bit finalizer (SplitMix64's), so that sums of hashes stay well spread.
    private static func mixed(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private func append(_ line: EventLine, raw: Span<UInt8>, to gathering: Gathering) {
        if let last = gathering.trace.events.last?.time, line.time < last { gathering.unordered = true }
        switch line.type {
        case "exposure":
            if let slot = line.string("slot", in: raw), let feature = line.string("feature", in: raw) { gathering.trace.fillers[slot] = feature }
        case "screen":
            guard let transition = line.string("transition", in: raw), let stack = line.string("stack", in: raw) else { return }
            gathering.trace.events.append(.init(time: line.time, kind: .screen(transition: transition, screen: line.string("screen", in: raw),
                                                                              stack: stack)))
        case "run":
            return
        default:
            var fields: [SessionTrace.Field] = []
            for name in line.fieldNames(in: raw) where !["ts", "type", "session", "user"].contains(name) {
                if let text = line.string(name, in: raw) {
                    fields.append(.init(name: name, value: text, texts: [text]))
                } else if let literal = line.literal(name, in: raw), !line.isNull(name, in: raw) {
                    fields.append(.init(name: name, value: literal, texts: line.strings(name, in: raw)))
                }
            }
            gathering.trace.events.append(.init(time: line.time, kind: .domain(type: line.type, fields: fields)))
        }
    }
}
