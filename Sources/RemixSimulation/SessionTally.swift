import RemixExperiments

/// A block's sessions counted as ``SimulationSummary`` counts them, by name in short lists: a
/// block meets a handful of intents, screens and variations, and comparing a name with a few
/// (mostly the same string, so a pointer comparison) costs less than hashing it into a table for
/// every session. A list that grows past ``foldLimit`` entries is folded into the summary, so a
/// run with many names searches at most that many per count. ``summary`` folds the rest.
struct SessionTally {
    /// Users counted (the simulator counts each user once).
    var users = 0
    /// Sticky-bucket documents the block's users changed, in user order.
    var stickyDocuments: [StickyBucketDocument] = []
    private var folded = SimulationSummary()
    private var sessions = 0
    private var events = 0
    private var sessionsWithoutIntent = 0
    /// Tries of an intent that ended with `outcome`, on `screen` when it was not achieved ("" then).
    private var tries: [(intent: String, outcome: IntentOutcome, screen: String, count: Int)] = []
    private var endScreens: [(screen: String, count: Int)] = []
    private var screensSeen: [String] = []
    private var variations: [(experiment: String, variation: String, exposed: Int, achieved: Int)] = []

    /// Entries a list holds before it is folded into the summary.
    static let foldLimit = 64

    /// Counts one session, as ``SimulationSummary/count(session:endScreen:screensSeen:exposures:events:)`` does.
    mutating func count(session results: [IntentResult], endScreen: String, screensSeen seen: [String],
                        exposures: [(experiment: String, variation: String)], events: Int) {
        sessions += 1
        self.events += events
        if results.isEmpty { sessionsWithoutIntent += 1 }
        for result in results {
            let screen = result.outcome == .achieved ? "" : result.screen
            if let found = tries.firstIndex(where: { $0.intent == result.intent && $0.outcome == result.outcome && $0.screen == screen }) {
                tries[found].count += 1
            } else {
                tries.append((result.intent, result.outcome, screen, 1))
            }
        }
        if let found = endScreens.firstIndex(where: { $0.screen == endScreen }) {
            endScreens[found].count += 1
        } else {
            endScreens.append((endScreen, 1))
        }
        for screen in seen where !screensSeen.contains(screen) { screensSeen.append(screen) }
        let achieved = results.last?.outcome == .achieved
        for exposure in exposures {
            if let found = variations.firstIndex(where: { $0.experiment == exposure.experiment && $0.variation == exposure.variation }) {
                variations[found].exposed += 1
                if achieved { variations[found].achieved += 1 }
            } else {
                variations.append((exposure.experiment, exposure.variation, 1, achieved ? 1 : 0))
            }
        }
        if tries.count > Self.foldLimit || endScreens.count > Self.foldLimit || screensSeen.count > Self.foldLimit
            || variations.count > Self.foldLimit {
            fold()
        }
    }

    /// Everything counted, as a summary.
    mutating func summary() -> SimulationSummary {
        fold()
        var summary = folded
        summary.users += users
        summary.stickyDocuments += stickyDocuments
        return summary
    }

    /// Moves the lists' counts into `folded`.
    private mutating func fold() {
        folded.sessions += sessions
        folded.events += events
        folded.sessionsWithoutIntent += sessionsWithoutIntent
        for entry in tries {
            var count = folded.intents[entry.intent, default: SimulationSummary.IntentCount()]
            count.tried += entry.count
            count.outcomes[entry.outcome, default: 0] += entry.count
            if entry.outcome != .achieved { count.screens[entry.outcome, default: [:]][entry.screen, default: 0] += entry.count }
            folded.intents[entry.intent] = count
        }
        for entry in endScreens { folded.endScreens[entry.screen, default: 0] += entry.count }
        folded.screensSeen.formUnion(screensSeen)
        for entry in variations {
            folded.variations[entry.experiment, default: [:]][entry.variation, default: SimulationSummary.VariationCount()].exposed += entry.exposed
            folded.variations[entry.experiment, default: [:]][entry.variation, default: SimulationSummary.VariationCount()].achieved += entry.achieved
        }
        (sessions, events, sessionsWithoutIntent) = (0, 0, 0)
        tries.removeAll(keepingCapacity: true)
        endScreens.removeAll(keepingCapacity: true)
        screensSeen.removeAll(keepingCapacity: true)
        variations.removeAll(keepingCapacity: true)
    }
}
