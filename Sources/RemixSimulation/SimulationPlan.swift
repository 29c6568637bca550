import RemixEventLog
import RemixFormats
import RemixHost
import RemixExperiments
import RemixKit

/// Which part of a run a process simulates: shard `index` of `count` (1-based), a contiguous
/// range of user indices, so n shards together hold exactly the users — with all their
/// sessions — of one full run.
package struct Shard: Sendable, Equatable, CustomStringConvertible {
    package let index: Int
    package let count: Int

    /// The whole run.
    package static let whole = Shard(index: 1, count: 1)

    /// Parses `I/N` with 1 ≤ I ≤ N.
    package init?(spec: String) {
        let parts = spec.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]),
              count >= 1, (1...count).contains(index) else { return nil }
        self.init(index: index, count: count)
    }

    init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// The user indices of this shard out of `users`.
    package func range(of users: Int) -> Range<Int> {
        boundary(users, index - 1)..<boundary(users, index)
    }

    /// ⌊users × part / count⌋ without overflow: the product is taken in double width.
    private func boundary(_ users: Int, _ part: Int) -> Int {
        let product = max(users, 0).multipliedFullWidth(by: part)
        return count.dividingFullWidth(product).quotient
    }

    /// Why this shard of a run of `users` cannot run, or nil: it holds none of them (more shards
    /// than users). Such a run is refused rather than simulated as nothing, since its log would
    /// hold no user and its report nothing to compare.
    package func emptinessProblem(users: Int) -> String? {
        guard range(of: users).isEmpty else { return nil }
        return "--shard \(self) holds none of the run's \(users) users (\(count) shards of \(users) users leave "
            + "\(count - users) empty); split the run into at most \(users) shards, or give more --users"
    }

    package var description: String { "\(index)/\(count)" }
}

/// Everything a simulation run needs: what to run, how many users, and where they come from.
package struct SimulationPlan: Sendable {
    /// The app to simulate.
    package var app: String
    /// Users in the whole run (before sharding); each makes their persona's number of sessions.
    package var users: Int
    /// The run's seed: the same seed and inputs give the same log.
    package var seed: UInt64
    /// Worker threads; the log does not depend on it.
    package var jobs: Int
    /// The part of the run this process does.
    package var shard: Shard
    /// Who the users are.
    package var population: Population
    /// The experiments that fill the app's slots.
    package var experiments: ExperimentSet
    /// Files the run was made from, with content hashes, for the run record.
    package var sources: [RunSource]
    /// The sticky-bucket documents read from the store at the start, when sticky bucketing is on.
    package var stickyBuckets: StickyBucketStart?

    /// Makes a plan.
    package init(app: String, users: Int, seed: UInt64, jobs: Int, shard: Shard, population: Population,
                experiments: ExperimentSet, sources: [RunSource]) {
        self.app = app
        self.users = users
        self.seed = seed
        self.jobs = max(1, jobs)
        self.shard = shard
        self.population = population
        self.experiments = experiments
        self.sources = sources
    }
}

extension SimulationPlan {
    /// Why the plan cannot run, or nil: every event's time must be writable as an RFC 3339
    /// timestamp (years 0001–9999), so the run's start, its sessions' gaps and the longest
    /// possible session must end by 9999-12-31. Computed in doubles: nothing here can overflow.
    package func problem() -> String? {
        let start = Double(population.startMilliseconds) / 1000
        let lastStart = start + Double(max(shard.range(of: users).upperBound - 1, 0))
            * Double(population.sessionGapMilliseconds) / 1000
        let end = lastStart + population.longestUserSeconds(steps: SimulatedUser.maximumSteps)
        guard end > Double(CivilTime.latestMilliseconds) / 1000 else { return nil }
        return "the simulated sessions would run past 9999-12-31T23:59:59Z, the last time the event log can write "
            + "(start \(Timestamp.rfc3339(milliseconds: population.startMilliseconds)), \(users) users "
            + "\(Double(population.sessionGapMilliseconds) / 1000) s apart); choose an earlier start, a smaller "
            + "sessionGapSeconds, fewer visits or fewer --users"
    }
}

/// The sticky-bucket documents a run starts from, shared by every user: each user's sessions
/// start from their documents here and keep them up to date in memory during the run
/// (``SimulationSummary/stickyDocuments`` collects the changed ones, in user order).
package final class StickyBucketStart: Sendable {
    /// The documents by key.
    let documents: [String: StickyBucketDocument]
    /// The hash and fallback attributes of the run's experiments.
    package let attributeNames: [String]

    /// The store's `documents` for a run of `experiments`.
    package init(_ documents: [StickyBucketDocument], experiments: ExperimentSet) {
        self.documents = Dictionary(documents.map { ($0.key, $0) }, uniquingKeysWith: { _, later in later })
        attributeNames = experiments.stickyBucketAttributes
    }

    private init(documents: [String: StickyBucketDocument], attributeNames: [String]) {
        self.documents = documents
        self.attributeNames = attributeNames
    }

    /// These documents with `changed` in place of (or beside) them: what the next epoch of a run
    /// in virtual time starts from, so that a returning user keeps their arm across epochs.
    func carrying(_ changed: [StickyBucketDocument]) -> StickyBucketStart {
        guard !changed.isEmpty else { return self }
        var documents = self.documents
        for document in changed { documents[document.key] = document }
        return StickyBucketStart(documents: documents, attributeNames: attributeNames)
    }

    /// The documents of the user in `context`.
    func buckets(for context: AssignmentContext) -> StickyBuckets {
        StickyBuckets(context.stickyBucketIdentifiers(attributeNames: attributeNames).compactMap {
            documents[StickyBucketDocument.key(attributeName: $0.attributeName, attributeValue: $0.attributeValue)]
        })
    }
}

/// An input file of a run and the FNV-1a 64 hash of its bytes.
package struct RunSource: Sendable, Equatable {
    package var role: String
    package var path: String
    package var hash: String

    /// Describes `bytes` read from `path`.
    package init(role: String, path: String, bytes: [UInt8]) {
        self.role = role
        self.path = path
        self.hash = "fnv1a64:" + FNV1a<UInt64>.hex(bytes)
    }
}

extension SimulationPlan {
    /// The run's identity in an event store: the same inputs (version, app, seed, users, number of
    /// shards, the hashes of the population and experiment files) give the same id, so a resumed or
    /// retried run — or another host running another shard — writes into the same run.
    package var runID: String {
        let parts = [RemixVersion.text, app, String(seed), String(users), String(shard.count)] + sources.map(\.hash)
        return "run-" + FNV1a<UInt64>.hex(parts.joined(separator: "\n").utf8)
    }
}
