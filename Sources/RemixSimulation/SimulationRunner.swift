import Dispatch
import Foundation
import RemixEventLog
import RemixHost
import RemixKit

/// Runs a plan's users on several threads and appends their sessions' events to the log in user
/// order, so the log is byte-identical whatever the number of jobs. Workers take blocks of
/// users in order and run ahead of the writer by a bounded window, so memory stays flat and
/// writing overlaps simulating.
package final class SimulationRunner {
    /// Users simulated together and written as one chunk.
    static let blockSize = 256
    let plan: SimulationPlan
    let registry: FeatureRegistry
    let simulator: SessionSimulator
    let sink: (any EventBlockSink)?
    /// Decides at boundaries in virtual time what later sessions meet; with one, the run goes epoch by epoch.
    let controller: (any VirtualTimeController)?
    /// The registry of worker `n` (from 1; the same modules loaded anew), for the workers after the first.
    let replica: ((Int) throws -> FeatureRegistry)?
    /// The replicas made so far, by worker (made once per runner, kept across epochs).
    private var replicas: [Int: FeatureRegistry] = [:]
    /// Users simulated over the epochs of the last run with a controller (a user visiting in
    /// several epochs counts in each): about the users plus the epochs' returning visits.
    package internal(set) var usersSimulated = 0
    /// The version written into run records.
    package static let version = RemixVersion.text

    /// Makes a runner writing to `log` (a JSON Lines file) with ``run(progress:)``.
    /// `replica`, when given, loads the registry again for each worker after the first.
    package convenience init(plan: SimulationPlan, registry: FeatureRegistry, log: any EventBlockSink,
                             replica: (@Sendable () throws -> FeatureRegistry)? = nil) {
        self.init(plan: plan, registry: registry, sink: log, replica: Self.anyWorker(replica))
    }

    /// A runner whose workers after the first simulate on `workerRegistries` (made once for many
    /// runs, e.g. by ``workerRegistries(jobs:registry:replica:)``), in order; workers past them
    /// share `registry`.
    package convenience init(plan: SimulationPlan, registry: FeatureRegistry, log: any EventBlockSink,
                             workerRegistries: [FeatureRegistry]) {
        self.init(plan: plan, registry: registry, sink: log, replica: { worker in
            guard worker - 1 < workerRegistries.count else {
                throw SimulationError.internalFailure("no registry for worker \(worker)")
            }
            return workerRegistries[worker - 1]
        })
    }

    /// Registries for the workers after the first of a run with `jobs` jobs, each made by
    /// `replica`; one that cannot be made is `registry`.
    package static func workerRegistries(jobs: Int, registry: FeatureRegistry,
                                         replica: (() throws -> FeatureRegistry)?) -> [FeatureRegistry] {
        guard let replica, jobs > 1 else { return [] }
        return (1..<jobs).map { _ in (try? replica()) ?? registry }
    }

    /// Makes a runner writing to `log` whose sessions meet what `controller` decides at its
    /// boundaries in virtual time (see ``VirtualTimeController``); ``run(progress:)`` runs it.
    package convenience init(plan: SimulationPlan, registry: FeatureRegistry, log: any EventBlockSink,
                             controller: any VirtualTimeController, replica: (@Sendable () throws -> FeatureRegistry)? = nil) {
        self.init(plan: plan, registry: registry, sink: log, controller: controller,
                  replica: Self.anyWorker(replica))
    }

    /// Makes a runner for ``run(into:progress:)``, which is given its sink (an event store's, or
    /// an ``AwaitedSink``); with `controller`, its sessions meet what it decides.
    package convenience init(plan: SimulationPlan, registry: FeatureRegistry, controller: (any VirtualTimeController)? = nil,
                             replica: (@Sendable () throws -> FeatureRegistry)? = nil) {
        self.init(plan: plan, registry: registry, sink: nil, controller: controller, replica: Self.anyWorker(replica))
    }

    /// `replica` as the registry of whichever worker asks.
    private static func anyWorker(_ replica: (@Sendable () throws -> FeatureRegistry)?) -> ((Int) throws -> FeatureRegistry)? {
        replica.map { make in { _ in try make() } }
    }

    private init(plan: SimulationPlan, registry: FeatureRegistry, sink: (any EventBlockSink)?,
                 controller: (any VirtualTimeController)? = nil, replica: ((Int) throws -> FeatureRegistry)?) {
        self.replica = replica
        self.plan = plan
        self.registry = registry
        self.simulator = SessionSimulator(plan: plan, registry: registry)
        self.sink = sink
        self.controller = controller
    }

    /// Runs the plan into the log it was made with; `progress` is called with (users done, users
    /// in this shard).
    package func run(progress: (Int, Int) -> Void = { _, _ in }) throws -> SimulationSummary {
        guard let sink else { throw SimulationError.internalFailure("a runner made without a log runs with run(into:)") }
        if controller != nil { throw SimulationError.internalFailure("a runner with a controller runs with run(into:), awaited") }
        var run = try prepare()
        defer { run.queue.cancel() }
        try sink.begin(run: run.record)
        launch(run, capturing: sink.needsEvents)
        for index in run.blocks.indices {
            let block = try run.queue.waitForResult(index).get()
            try sink.write(block: index, lines: block.lines, events: block.events, users: run.blocks[index].count)
            progress(run.written(block.summary, users: run.blocks[index].count), run.users)
        }
        try sink.finish()
        return run.finished()
    }

    /// Runs the plan into `sink`, whose writes are asynchronous I/O (an event store): as
    /// ``run(progress:)``, the users simulated on worker threads, with each block's write awaited
    /// in order — no thread waits for the store.
    package func run(into sink: any AsyncEventBlockSink, progress: (Int, Int) -> Void = { _, _ in }) async throws -> SimulationSummary {
        if let controller { return try await runInEpochs(into: sink, controller: controller, progress: progress) }
        var run = try prepare()
        defer { run.queue.cancel() }
        try await sink.begin(run: run.record)
        launch(run, capturing: sink.needsEvents)
        for index in run.blocks.indices {
            let block = try await run.queue.result(index).get()
            try await sink.write(block: index, lines: block.lines, events: block.events, users: run.blocks[index].count)
            progress(run.written(block.summary, users: run.blocks[index].count), run.users)
        }
        try await sink.finish()
        return run.finished()
    }

    /// A run under way: the shard's blocks of users, simulated ahead by the workers, and what has
    /// been written of them.
    struct Started {
        let record: LoggedEvent
        let blocks: [Range<Int>]
        let queue: BlockQueue
        let started = ContinuousClock.now
        var summary = SimulationSummary()
        var done = 0
        /// Users in this shard.
        var users: Int { blocks.reduce(0) { $0 + $1.count } }

        /// Counts a written block of `users` users; returns the users done.
        mutating func written(_ block: SimulationSummary, users: Int) -> Int {
            summary.merge(block)
            done += users
            return done
        }

        /// The summary of the whole run, the run record included.
        func finished() -> SimulationSummary {
            var result = summary
            result.events += 1
            result.elapsedSeconds = (ContinuousClock.now - started).seconds
            return result
        }
    }

    /// Checks the plan and splits the shard's users into blocks.
    func prepare() throws -> Started {
        if let problem = plan.problem() { throw SimulationError.badPlan(problem) }
        let range = plan.shard.range(of: plan.users)
        let blocks = stride(from: range.lowerBound, to: range.upperBound, by: Self.blockSize).map {
            $0..<min($0 + Self.blockSize, range.upperBound)
        }
        return Started(record: runRecord(range), blocks: blocks, queue: BlockQueue(count: blocks.count, window: plan.jobs * 3))
    }

    /// Starts the workers: they take blocks of users in order and run ahead of the writer by at
    /// most the queue's window.
    private func launch(_ run: Started, capturing: Bool) {
        let (blocks, queue) = (run.blocks, run.queue)
        for simulator in workerSimulators(simulator, blocks: blocks.count) {
            Thread.detachNewThread {
                while let index = queue.nextToSimulate() {
                    queue.finish(index, Self.simulate(blocks[index], simulator, capturing: capturing))
                }
            }
        }
    }

    /// One simulator per worker (as many as the jobs, at most one a block): `first` and, for the
    /// others, the same plan on each worker's own registry.
    func workerSimulators(_ first: SessionSimulator, blocks: Int) -> [SessionSimulator] {
        (0..<min(plan.jobs, max(blocks, 1))).map { worker in
            worker == 0 ? first : SessionSimulator(plan: first.plan, registry: registry(forWorker: worker))
        }
    }

    /// Worker `worker`'s registry: the runner's for the first, a replica for each other (the
    /// runner's when none can be made). A worker then counts references only on its own feature
    /// descriptors, apps and module data (Marketplace's catalog): counts on objects that two
    /// threads share move their cache line between the cores at every change, which cost
    /// `--jobs 2` a quarter of its gain here (docs/performance.md).
    private func registry(forWorker worker: Int) -> FeatureRegistry {
        guard worker > 0, let replica else { return registry }
        if let made = replicas[worker] { return made }
        let made = (try? replica(worker)) ?? registry
        replicas[worker] = made
        return made
    }

    static func simulate<Users: Collection<Int>>(_ block: Users, _ simulator: SessionSimulator, capturing: Bool,
                                                 within window: Range<Int64>? = nil) -> BlockQueue.Outcome {
        var encoder = JSONLinesEncoder(capacity: window == nil ? block.count * 2600 : 0)
        var events: [LoggedEvent]? = capturing ? [] : nil
        var tally = SessionTally()
        var lists = SessionLists()
        var later = 0
        do {
            for index in block {
                later += try simulator.simulate(index, within: window, into: &encoder, events: &events, summary: &tally,
                                                lists: &lists)
            }
            return .success(SimulatedBlock(lines: encoder.bytes, events: events ?? [], summary: tally.summary(), later: later))
        } catch {
            return .failure(error)
        }
    }

    private func runRecord(_ range: Range<Int>) -> LoggedEvent {
        LoggedEvent(timestamp: plan.population.startMilliseconds, type: "run", session: "", user: "", fields: [
            EventField("version", .string(Self.version)),
            EventField("app", .string(plan.app)),
            EventField("seed", .string(String(plan.seed))),
            EventField("users", .int(plan.users)),
            EventField("shard", .string(plan.shard.description)),
            EventField("userIndices", .array([.int(range.lowerBound), .int(range.upperBound)])),
            EventField("sources", .array(plan.sources.map { source in
                .object([EventField("role", .string(source.role)), EventField("path", .string(source.path)),
                         EventField("hash", .string(source.hash))])
            })),
        ])
    }
}

