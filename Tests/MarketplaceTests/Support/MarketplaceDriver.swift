import Classifieds
import Marketplace
import RemixBuiltIns
import RemixHost
import RemixKit
import RemixKitTesting

/// A step the driver could not take (the testing kit's error).
typealias DriverError = ScreenDriverError

/// The registered names of the insertion flows.
enum InsertionFlow {
    static let manual = "ManualGroupInsertion"
    static let auto = "AutoGroupInsertion"
    static let alternating = "AlternatingInsertion"
}

/// Drives a Marketplace session the way a person would, through the testing kit's `ScreenDriver`
/// (by screen name and by the titles of rows and buttons), with Marketplace's own steps on top.
final class MarketplaceDriver {
    let session: ScreenDriver
    let chooser: (any SlotChooser)?
    var events: EventRecorder { session.events }

    /// A started session on `platform`; `flow` fixes the insertion slot (nil: the slot's default).
    convenience init(platform: String = "phone", flow: String? = nil,
                     parameters: [String: ParameterValue] = [:], start: Bool = true) throws {
        try self.init(platform: platform, chooser: flow.map { FixedSlotChooser($0, parameters: parameters) }, start: start)
    }

    init(platform: String, chooser: (any SlotChooser)?, start: Bool = true) throws {
        self.chooser = chooser
        session = try ScreenDriver(app: "marketplace", platform: platform, registry: BuiltInModules.registry(),
                                   chooser: chooser, start: start)
    }

    var window: Window { session.window }
    var clock: VirtualClock { session.clock }
    /// The navigation state, e.g. `adverts > groups > groups(Bicycles) > title`.
    var state: String { session.state }

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
    func panel(_ name: String) throws -> Panel { try session.panel(name) }

    /// The rows of the advert list as `title | group`.
    func advertRows() throws -> [String] {
        try panel("adverts").content.items.map { "\($0.title) | \($0.detail)" }
    }

    /// The titles of the rows on the visible screen called `screen`.
    func rowTitles(on screen: String) throws -> [String] { try session.rowTitles(on: screen) }

    /// The button titles of the visible screen called `screen`.
    func buttonTitles(on screen: String) throws -> [String] { try session.buttonTitles(on: screen) }

    /// The text in the first text field of `screen`.
    func text(on screen: String = "title") throws -> String { try session.text(on: screen) }

    /// The recorded events of that name, in order.
    func events(named name: String) -> [DomainEvent] { events.events.filter { $0.name == name } }

    // MARK: Acting

    /// Selects the row titled `title` on `screen`.
    func select(_ title: String, on screen: String) throws { try session.select(title, on: screen) }

    /// Presses the button titled `title` on `screen`.
    func press(_ title: String, on screen: String) throws { try session.press(title, on: screen) }

    /// Replaces the text of the first text field on `screen`.
    func type(_ text: String, on screen: String = "title") throws { try session.type(text, on: screen) }

    /// Presses the navigation back button.
    func back() throws { try session.back() }

    /// Selects each group title in turn on the insertion's group lists (drilling down to a leaf).
    func chooseGroups(_ path: String...) throws {
        for title in path { try select(title, on: "groups") }
    }

    /// Selects each group title in turn on the filter picker's lists (drilling down to a leaf).
    func chooseFilter(_ path: String...) throws {
        for title in path { try select(title, on: MarketplaceScreens.filter) }
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
