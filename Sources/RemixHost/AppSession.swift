import RemixKit

/// One run of an app: its environment (window, virtual clock, randomness, events), its root, and a
/// record of navigation. Terminal, simulated users and tests all drive apps through this.
public final class AppSession {
    /// The app's session environment.
    public let environment: SessionEnvironment
    /// The session's virtual clock.
    public let clock: VirtualClock
    /// The app's running root.
    public let root: any AppRoot

    /// Makes a session of `appName` on `platform` (nil: the app's first platform).
    public init(
        app appName: String, platform: String? = nil, registry: FeatureRegistry, clock: VirtualClock = VirtualClock(),
        seed: UInt64 = 1, events: any EventSink = EventRecorder(), chooser: (any SlotChooser)? = nil
    ) throws {
        let app = try registry.app(named: appName)
        self.clock = clock
        environment = try SessionEnvironment(
            app: app, platform: platform ?? app.platforms.first ?? "phone", registry: registry, clock: clock,
            random: RandomSource(seed: seed), events: events, chooser: chooser)
        root = try app.make(in: environment)
    }

    /// The session's window.
    public var window: Window { environment.window }

    /// Shows the app's first screen.
    public func start() {
        root.start()
    }

    /// Lets virtual time pass until nothing is waiting or the front screen takes input again.
    /// Returns how much time passed.
    @discardableResult
    public func waitWhileBlocked() -> Duration {
        let start = clock.now
        while window.isBlocked, clock.advanceToNextEvent() {}
        return clock.now - start
    }
}