/// One block of users simulated: their events as JSON lines, as values when the sink needs them,
/// and their part of the summary.
struct SimulatedBlock: Sendable {
    var lines: [UInt8]
    var events: [LoggedEvent]
    var summary: SimulationSummary
    /// With a window: sessions of the block's users that start after it.
    var later = 0
}

/// Hands blocks to workers in order, at most `window` ahead of the writer, and gives the writer
/// each block's result in order — to a waiting thread, or to an awaiting task.
/// Unchecked `Sendable`: every mutable field is read and written only while holding `condition`.
final class BlockQueue: @unchecked Sendable {
    typealias Outcome = Result<SimulatedBlock, Error>

    private let condition = NSCondition()
    private let count: Int
    private let window: Int
    private var nextBlock = 0
    private var written = 0
    private var cancelled = false
    private var results: [Int: Outcome] = [:]
    /// The writer task awaiting a block's result, if it is waiting.
    private var awaiting: (index: Int, continuation: CheckedContinuation<Outcome, Never>)?

    init(count: Int, window: Int) {
        self.count = count
        self.window = max(window, 1)
    }

    /// The next block to simulate, waiting while the workers are a full window ahead; nil when done.
    func nextToSimulate() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while !cancelled && nextBlock < count && nextBlock >= written + window { condition.wait() }
        guard !cancelled, nextBlock < count else { return nil }
        defer { nextBlock += 1 }
        return nextBlock
    }

    func finish(_ index: Int, _ outcome: Outcome) {
        condition.lock()
        guard let awaiting, awaiting.index == index else {
            results[index] = outcome
            condition.broadcast()
            condition.unlock()
            return
        }
        self.awaiting = nil
        taken(index)
        condition.unlock()
        awaiting.continuation.resume(returning: outcome)
    }

    /// Waits for block `index`'s result and frees room in the window.
    func waitForResult(_ index: Int) -> Outcome {
        condition.lock()
        defer { condition.unlock() }
        while results[index] == nil { condition.wait() }
        taken(index)
        return results.removeValue(forKey: index) ?? .failure(SimulationError.internalFailure("lost block \(index)"))
    }

    /// Block `index`'s result, awaited without holding a thread; frees room in the window.
    func result(_ index: Int) async -> Outcome {
        await withCheckedContinuation { continuation in
            condition.lock()
            guard let outcome = results.removeValue(forKey: index) else {
                awaiting = (index, continuation)
                condition.unlock()
                return
            }
            taken(index)
            condition.unlock()
            continuation.resume(returning: outcome)
        }
    }

    /// Frees the room of block `index`, which the writer took (called holding `condition`).
    private func taken(_ index: Int) {
        written = index + 1
        condition.broadcast()
    }

    /// Stops handing out blocks (after an error or at the end).
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }
}

/// A failure that stops a simulation.
package enum SimulationError: Error, CustomStringConvertible {
    case internalFailure(String)
    /// The plan cannot run (see ``SimulationPlan/problem()``).
    case badPlan(String)

    package var description: String {
        switch self {
        case .internalFailure(let what): "simulation failed: \(what)"
        case .badPlan(let problem): problem
        }
    }
}
