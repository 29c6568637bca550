import RemixKit

/// The role of Calculator's `entry` slot: how a person enters the sum to analyse.
public enum SumEntryRole {
    /// The role's name, as features and slots declare it.
    public static let name = "sumEntry"
}

/// A feature that fills Calculator's `entry` slot: the screen where a sum is entered.
public protocol SumEntryFeature: Feature {
    /// A fresh coordinator for the entry screen.
    func makeCoordinator() -> any SumEntryCoordinator
}

/// The coordinator of a ``SumEntryFeature``: it owns the entry screen and reports each sum the
/// person asks to analyse.
public protocol SumEntryCoordinator: AnyObject {
    /// Receives the sums to analyse.
    var delegate: (any SumEntryCoordinatorDelegate)? { get set }
    /// The entry screen, for the app to show as its root.
    var view: any View { get }
    /// Readies the entry screen's first view data.
    func start()
}

/// Receives the sums a ``SumEntryCoordinator`` enters.
public protocol SumEntryCoordinatorDelegate: AnyObject {
    /// The person asked to analyse `sum`, having typed `typed`: each text field's purpose (`number`,
    /// `expression`) with its texts in screen order, as the event log records them.
    func didEnter(sum: Int, typed: [(purpose: String, texts: [String])])
}
