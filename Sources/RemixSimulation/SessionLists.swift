import GrowthBookAssignment

/// The lists a session's simulated user and log fill (and a user's attributes), handed from one
/// session of a block to the next: each starts empty with the room the sessions before it
/// needed, so a session allocates none of them.
struct SessionLists {
    /// The intents the user plans, by index (``SimulatedUser``).
    var plan: [Int] = []
    /// How each attempted intent ended (``SimulatedUser/results``).
    var results: [IntentResult] = []
    /// The screens the user saw in front (``SimulatedUser/screensSeen``).
    var screensSeen: [String] = []
    /// The variations the session was exposed to, and their features (``SessionLog``).
    var exposures: [(experiment: String, variation: String)] = []
    var exposedFeatures: [String] = []
    /// A user's attributes (``SessionSimulator``).
    var attributes: [Attribute] = []

    /// Empties the lists of the user and the log, keeping their storage (the attributes are
    /// emptied as they are handed back).
    mutating func empty() {
        plan.emptyKeepingStorage()
        results.emptyKeepingStorage()
        screensSeen.emptyKeepingStorage()
        exposures.emptyKeepingStorage()
        exposedFeatures.emptyKeepingStorage()
    }
}

extension Array {
    /// Removes every element and keeps the storage. From the end: `removeAll(keepingCapacity:)`
    /// goes through the general `replaceSubrange`, several times the cost for the few elements a
    /// session leaves.
    @inline(__always)
    mutating func emptyKeepingStorage() {
        while !isEmpty { removeLast() }
    }
}
