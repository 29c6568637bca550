import RemixKit

/// One run of an app: its environment (window, virtual clock, randomness, events), its root, and a
/// record of navigation. Terminal, simulated users and tests all drive apps through this.
package final class AppSession {
    /// The app's session environment.
    package let environment: SessionEnvironment
    /// The session's virtual clock.
    package let clock: VirtualClock
    /// The app's running root.
    package let root: any AppRoot

    /// Makes a session of `appName` on `platform` (nil: the app's first platform).
    package convenience init(
        app appName: String, platform: String? = nil, registry: FeatureRegistry, clock: VirtualClock = VirtualClock(),
        seed: UInt64 = 1, events: any EventSink = EventRecorder(), chooser: (any SlotChooser)? = nil
    ) throws {
        try self.init(app: registry.app(named: appName), platform: platform, registry: registry, clock: clock, seed: seed,
                      events: events, chooser: chooser)
    }

    /// A session of `app`, already looked up in `registry` (a simulation makes many).
    package init(
        app: AppDefinition, platform: String? = nil, registry: FeatureRegistry, clock: VirtualClock = VirtualClock(),
        seed: UInt64 = 1, events: any EventSink = EventRecorder(), chooser: (any SlotChooser)? = nil
    ) throws {
        self.clock = clock
        environment = try SessionEnvironment(
            app: app, platform: platform ?? app.platforms.first ?? "phone", registry: registry, clock: clock,
            random: RandomSource(seed: seed), events: events, chooser: chooser)
        root = try app.make(in: environment)
    }

    /// The session's window.
    package var window: Window { environment.window }

    /// Shows the app's first screen.
    package func start() {
        root.start()
    }

    /// Lets virtual time pass until nothing is waiting or the front screen takes input again.
    /// Returns how much time passed.
    @discardableResult
    package func waitWhileBlocked() -> Duration {
        let start = clock.now
        while window.isBlocked, clock.advanceToNextEvent() {}
        return clock.now - start
    }
}
