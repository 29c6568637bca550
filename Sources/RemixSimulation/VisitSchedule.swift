import Foundation
import GrowthBookAssignment
import RemixKit

/// Every session start of a shard's users, drawn once from each user's own random stream
/// (``SessionSimulator/visitStarts(of:attributes:)``) and sorted by time: which users visit in an
/// epoch without walking the users who do not; and the last session start of the whole run (the
/// other shards' users drawn too, their starts not kept), so that every shard sees the run end
/// after the same epoch. Memory: 16 bytes a session of the shard.
struct VisitSchedule {
    /// (start ms, user index), ascending.
    private let starts: [(time: Int64, user: Int)]
    /// The last session start of any user of the run.
    private let lastStart: Int64

    /// The schedule of the users `users` of a run of `count` users.
    init(users: Range<Int>, of count: Int, simulator: SessionSimulator, jobs: Int) {
        starts = Self.inParts(users, jobs: jobs) { part in
            var attributes: [Attribute] = []
            var found: [(time: Int64, user: Int)] = []
            for user in part {
                for time in simulator.visitStarts(of: user, attributes: &attributes) { found.append((time, user)) }
            }
            return found
        }.flatMap { $0 }.sorted { ($0.time, $0.user) < ($1.time, $1.user) }
        var last = starts.last?.time ?? .min
        for others in [0..<users.lowerBound, users.upperBound..<count] where !others.isEmpty {
            last = max(last, Self.inParts(others, jobs: jobs) { part in
                var attributes: [Attribute] = []
                return part.map { simulator.visitStarts(of: $0, attributes: &attributes).max() ?? .min }.max() ?? .min
            }.max() ?? .min)
        }
        lastStart = last
    }

    /// The users with a session starting in `window`, ascending.
    func users(startingIn window: Range<Int64>) -> [Int] {
        let from = index(of: window.lowerBound), to = index(of: window.upperBound)
        return Array(Set(starts[from..<to].map(\.user))).sorted()
    }

    /// Whether some user of the run has a session starting at or after `time`.
    func hasSessions(startingFrom time: Int64) -> Bool {
        lastStart >= time
    }

    /// The first position whose start is at or after `time`.
    private func index(of time: Int64) -> Int {
        var (low, high) = (0, starts.count)
        while low < high {
            let middle = (low + high) / 2
            if starts[middle].time < time { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// `body` of consecutive parts of `users`, on up to `jobs` threads, in order.
    private static func inParts<T>(_ users: Range<Int>, jobs: Int, _ body: @Sendable (Range<Int>) -> T) -> [T] {
        let parts = max(1, min(jobs, users.count / 1_024))
        let size = (users.count + parts - 1) / parts
        let results = PartResults<T>(count: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let lower = users.lowerBound + part * size
            results.store(part, body(lower..<min(lower + size, users.upperBound)))
        }
        return results.all()
    }
}

/// The parts of a schedule drawn on several threads.
/// Unchecked `Sendable`: `parts` is written and read only while holding `lock`.
private final class PartResults<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [T?]

    init(count: Int) {
        parts = Array(repeating: nil, count: count)
    }

    func store(_ part: Int, _ result: T) {
        lock.lock()
        parts[part] = result
        lock.unlock()
    }

    func all() -> [T] {
        lock.lock()
        defer { lock.unlock() }
        return parts.compactMap { $0 }
    }
}
