/// The session's time source. Features schedule delayed work on it (the recommendation delay,
/// a toast's duration) instead of using timers, so tests and simulations never wait.
public protocol Clock: AnyObject {
    /// Time elapsed since the session started.
    var now: Duration { get }
    /// Runs `action` once `delay` has passed.
    func schedule(after delay: Duration, _ action: @escaping () -> Void)
}

/// A clock whose time moves only when told to. Actions due at the same instant run in the order
/// they were scheduled.
public final class VirtualClock: Clock {
    private struct Pending {
        let due: Duration
        let order: UInt64
        let action: () -> Void
    }

    public var now: Duration { time }
    private var time: Duration = .zero
    private var pending: [Pending] = []
    private var scheduled: UInt64 = 0

    /// Makes a clock at time zero.
    public init() {}

    public func schedule(after delay: Duration, _ action: @escaping () -> Void) {
        scheduled += 1
        let item = Pending(due: time + max(delay, .zero), order: scheduled, action: action)
        // Changed in a copy taken out and put back (`Array.taken()`).
        var list = pending.taken()
        let index = list.firstIndex { ($0.due, $0.order) > (item.due, item.order) } ?? list.endIndex
        list.insert(item, at: index)
        pending = list
    }

    /// Whether any action is waiting.
    public var hasPendingWork: Bool { !pending.isEmpty }

    /// When the next waiting action is due.
    public var nextDue: Duration? { pending.first?.due }

    /// Moves time forward by `interval`, running every action that falls due on the way.
    public func advance(by interval: Duration) {
        let target = time + max(interval, .zero)
        while let next = pending.first, next.due <= target {
            var list = pending.taken()
            list.removeFirst()
            pending = list
            time = next.due
            next.action()
        }
        time = target
    }

    /// Moves time to the next waiting action and runs it (and any due at the same instant).
    /// Returns false when nothing is waiting.
    @discardableResult
    public func advanceToNextEvent() -> Bool {
        guard let due = pending.first?.due else { return false }
        advance(by: due - time)
        return true
    }
}

extension Duration {
    /// The duration in seconds as a floating-point number.
    public var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }

    /// The duration in whole milliseconds, rounded toward zero.
    public var wholeMilliseconds: Int64 {
        // A duration from zero to 2^79 attoseconds (about seven days: a session's virtual time)
        // divided without `components`, whose 128-bit division by 10^18 cost a few hundred
        // instructions for every event's timestamp: 10^15 = 2^15 · 5^15, and shifted right by 15
        // the count fits a 64-bit division.
        let attoseconds = self.attoseconds
        if attoseconds >= 0, attoseconds >> 79 == 0 {
            return Int64(UInt64(truncatingIfNeeded: attoseconds >> 15) / 30_517_578_125)
        }
        let parts = components
        return parts.seconds * 1000 + parts.attoseconds / 1_000_000_000_000_000
    }
}
