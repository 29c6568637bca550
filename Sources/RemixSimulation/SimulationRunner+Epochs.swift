import Foundation
import RemixEventLog
import RemixExperiments
import RemixKit

extension SimulationRunner {
    /// Runs the plan epoch by epoch with `controller` as a barrier in virtual time: each epoch's
    /// sessions are simulated on the workers in blocks of users and written in user order, the
    /// controller observes them and decides at the boundary (its events written at the boundary's
    /// time), and the next epoch's sessions meet what it decided. Each user's visit times come
    /// from the user's own random stream, so the log is byte-identical whatever the jobs.
    func runInEpochs(into sink: any EventBlockSink, controller: any VirtualTimeController,
                     progress: (Int, Int) -> Void) throws -> SimulationSummary {
        guard plan.shard.count == 1 else { throw SimulationError.badPlan(VirtualTimeControllerMessages.needsWholeRun) }
        var run = try prepare()
        run.queue.cancel()
        var encoder = JSONLinesEncoder()
        encoder.encode(run.record)
        try sink.begin(run: run.record)
        try controller.observe(lines: encoder.bytes)
        var experiments = plan.experiments
        // Sticky documents cross epochs: each epoch starts from the documents the earlier ones left.
        var sticky = plan.stickyBuckets
        var lower = Int64.min
        var written = 0
        // Each user's visit times, drawn once: an epoch simulates only the users visiting in it.
        let visits = VisitSchedule(users: plan.shard.range(of: plan.users), simulator: simulator, jobs: plan.jobs)
        usersSimulated = 0
        while true {
            let boundary = controller.nextBoundary()
            let window = lower..<(boundary ?? Int64.max)
            var epochPlan = plan
            epochPlan.experiments = experiments
            epochPlan.stickyBuckets = sticky
            var changed: [StickyBucketDocument] = []
            let simulator = SessionSimulator(plan: epochPlan, registry: registry)
            // Only the users with a session starting in the epoch, in blocks in user order.
            let visiting = visits.users(startingIn: window)
            let blocks = stride(from: 0, to: visiting.count, by: Self.blockSize).map {
                Array(visiting[$0..<min($0 + Self.blockSize, visiting.count)])
            }
            let queue = BlockQueue(count: blocks.count, window: plan.jobs * 3)
            defer { queue.cancel() }
            launch(blocks, workerSimulators(simulator, blocks: blocks.count), queue, capturing: sink.needsEvents,
                   within: window)
            let later = visits.sessions(startingFrom: window.upperBound)
            usersSimulated += visiting.count
            for index in blocks.indices {
                let block = try queue.waitForResult(index).get()
                changed += block.summary.stickyDocuments
                guard !block.lines.isEmpty else { continue }
                try sink.write(block: written, lines: block.lines, events: block.events, users: block.summary.users)
                try controller.observe(lines: block.lines)
                written += 1
                progress(run.written(block.summary, users: block.summary.users), run.users)
            }
            guard let boundary, later > 0 else { break }
            let decision = try controller.decide(at: boundary, experiments: experiments)
            if !decision.events.isEmpty {
                var lines = JSONLinesEncoder()
                for event in decision.events { lines.encode(event) }
                try sink.write(block: written, lines: lines.bytes, events: decision.events, users: 0)
                try controller.observe(lines: lines.bytes)
                written += 1
                run.summary.events += decision.events.count
            }
            experiments = decision.experiments
            sticky = sticky?.carrying(changed)
            lower = boundary
        }
        try sink.finish()
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
