import Foundation
import GrowthBookAssignment
import RemixKit

/// Every session start of a run's users, drawn once from each user's own random stream
/// (``SessionSimulator/visitStarts(of:attributes:)``) and sorted by time: which users visit in an
/// epoch, and how many sessions start after it, without walking the users who do not.
/// Memory: 16 bytes a session.
struct VisitSchedule {
    /// (start ms, user index), ascending.
    private let starts: [(time: Int64, user: Int)]

    init(users: Range<Int>, simulator: SessionSimulator, jobs: Int) {
        let parts = max(1, min(jobs, users.count / 1_024))
        let size = (users.count + parts - 1) / max(parts, 1)
        let found = PartStarts(count: parts)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let lower = users.lowerBound + part * size
            var attributes: [Attribute] = []
            var mine: [(time: Int64, user: Int)] = []
            for user in lower..<min(lower + size, users.upperBound) {
                for time in simulator.visitStarts(of: user, attributes: &attributes) { mine.append((time, user)) }
            }
            found.store(part, mine)
        }
        starts = found.all().sorted { ($0.time, $0.user) < ($1.time, $1.user) }
    }

    /// The users with a session starting in `window`, ascending.
    func users(startingIn window: Range<Int64>) -> [Int] {
        let from = index(of: window.lowerBound), to = index(of: window.upperBound)
        return Array(Set(starts[from..<to].map(\.user))).sorted()
    }

    /// Sessions starting at or after `time`.
    func sessions(startingFrom time: Int64) -> Int {
        starts.count - index(of: time)
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
}

/// The parts of a schedule drawn on several threads.
/// Unchecked `Sendable`: `parts` is written and read only while holding `lock`.
private final class PartStarts: @unchecked Sendable {
    private let lock = NSLock()
    private var parts: [[(time: Int64, user: Int)]]

    init(count: Int) {
        parts = Array(repeating: [], count: count)
    }

    func store(_ part: Int, _ starts: [(time: Int64, user: Int)]) {
        lock.lock()
        parts[part] = starts
        lock.unlock()
    }

    func all() -> [(time: Int64, user: Int)] {
        lock.lock()
        defer { lock.unlock() }
        return parts.flatMap { $0 }
    }
}
