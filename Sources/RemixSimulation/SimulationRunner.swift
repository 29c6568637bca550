import Dispatch
import Foundation
import RemixEventLog
import RemixHost
import RemixKit

/// Runs a plan's users on several threads and appends their sessions' events to the log in user
/// order, so the log is byte-identical whatever the number of jobs. Workers take blocks of
/// users in order and run ahead of the writer by a bounded window, so memory stays flat and
/// writing overlaps simulating.
public final class SimulationRunner {
    /// Users simulated together and written as one chunk.
    static let blockSize = 256
    private let plan: SimulationPlan
    private let simulator: SessionSimulator
    private let sink: any EventBlockSink
    /// The version written into run records.
    public static let version = RemixVersion.text

    /// Makes a runner writing to `log` (a JSON Lines file, or an event store's sink).
    public init(plan: SimulationPlan, registry: FeatureRegistry, log: any EventBlockSink) {
        self.plan = plan
        self.simulator = SessionSimulator(plan: plan, registry: registry)
        self.sink = log
    }

    /// Runs the plan; `progress` is called with (users done, users in this shard).
    public func run(progress: (Int, Int) -> Void = { _, _ in }) throws -> SimulationSummary {
        if let problem = plan.problem() { throw SimulationError.badPlan(problem) }
        let started = ContinuousClock.now
        let range = plan.shard.range(of: plan.users)
        var summary = SimulationSummary()
        try sink.begin(run: runRecord(range))
        summary.events += 1
        let blocks = stride(from: range.lowerBound, to: range.upperBound, by: Self.blockSize).map {
            $0..<min($0 + Self.blockSize, range.upperBound)
        }
        let queue = BlockQueue(count: blocks.count, window: plan.jobs * 3)
        let simulator = self.simulator
        let capturing = sink.needsEvents
        for _ in 0..<min(plan.jobs, max(blocks.count, 1)) {
            Thread.detachNewThread { [queue] in
                while let index = queue.nextToSimulate() {
                    queue.finish(index, Self.simulate(blocks[index], simulator, capturing: capturing))
                }
            }
        }
        var done = 0
        defer { queue.cancel() }
        for index in blocks.indices {
            switch queue.waitForResult(index) {
            case .success(let (encoder, events, blockSummary)):
                try sink.write(block: index, lines: encoder.bytes, events: events, users: blocks[index].count)
                summary.merge(blockSummary)
                done += blocks[index].count
                progress(done, range.count)
            case .failure(let error):
                throw error
            }
        }
        try sink.finish()
        summary.elapsedSeconds = (ContinuousClock.now - started).seconds
        return summary
    }

    private static func simulate(_ block: Range<Int>, _ simulator: SessionSimulator, capturing: Bool) -> BlockQueue.Outcome {
        var encoder = JSONLinesEncoder(capacity: block.count * 2600)
        var events: [LoggedEvent]? = capturing ? [] : nil
        var summary = SimulationSummary()
        do {
            for index in block { try simulator.simulate(index, into: &encoder, events: &events, summary: &summary) }
            return .success((encoder, events ?? [], summary))
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

/// Hands blocks to workers in order, at most `window` ahead of the writer, and gives the writer
/// each block's result in order.
/// Unchecked `Sendable`: every mutable field is read and written only while holding `condition`.
final class BlockQueue: @unchecked Sendable {
    typealias Outcome = Result<(JSONLinesEncoder, [LoggedEvent], SimulationSummary), Error>

    private let condition = NSCondition()
    private let count: Int
    private let window: Int
    private var nextBlock = 0
    private var written = 0
    private var cancelled = false
    private var results: [Int: Outcome] = [:]

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
        results[index] = outcome
        condition.broadcast()
        condition.unlock()
    }

    /// Waits for block `index`'s result and frees room in the window.
    func waitForResult(_ index: Int) -> Outcome {
        condition.lock()
        defer { condition.unlock() }
        while results[index] == nil { condition.wait() }
        let outcome = results.removeValue(forKey: index) ?? .failure(SimulationError.internalFailure("lost block \(index)"))
        written = index + 1
        condition.broadcast()
        return outcome
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
public enum SimulationError: Error, CustomStringConvertible {
    case internalFailure(String)
    /// The plan cannot run (see ``SimulationPlan/problem()``).
    case badPlan(String)

    public var description: String {
        switch self {
        case .internalFailure(let what): "simulation failed: \(what)"
        case .badPlan(let problem): problem
        }
    }
}
