import RemixKit
import RemixKitTesting

/// A view that records what reaches it: inputs for its buttons and back-button pops.
final class TestView: View {
    let name: String
    let context: String?
    var buttons: [ScreenButton]
    var blocksInput = false
    private(set) var received: [UserInput] = []
    private(set) var backCount = 0

    init(_ name: String, context: String? = nil, buttons: [String] = []) {
        self.name = name
        self.context = context
        self.buttons = buttons.map { ScreenButton(id: $0, title: $0.uppercased()) }
    }

    var screen: ScreenContent {
        ScreenContent(name: name, context: context, title: name, buttons: buttons, blocksInput: blocksInput)
    }

    func receive(_ input: UserInput) throws {
        guard case .press(let id) = input, buttons.contains(where: { $0.id == id }) else {
            throw UserInputError(screen: name, input: input)
        }
        received.append(input)
    }

    func navigationDidGoBack() {
        backCount += 1
    }
}

/// A window with a navigation stack as its root, holding views named by `names`.
func makeStackWindow(_ names: String..., clock: VirtualClock = VirtualClock()) -> (Window, any NavigationWireframe, [TestView]) {
    let window = Window(clock: clock)
    let navigation = window.makeNavigation()
    window.setRoot(navigation)
    let views = names.map { TestView($0) }
    for view in views { navigation.push(view) }
    return (window, navigation, views)
}

/// A feature that remembers the name and parameters it was made with.
final class TestFeature: Feature {
    let name: String
    let parameters: FeatureParameters

    init(name: String, parameters: FeatureParameters) {
        self.name = name
        self.parameters = parameters
    }
}

/// A flow feature whose conformance is declared apart from the class.
final class TestFlowFeature: Feature {
    let name: String

    init(name: String) {
        self.name = name
    }
}

extension TestFlowFeature: FlowFeature {
    func makeCoordinator(navigation: any NavigationWireframe) -> any FlowCoordinator {
        TestFlowCoordinator()
    }
}

/// A flow coordinator that does nothing.
final class TestFlowCoordinator: FlowCoordinator {
    weak var delegate: (any FlowCoordinatorDelegate)?

    func start() {}
}

/// A feature descriptor making a ``TestFeature``.
func testFeature(_ name: String, role: String? = nil, parameters: [ParameterSpec] = []) -> FeatureDescriptor {
    FeatureDescriptor(name: name, summary: "test feature \(name)", role: role, parameters: parameters) { context in
        TestFeature(name: context.feature, parameters: context.parameters)
    }
}

/// An app with one `insertion` slot.
func testApp(_ name: String, slotDefault: String = "ManualGroupInsertion", platforms: [String] = ["phone", "tablet"]) -> AppDefinition {
    AppDefinition(
        name: name, summary: "test app \(name)", platforms: platforms,
        slots: [SlotDefinition(name: "insertion", role: "insertion", defaultFeature: slotDefault,
                               summary: "makes adverts")]
    ) { _ in EmptyRoot() }
}


/// A registry with the three insertion features (role `insertion`), a filter feature, `extraFeatures`
/// and the `shop` app.
func insertionRegistry(slotDefault: String = "ManualGroupInsertion", extraFeatures: [FeatureDescriptor] = []) throws -> FeatureRegistry {
    let registry = FeatureRegistry()
    try registry.register(TestModule(
        "Shop",
        features: [
            testFeature("ManualGroupInsertion", role: "insertion"),
            testFeature("AutoGroupInsertion", role: "insertion",
                        parameters: [ParameterSpec("delay", default: .double(2), summary: "seconds")]),
            testFeature("AlternatingInsertion", role: "insertion"),
            testFeature("GroupFilter", role: "filter"),
            testFeature("Plain"),
        ] + extraFeatures,
        apps: [testApp("shop", slotDefault: slotDefault)]))
    return registry
}
