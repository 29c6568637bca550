import RemixKit

/// Calculator: the smallest app with every Remix element, with two ways to enter the sum for its
/// `entry` slot.
public struct CalculatorModule: FeatureModule {
    public let name = "Calculator"
    public let summary = "Enter a sum (two fields or one expression), spell it out, tell whether it is prime"
    /// The name of Calculator's slot for how the sum is entered.
    public static let entrySlot = "entry"

    /// Makes the module.
    public init() {}

    public func register(into registrar: ModuleRegistrar) throws {
        registrar.add(FeatureDescriptor(
            name: "Calculator", summary: "Enter a sum through the entry slot; analyse it for primality",
            events: [DomainEventSpec("sum_analysed", fields: ["sum", "prime", "number", "expression"])]
        ) { context in
            CalculatorFeature(events: context.session.events, entry: try context.session.slot(Self.entrySlot))
        })
        registrar.add(FeatureDescriptor(
            name: "TwoFieldEntry", summary: "Enter the sum as two number fields, spelled out as they change",
            role: SumEntryRole.name
        ) { _ in
            TwoFieldEntryFeature()
        })
        registrar.add(FeatureDescriptor(
            name: "ExpressionEntry", summary: "Enter the sum as one \"a + b\" field; a mistyped one is explained",
            role: SumEntryRole.name, events: [DomainEventSpec("expression_rejected", fields: ["reason"])]
        ) { context in
            ExpressionEntryFeature(events: context.session.events)
        })
        registrar.add(AppDefinition(
            name: "calculator", summary: "Enter a sum and test it for primality",
            platforms: ["phone", "tablet"],
            slots: [SlotDefinition(name: Self.entrySlot, role: SumEntryRole.name, defaultFeature: "TwoFieldEntry",
                                   summary: "How the sum to analyse is entered")],
            defaultMetric: "sum_analysed"
        ) { session in
            try session.makeFeature(named: "Calculator", as: CalculatorFeature.self).makeCoordinator(window: session.window)
        })
    }
}
