import RemixKit

/// Calculator: the smallest app with every Remix element.
public struct CalculatorModule: FeatureModule {
    public let name = "Calculator"
    public let summary = "Add two numbers, spell the sum out, tell whether it is prime"

    /// Makes the module.
    public init() {}

    public func register(into registrar: ModuleRegistrar) throws {
        registrar.add(FeatureDescriptor(
            name: "Calculator", summary: "Sum two whole numbers in words; analyse the sum for primality"
        ) { context in
            CalculatorFeature(events: context.session.events)
        })
        registrar.add(AppDefinition(
            name: "calculator", summary: "Add two numbers and test the sum for primality",
            platforms: ["phone", "tablet"]
        ) { session in
            try session.makeFeature(named: "Calculator", as: CalculatorFeature.self).makeCoordinator(window: session.window)
        })
    }
}
