import Classifieds
import RemixKit

/// The role of GroupBrowser's `navigation` slot: a way for a person to find a leaf group.
public enum GroupFinderRole {
    /// The role's name, as features and slots declare it.
    public static let name = "groupFinder"
}

/// A feature that fills GroupBrowser's `navigation` slot: it runs on the browser's navigation
/// stack and reports the leaf group the person chose.
public protocol GroupFinderFeature: Feature {
    /// A fresh coordinator that pushes its screens on `navigation`.
    func makeCoordinator(navigation: any NavigationWireframe) -> any GroupFinderCoordinator
}

/// The coordinator of a ``GroupFinderFeature``. It reports a chosen leaf with `didSelect(groupID:)`
/// and "start over" with `didSelect(groupID: nil)`.
public protocol GroupFinderCoordinator: AnyObject {
    /// Receives the chosen group.
    var delegate: (any GroupSelectionCoordinatorDelegate)? { get set }
    /// Pushes the first screen.
    func start()
}

extension GroupSelectionCoordinator: GroupFinderCoordinator {}

/// Finding a group by drilling down the group tree: GroupSelection as GroupBrowser always had it
/// (the `navigation` slot's default).
public final class TreeGroupFinderFeature: GroupFinderFeature {
    private let groupSelection: GroupSelectionFeature

    /// Makes the feature over a group selection.
    public init(groupSelection: GroupSelectionFeature) {
        self.groupSelection = groupSelection
    }

    public func makeCoordinator(navigation: any NavigationWireframe) -> any GroupFinderCoordinator {
        groupSelection.makeCoordinator(navigation: navigation)
    }
}
