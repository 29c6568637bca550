import Foundation
import RemixEventLog
import RemixExperiments
import RemixKit

extension SimulationRunner {
    /// Runs the plan epoch by epoch with `controller` as a barrier in virtual time: each epoch's
    /// sessions — of the users visiting in it only, found once from each user's own random stream
    /// (``VisitSchedule``) — are simulated on the workers in blocks of users and written in user
    /// order, the controller observes them and decides at the boundary (its events written at the
    /// boundary's time), and the next epoch's sessions meet what it decided. The log is
    /// byte-identical whatever the jobs. A shard of several (`meeting`, an event store's sink)
    /// stores its part of each epoch, meets the other shards there, and observes every shard's
    /// lines of the epoch in shard order — the lines a whole run observes — so every shard makes
    /// the whole run's decisions; shard 1 stores them.
    func runInEpochs(into sink: any AsyncEventBlockSink, controller: any VirtualTimeController,
                     progress: (Int, Int) -> Void) async throws -> SimulationSummary {
        let meeting = plan.shard.count > 1 ? sink as? any ShardMeeting : nil
        if plan.shard.count > 1, meeting == nil { throw SimulationError.badPlan(VirtualTimeControllerMessages.shardsNeedStore) }
        var run = try prepare()
        run.queue.cancel()
        var encoder = JSONLinesEncoder()
        encoder.encode(run.record)
        try await sink.begin(run: run.record)
        try controller.observe(lines: encoder.bytes)
        var experiments = plan.experiments
        // Sticky documents cross epochs: each epoch starts from the documents the earlier ones left.
        var sticky = plan.stickyBuckets
        var lower = Int64.min
        // Each user's visit times, drawn once (the other shards' too, for when the whole run ends).
        let visits = VisitSchedule(users: plan.shard.range(of: plan.users), of: plan.users, simulator: simulator, jobs: plan.jobs)
        usersSimulated = 0
        var epoch = 0
        while true {
            let boundary = controller.nextBoundary()
            let window = lower..<(boundary ?? Int64.max)
            var epochPlan = plan
            epochPlan.experiments = experiments
            epochPlan.stickyBuckets = sticky
            var changed: [StickyBucketDocument] = []
            // Only this shard's users with a session starting in the epoch, in blocks in user order.
            let visiting = visits.users(startingIn: window)
            let blocks = stride(from: 0, to: visiting.count, by: Self.blockSize).map {
                Array(visiting[$0..<min($0 + Self.blockSize, visiting.count)])
            }
            let queue = BlockQueue(count: blocks.count, window: plan.jobs * 3)
            defer { queue.cancel() }
            launch(blocks, workerSimulators(SessionSimulator(plan: epochPlan, registry: registry), blocks: blocks.count), queue,
                   capturing: sink.needsEvents, within: window)
            usersSimulated += visiting.count
            var written = 0
            var own: [UInt8] = []
            for index in blocks.indices {
                let block = try await queue.result(index).get()
                changed += block.summary.stickyDocuments
                guard !block.lines.isEmpty else { continue }
                try await sink.write(block: Int(EpochBlocks.block(epoch: epoch, written)), lines: block.lines, events: block.events,
                                     users: block.summary.users)
                if meeting == nil { try controller.observe(lines: block.lines) } else { own += block.lines }
                written += 1
                progress(run.written(block.summary, users: block.summary.users), run.users)
            }
            guard let boundary, visits.hasSessions(startingFrom: window.upperBound) else { break }
            if let meeting { try controller.observe(lines: try await meeting.meet(epoch: epoch, own: own)) }
            let decision = try controller.decide(at: boundary, experiments: experiments)
            if !decision.events.isEmpty {
                var lines = JSONLinesEncoder()
                for event in decision.events { lines.encode(event) }
                if plan.shard.index == 1 {
                    try await sink.write(block: Int(EpochBlocks.decisions(epoch: epoch)), lines: lines.bytes, events: decision.events,
                                         users: 0)
                    run.summary.events += decision.events.count
                }
                try controller.observe(lines: lines.bytes)
            }
            experiments = decision.experiments
            sticky = sticky?.carrying(changed)
            lower = boundary
            epoch += 1
        }
        try await sink.finish()
        var summary = run.finished()
        summary.stickyDocuments = Self.latest(summary.stickyDocuments)
        summary.controllerNotes = controller.stoppedAtLimit
        return summary
    }

    /// Each document's last version (a user's document may change in several epochs), in the order
    /// of those last versions.
    static func latest(_ documents: [StickyBucketDocument]) -> [StickyBucketDocument] {
        var seen = Set<String>()
        return documents.reversed().filter { seen.insert($0.key).inserted }.reversed()
    }

    /// Starts the workers on one epoch's blocks.
    private func launch(_ blocks: [[Int]], _ simulators: [SessionSimulator], _ queue: BlockQueue, capturing: Bool,
                        within window: Range<Int64>) {
        for simulator in simulators {
            Thread.detachNewThread {
                while let index = queue.nextToSimulate() {
                    queue.finish(index, Self.simulate(blocks[index], simulator, capturing: capturing, within: window))
                }
            }
        }
    }
}

/// A sink whose writes are synchronous (a JSON Lines file) awaited as an asynchronous one, for a
/// run with a controller, which awaits its sink.
/// Unchecked `Sendable`: one task — the run's writer — calls it, each call awaited in turn.
package final class AwaitedSink: AsyncEventBlockSink, @unchecked Sendable {
    private let sink: any EventBlockSink

    package init(_ sink: any EventBlockSink) {
        self.sink = sink
    }

    package var needsEvents: Bool { sink.needsEvents }

    package func begin(run record: LoggedEvent) async throws {
        try sink.begin(run: record)
    }

    package func write(block index: Int, lines: [UInt8], events: [LoggedEvent], users: Int) async throws {
        try sink.write(block: index, lines: lines, events: events, users: users)
    }

    package func finish() async throws {
        try sink.finish()
    }
}
