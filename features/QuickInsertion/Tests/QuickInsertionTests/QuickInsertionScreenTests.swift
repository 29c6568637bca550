import Classifieds
import Marketplace
import QuickInsertion
import RemixKit
import RemixKitTesting
import Testing

/// The example plugin tested as a plugin author would, with the testing kit (RemixKitTesting):
/// register the app's modules and the plugin, fill the insertion slot with it, drive the screens.
@Suite struct QuickInsertionScreenTests {
    static func driver() throws -> ScreenDriver {
        let registry = FeatureRegistry()
        for module: any FeatureModule in [ClassifiedsModule(), MarketplaceModule(), QuickInsertionPlugin()] {
            try registry.register(module)
        }
        return try ScreenDriver(app: "marketplace", registry: registry, chooser: FixedSlotChooser("QuickInsertion"))
    }

    @Test func aTitleAndALeafGroupPublishOnOneScreen() throws {
        let driver = try Self.driver()
        try driver.press(role: .primary, on: "adverts")
        #expect(driver.state == "adverts > quick")
        try driver.type("Carbon road racer", on: "quick", purpose: "title")
        let leaf = try #require(try driver.rowTitles(on: "quick").first)
        try driver.select(leaf, on: "quick")
        try driver.press(role: .submit, on: "quick")
        driver.waitWhileBlocked()
        #expect(driver.events(named: "advert_published").count == 1)
        #expect(driver.screenNames.last == "adverts")
    }

    @Test func publishingWithoutAGroupSaysSoAndStays() throws {
        let driver = try Self.driver()
        try driver.press(role: .primary, on: "adverts")
        try driver.type("Lonely lamp", on: "quick", purpose: "title")
        try driver.press(role: .submit, on: "quick")
        #expect(driver.events(named: "advert_published").isEmpty)
        #expect(driver.state == "adverts > quick")
        #expect(throws: ScreenDriverError.self) { try driver.press(role: .destructive, on: "quick") }
    }
}
