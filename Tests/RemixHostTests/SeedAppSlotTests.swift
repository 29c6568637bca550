import RemixBuiltIns
import RemixHost
import RemixKit
import Testing

/// Every seed app's slot: its role, default and fillers, and that showing the app's first screen is
/// the slot's first use (the exposure moment).
@Suite struct SeedAppSlotTests {
    @Test(arguments: [
        ("marketplace", "insertion", "insertion", ["AlternatingInsertion", "ManualGroupInsertion", "AutoGroupInsertion"]),
        ("groupbrowser", "navigation", "groupFinder", ["TreeGroupFinder", "SearchGroupFinder"]),
        ("calculator", "entry", "sumEntry", ["TwoFieldEntry", "ExpressionEntry"]),
    ])
    func slotHasItsRoleDefaultAndFillers(app: String, slot: String, role: String, fillers: [String]) throws {
        let registry = try BuiltInModules.registry()
        let definition = try #require(try registry.app(named: app).slot(named: slot))
        #expect(definition.role == role)
        #expect(definition.defaultFeature == fillers.first)
        #expect(registry.features.filter { $0.role == role }.map(\.name).sorted() == fillers.sorted())
        for filler in fillers { try registry.check(feature: filler, fills: slot, of: app) }
        #expect(throws: RegistryError.self) { try registry.check(feature: "GroupSelection", fills: slot, of: app) }
    }

    @Test(arguments: [("groupbrowser", "TreeGroupFinder", "groups"), ("groupbrowser", "SearchGroupFinder", "search"),
                      ("calculator", "TwoFieldEntry", "sum"), ("calculator", "ExpressionEntry", "expression")])
    func startingTheAppIsTheSlotsOnlyFirstUse(app: String, filler: String, screen: String) throws {
        let chooser = SlotUseCounter(feature: filler)
        let session = try AppSession(app: app, registry: BuiltInModules.registry(), chooser: chooser)
        #expect(chooser.uses == 0)
        session.start()
        #expect(chooser.uses == 1)
        #expect(session.window.state.description == screen)
        let panel = try #require(session.window.panels.last)
        if let row = panel.content.items.first {
            try session.window.send(.select(itemID: row.id), to: panel)
        } else {
            try session.window.send(.press(buttonID: "analyse"), to: panel)
        }
        #expect(chooser.uses == 1)
    }
}

/// Fills every slot with one feature and counts the slot's first uses.
private final class SlotUseCounter: SlotChooser {
    private let feature: String
    private(set) var uses = 0

    init(feature: String) {
        self.feature = feature
    }

    func choose(slot: SlotDefinition, app: AppDefinition) -> SlotAssignment? {
        SlotAssignment(feature: feature) { [weak self] in self?.uses += 1 }
    }
}
