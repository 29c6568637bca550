import RemixKit

/// A step a ``ScreenDriver`` could not take; the message says what the screen shows instead.
public struct ScreenDriverError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Drives one session of an app the way a person would — through the window's panels, by screen
/// name and by the titles, roles and purposes the screens declare — and records what happens: the
/// navigation state, the features' events, virtual time. The testing kit for feature and plugin
/// authors: register your module (and the app it plugs into) in a `FeatureRegistry`, fill the
/// slot with your feature, and drive it.
///
/// ```swift
/// let registry = FeatureRegistry()
/// try registry.register(MarketplaceModule())
/// try registry.register(MyInsertionModule())
/// let driver = try ScreenDriver(app: "marketplace", registry: registry,
///                               chooser: FixedSlotChooser("MyInsertion"))
/// try driver.press("New advert", on: "adverts")
/// ```
public final class ScreenDriver {
    public let environment: SessionEnvironment
    public let root: any AppRoot
    /// Every event the features recorded, in order.
    public let events = EventRecorder()
    /// Every navigation transition, in order.
    public private(set) var transitions: [NavigationTransition] = []
    public let clock: VirtualClock

    /// A session of `app` on `platform` (nil: the app's first), its slots filled by `chooser`
    /// (nil: each slot's default feature); started unless `start` is false.
    public init(app: String, platform: String? = nil, registry: FeatureRegistry, chooser: (any SlotChooser)? = nil,
                seed: UInt64 = 1, start: Bool = true) throws {
        let definition = try registry.app(named: app)
        clock = VirtualClock()
        environment = try SessionEnvironment(
            app: definition, platform: platform ?? definition.platforms.first ?? "phone", registry: registry, clock: clock,
            random: RandomSource(seed: seed), events: events, chooser: chooser)
        root = try definition.make(in: environment)
        environment.window.addTransitionObserver { [weak self] in self?.transitions.append($0) }
        if start { root.start() }
    }

    /// Shows the app's first screen (done by `init` unless `start` was false).
    public func start() { root.start() }

    public var window: Window { environment.window }
    /// The navigation state, e.g. `adverts > groups > title`.
    public var state: String { window.state.description }

    // MARK: Looking

    /// The visible panel showing the screen called `name`.
    public func panel(_ name: String) throws -> Panel {
        guard let panel = window.panels.first(where: { $0.content.name == name }) else {
            throw ScreenDriverError("no '\(name)' screen is visible; the state is '\(state)'")
        }
        return panel
    }

    /// The names of the visible screens, front last.
    public var screenNames: [String] { window.panels.map(\.content.name) }

    /// The titles of the rows on the screen `screen`.
    public func rowTitles(on screen: String) throws -> [String] { try panel(screen).content.items.map(\.title) }

    /// The titles of the buttons on the screen `screen`.
    public func buttonTitles(on screen: String) throws -> [String] { try panel(screen).content.buttons.map(\.title) }

    /// The text of the field for `purpose` (nil: the first field) on `screen`.
    public func text(on screen: String, purpose: FieldPurpose? = nil) throws -> String {
        try field(on: screen, purpose: purpose).value
    }

    /// The recorded events called `name`, in order.
    public func events(named name: String) -> [DomainEvent] { events.events.filter { $0.name == name } }

    // MARK: Acting

    /// Selects the row titled `title` on `screen`.
    public func select(_ title: String, on screen: String) throws {
        let panel = try panel(screen)
        guard let item = panel.content.items.first(where: { $0.title == title }) else {
            throw ScreenDriverError("'\(screen)' has no row '\(title)'; it shows \(panel.content.items.map(\.title))")
        }
        try window.send(.select(itemID: item.id), to: panel)
    }

    /// Presses the button titled `title` on `screen`.
    public func press(_ title: String, on screen: String) throws {
        let panel = try panel(screen)
        guard let button = panel.content.buttons.first(where: { $0.title == title }) else {
            throw ScreenDriverError("'\(screen)' has no button '\(title)'; it has \(panel.content.buttons.map(\.title))")
        }
        try window.send(.press(buttonID: button.id), to: panel)
    }

    /// Presses the first button of `role` on `screen` (what a screen reader would call it).
    public func press(role: ButtonRole, on screen: String) throws {
        let panel = try panel(screen)
        guard let button = panel.content.buttons.first(where: { $0.role == role }) else {
            throw ScreenDriverError("'\(screen)' has no \(role.rawValue) button; it has "
                                    + "\(panel.content.buttons.map { "\($0.title) (\($0.role.rawValue))" })")
        }
        try window.send(.press(buttonID: button.id), to: panel)
    }

    /// Replaces the text of the field for `purpose` (nil: the first field) on `screen`.
    public func type(_ text: String, on screen: String, purpose: FieldPurpose? = nil) throws {
        let panel = try panel(screen)
        let field = try field(on: screen, purpose: purpose)
        try window.send(.edit(fieldID: field.id, text: text), to: panel)
    }

    /// Presses the navigation back button.
    public func back() throws { try window.goBack() }

    /// Lets virtual time pass while the window is blocked (a loading toast); returns how much passed.
    @discardableResult
    public func waitWhileBlocked() -> Duration {
        let start = clock.now
        while window.isBlocked, clock.advanceToNextEvent() {}
        return clock.now - start
    }

    private func field(on screen: String, purpose: FieldPurpose?) throws -> ScreenTextField {
        let fields = try panel(screen).content.fields
        guard let field = purpose.map({ wanted in fields.first { $0.purpose == wanted } }) ?? fields.first else {
            throw ScreenDriverError("'\(screen)' has no \(purpose.map { "'\($0)' " } ?? "")text field; it has "
                                    + "\(fields.map { "\($0.label) (\($0.purpose))" })")
        }
        return field
    }
}
