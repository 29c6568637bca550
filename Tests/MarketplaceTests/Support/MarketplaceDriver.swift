import Classifieds
import Marketplace
import RemixHost
import RemixKit

/// A helper call that could not find what it was asked to act on; the message says what is shown.
struct DriverError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Fills every slot with one feature (with parameters) and counts first uses, like an experiment would.
final class FixedChooser: SlotChooser {
    let feature: String
    let parameters: [String: ParameterValue]
    private(set) var firstUses = 0
    private(set) var asked = 0

    init(_ feature: String, parameters: [String: ParameterValue] = [:]) {
        self.feature = feature
        self.parameters = parameters
    }

    func choose(slot: SlotDefinition, app: AppDefinition) -> SlotAssignment? {
        asked += 1
        return SlotAssignment(feature: feature, parameters: parameters) { [weak self] in self?.firstUses += 1 }
    }
}

/// The registered names of the insertion flows.
enum InsertionFlow {
    static let manual = "ManualGroupInsertion"
    static let auto = "AutoGroupInsertion"
    static let alternating = "AlternatingInsertion"
}

/// Drives a Marketplace session the way a person would: through the window's panels, by screen
/// name and by the titles of rows and buttons. Observes navigation state, list rows and events.
final class MarketplaceDriver {
    let session: AppSession
    let events = EventRecorder()
    let chooser: (any SlotChooser)?

    /// A started session on `platform`; `flow` fixes the insertion slot (nil: the slot's default).
    convenience init(platform: String = "phone", flow: String? = nil,
                     parameters: [String: ParameterValue] = [:], start: Bool = true) throws {
        try self.init(platform: platform, chooser: flow.map { FixedChooser($0, parameters: parameters) }, start: start)
    }

    init(platform: String, chooser: (any SlotChooser)?, start: Bool = true) throws {
        self.chooser = chooser
        session = try AppSession(app: "marketplace", platform: platform, registry: BuiltInModules.registry(),
                                 events: events, chooser: chooser)
        if start { session.start() }
    }

    var window: Window { session.window }
    var clock: VirtualClock { session.clock }
    /// The navigation state, e.g. `adverts > groups > groups(Bicycles) > title`.
    var state: String { window.state.description }

    /// The session's advert service (to inspect published adverts or make publishing fail).
    var advertService: InMemoryAdvertService {
        get throws { try session.environment.services.resolve(InMemoryAdvertService.self) }
    }

    /// The session's group service.
    var groupService: InMemoryGroupService {
        get throws {
            guard let service = try session.environment.services.resolve((any GroupService).self)
                as? InMemoryGroupService else { throw DriverError("the group service is not in memory") }
            return service
        }
    }

    // MARK: Looking

    /// The visible panel showing the screen called `name`.
    func panel(_ name: String) throws -> Panel {
        guard let panel = window.panels.first(where: { $0.content.name == name }) else {
            throw DriverError("no '\(name)' screen is visible; the state is '\(state)'")
        }
        return panel
    }

    /// The rows of the advert list as `title | group`.
    func advertRows() throws -> [String] {
        try panel("adverts").content.items.map { "\($0.title) | \($0.detail)" }
    }

    /// The titles of the rows on the visible screen called `screen`.
    func rowTitles(on screen: String) throws -> [String] {
        try panel(screen).content.items.map(\.title)
    }

    /// The button titles of the visible screen called `screen`.
    func buttonTitles(on screen: String) throws -> [String] {
        try panel(screen).content.buttons.map(\.title)
    }

    /// The text in the first text field of `screen`.
    func text(on screen: String = "title") throws -> String {
        guard let field = try panel(screen).content.fields.first else {
            throw DriverError("the '\(screen)' screen has no text field")
        }
        return field.value
    }

    /// The recorded events of that name, in order.
    func events(named name: String) -> [DomainEvent] { events.events.filter { $0.name == name } }

    // MARK: Acting

    /// Selects the row titled `title` on `screen`.
    func select(_ title: String, on screen: String) throws {
        let panel = try panel(screen)
        guard let item = panel.content.items.first(where: { $0.title == title }) else {
            throw DriverError("'\(screen)' has no row '\(title)'; it shows \(panel.content.items.map(\.title))")
        }
        try window.send(.select(itemID: item.id), to: panel)
    }

    /// Presses the button titled `title` on `screen`.
    func press(_ title: String, on screen: String) throws {
        let panel = try panel(screen)
        guard let button = panel.content.buttons.first(where: { $0.title == title }) else {
            throw DriverError("'\(screen)' has no button '\(title)'; it has \(panel.content.buttons.map(\.title))")
        }
        try window.send(.press(buttonID: button.id), to: panel)
    }

    /// Replaces the text of the first text field on `screen`.
    func type(_ text: String, on screen: String = "title") throws {
        let panel = try panel(screen)
        guard let field = panel.content.fields.first else { throw DriverError("'\(screen)' has no text field") }
        try window.send(.edit(fieldID: field.id, text: text), to: panel)
    }

    /// Presses the navigation back button.
    func back() throws { try window.goBack() }

    /// Selects each group title in turn on the group lists (drilling down to a leaf).
    func chooseGroups(_ path: String...) throws {
        for title in path { try select(title, on: "groups") }
    }

    // MARK: Whole steps

    /// Presses "New advert" on the list.
    func startInsertion() throws { try press("New advert", on: "adverts") }

    /// Presses "Filters" on the list.
    func openFilters() throws { try press("Filters", on: "adverts") }

    /// On the title step: types `title` and presses Next.
    func enterTitle(_ title: String) throws {
        try type(title)
        try press("Next", on: "title")
    }

    /// Manual insertion from the list: the group path, then the title.
    func publishManually(in path: String..., title: String) throws {
        try startInsertion()
        for group in path { try select(group, on: "groups") }
        try enterTitle(title)
    }

    /// Auto insertion from the list: the title, then virtual time until the toast has gone.
    func publishAutomatically(_ title: String) throws {
        try startInsertion()
        try enterTitle(title)
        session.waitWhileBlocked()
    }
}
