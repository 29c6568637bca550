@testable import RemixKit
import RemixKitTesting
import Testing

/// Registering modules, looking features and apps up by name, checking slot fillers.
@Suite struct FeatureRegistryTests {
    @Test func registersModulesFeaturesAndAppsInOrder() throws {
        let registry = FeatureRegistry()
        try registry.register(TestModule("One", features: [testFeature("A"), testFeature("B")], apps: [testApp("first")]))
        try registry.register(TestModule("Two", features: [testFeature("C")]), origin: "/plugins/libTwo.so")
        #expect(registry.modules.map(\.name) == ["One", "Two"])
        #expect(registry.modules.map(\.summary) == ["a module made in a test", "a module made in a test"])
        #expect(registry.modules.map(\.origin) == ["built-in", "/plugins/libTwo.so"])
        #expect(registry.features.map(\.name) == ["A", "B", "C"])
        #expect(registry.features.map(\.module) == ["One", "One", "Two"])
        #expect(registry.apps.map(\.name) == ["first"])
        #expect(try registry.app(named: "first").module == "One")
        #expect(try registry.feature(named: "C").module == "Two")
    }

    @Test func duplicateFeatureAcrossModulesIsRejectedAndNothingOfTheModuleIsAdded() throws {
        let registry = FeatureRegistry()
        try registry.register(TestModule("One", features: [testFeature("A"), testFeature("B")]))
        let second = TestModule("Two", features: [testFeature("C"), testFeature("A")], apps: [testApp("second")])
        #expect(throws: RegistryError.duplicateFeature(name: "A", existingModule: "One", newModule: "Two")) {
            try registry.register(second)
        }
        #expect(registry.modules.map(\.name) == ["One"])
        #expect(registry.features.map(\.name) == ["A", "B"])
        #expect(try registry.feature(named: "A").module == "One")
        #expect(registry.apps.isEmpty)
        #expect(throws: RegistryError.self) { try registry.feature(named: "C") }
    }

    @Test func duplicateFeatureWithinOneModuleIsRejectedAndNothingIsAdded() throws {
        let registry = FeatureRegistry()
        let module = TestModule("One", features: [testFeature("A"), testFeature("B"), testFeature("A")],
                                apps: [testApp("first")])
        #expect(throws: RegistryError.duplicateFeature(name: "A", existingModule: "One", newModule: "One")) {
            try registry.register(module)
        }
        #expect(registry.modules.isEmpty)
        #expect(registry.features.isEmpty)
        #expect(registry.apps.isEmpty)
    }

    @Test func duplicateFeatureMessageNamesBothModules() {
        let error = RegistryError.duplicateFeature(name: "A", existingModule: "One", newModule: "Two")
        #expect(error.description == "feature 'A' from module 'Two' is already registered by module 'One'; rename one of them")
    }

    @Test func duplicateAppAndDuplicateModuleAreRejected() throws {
        let registry = FeatureRegistry()
        try registry.register(TestModule("One", apps: [testApp("shop")]))
        #expect(throws: RegistryError.duplicateApp(name: "shop", existingModule: "One", newModule: "Two")) {
            try registry.register(TestModule("Two", features: [testFeature("X")], apps: [testApp("shop")]))
        }
        #expect(throws: RegistryError.duplicateModule(name: "One")) {
            try registry.register(TestModule("One", features: [testFeature("Y")]))
        }
        #expect(registry.features.isEmpty)
        #expect(registry.modules.map(\.name) == ["One"])
    }

    @Test func unknownFeatureListsKnownNamesAndSuggestsTheNearest() throws {
        let registry = try insertionRegistry()
        let error = #expect(throws: RegistryError.self) { try registry.feature(named: "ManualGroupInsert") }
        #expect(error == .unknownFeature(name: "ManualGroupInsert", known: registry.features.map(\.name)))
        #expect(error?.description == "unknown feature 'ManualGroupInsert'; a plugin may provide it: load one with --plugins PATH "
            + "or REMIX_PLUGIN_PATH=PATH (`remix features` lists what is loaded); did you mean 'ManualGroupInsertion'? "
            + "(known features: AlternatingInsertion, AutoGroupInsertion, GroupFilter, ManualGroupInsertion, Plain)")
    }

    /// A feature asked to fill a slot and not registered may be a plugin's that is not loaded: the
    /// message says how to load one, and names only features that can fill the slot.
    @Test func anUnknownFillerSaysAPluginMayProvideItAndListsOnlyTheSlotsFillers() throws {
        let registry = try insertionRegistry()
        let slot = try #require(try registry.app(named: "shop").slot(named: "insertion"))
        let error = #expect(throws: UnknownFillerError.self) { try registry.filler(named: "QuickInsertion", for: slot, of: "shop") }
        #expect(error == UnknownFillerError(feature: "QuickInsertion", app: "shop", slot: "insertion",
                                            fillers: ["ManualGroupInsertion", "AutoGroupInsertion", "AlternatingInsertion"]))
        #expect(error?.description == "unknown feature 'QuickInsertion'; a plugin may provide it: load one with --plugins PATH "
            + "or REMIX_PLUGIN_PATH=PATH (`remix features` lists what is loaded); did you mean 'AutoGroupInsertion'? "
            + "(known shop/insertion features: AlternatingInsertion, AutoGroupInsertion, ManualGroupInsertion)")
        #expect(try registry.filler(named: "AutoGroupInsertion", for: slot, of: "shop").name == "AutoGroupInsertion")
        // Sessions throw the RegistryError features may catch, with the same fillers.
        #expect(throws: RegistryError.unknownFeature(name: "QuickInsertion",
                                                     known: ["ManualGroupInsertion", "AutoGroupInsertion", "AlternatingInsertion"])) {
            try registry.feature(named: "QuickInsertion", filling: slot)
        }
        #expect(throws: RegistryError.wrongRole(feature: "GroupFilter", role: "filter", slot: "insertion", expected: "insertion")) {
            try registry.filler(named: "GroupFilter", for: slot, of: "shop")
        }
    }

    @Test func suggestionIgnoresCase() throws {
        let registry = try insertionRegistry()
        let error = #expect(throws: RegistryError.self) { try registry.feature(named: "manualgroupinsertion") }
        #expect(error?.description.contains("did you mean 'ManualGroupInsertion'?") == true)
    }

    @Test func unknownFeatureFarFromEveryNameGetsNoSuggestion() throws {
        let registry = try insertionRegistry()
        let error = #expect(throws: RegistryError.self) { try registry.feature(named: "Zebra") }
        #expect(error?.description == "unknown feature 'Zebra'" + RegistryError.pluginHint
            + "; known features: AlternatingInsertion, AutoGroupInsertion, GroupFilter, ManualGroupInsertion, Plain")
    }

    @Test func unknownAppSuggestsTheNearest() throws {
        let registry = try insertionRegistry()
        let error = #expect(throws: RegistryError.self) { try registry.app(named: "shp") }
        #expect(error == .unknownApp(name: "shp", known: ["shop"]))
        #expect(error?.description == "unknown app 'shp'; did you mean 'shop'? (known apps: shop)")
    }

    @Test func unknownNameInAnEmptyRegistrySaysThereAreNone() {
        let error = #expect(throws: RegistryError.self) { try FeatureRegistry().app(named: "shop") }
        #expect(error?.description == "unknown app 'shop'; there are no apps")
    }

    @Test func checkAcceptsAFeatureOfTheSlotsRole() throws {
        let registry = try insertionRegistry()
        try registry.check(feature: "AutoGroupInsertion", fills: "insertion", of: "shop")
    }

    @Test func checkRejectsAFeatureOfAnotherRole() throws {
        let registry = try insertionRegistry()
        let error = #expect(throws: RegistryError.self) {
            try registry.check(feature: "GroupFilter", fills: "insertion", of: "shop")
        }
        #expect(error == .wrongRole(feature: "GroupFilter", role: "filter", slot: "insertion", expected: "insertion"))
        #expect(error?.description
            == "feature 'GroupFilter' (role 'filter') cannot fill slot 'insertion', which takes 'insertion' features")
        #expect(throws: RegistryError.wrongRole(feature: "Plain", role: nil, slot: "insertion", expected: "insertion")) {
            try registry.check(feature: "Plain", fills: "insertion", of: "shop")
        }
    }

    @Test func checkRejectsUnknownSlotsFeaturesAndApps() throws {
        let registry = try insertionRegistry()
        #expect(throws: RegistryError.unknownSlot(app: "shop", slot: "insertoin", known: ["insertion"])) {
            try registry.check(feature: "AutoGroupInsertion", fills: "insertoin", of: "shop")
        }
        #expect(throws: RegistryError.self) { try registry.check(feature: "Nope", fills: "insertion", of: "shop") }
        #expect(throws: RegistryError.unknownApp(name: "mall", known: ["shop"])) {
            try registry.check(feature: "AutoGroupInsertion", fills: "insertion", of: "mall")
        }
    }

    @Test func problemsIsEmptyWhenEverySlotDefaultFits() throws {
        #expect(try insertionRegistry().problems().isEmpty)
    }

    @Test func problemsReportsAnUnknownSlotDefault() throws {
        let registry = try insertionRegistry(slotDefault: "ManualInsertion")
        let problems = registry.problems()
        #expect(problems.count == 1)
        #expect(problems.first?.description.hasPrefix("unknown feature 'ManualInsertion'") == true)
    }

    @Test func problemsReportsASlotDefaultOfTheWrongRole() throws {
        let registry = try insertionRegistry(slotDefault: "GroupFilter")
        #expect(registry.problems()
            == [.wrongRole(feature: "GroupFilter", role: "filter", slot: "insertion", expected: "insertion")])
    }
}
