import RemixKit

/// A composite insertion feature that hands out its sub-flows in turn — Manual, Auto, Manual, … —
/// counting every started attempt, cancelled ones included. The seed's A/B mechanism.
public final class AlternatingInsertionFeature: FlowFeature {
    private let subfeatures: [any FlowFeature]
    private var index = 0

    /// Makes the feature over `subfeatures` (at least one), starting with the first.
    public init(subfeatures: [any FlowFeature]) {
        self.subfeatures = subfeatures
    }

    public func makeCoordinator(navigation: any NavigationWireframe) -> any FlowCoordinator {
        let coordinator = subfeatures[index].makeCoordinator(navigation: navigation)
        index = (index + 1) % subfeatures.count
        return coordinator
    }
}
