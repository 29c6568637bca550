/// Fills slots with features named up front, for trying a feature by hand (`remix run --slot
/// insertion=AutoGroupInsertion`) and for tests: each slot named in `fillers` with its feature, or
/// every slot with one feature and its parameters; a slot it names nothing for keeps its default.
/// Like an experiment, it counts the slots it was asked about and their first uses.
public final class FixedSlotChooser: SlotChooser {
    /// Slot name → feature name.
    public let fillers: [String: String]
    /// The feature for every slot not in `fillers`, if any.
    public let feature: String?
    /// The parameters of every feature it chooses.
    public let parameters: [String: ParameterValue]
    /// How many times a session asked it for a slot.
    public private(set) var asked = 0
    /// How many slots it filled were used (the exposure moment).
    public private(set) var firstUses = 0

    /// A chooser that fills each slot of `fillers` (slot → feature name).
    public init(fillers: [String: String]) {
        self.fillers = fillers
        feature = nil
        parameters = [:]
    }

    /// A chooser that fills every slot with `feature`, with `parameters`.
    public init(_ feature: String, parameters: [String: ParameterValue] = [:]) {
        fillers = [:]
        self.feature = feature
        self.parameters = parameters
    }

    public func choose(slot: SlotDefinition, app: AppDefinition) -> SlotAssignment? {
        asked += 1
        guard let chosen = fillers[slot.name] ?? feature else { return nil }
        return SlotAssignment(feature: chosen, parameters: parameters) { [weak self] in self?.firstUses += 1 }
    }
}
