/// Something that can be shown and can present other things modally: a single view, a navigation
/// stack or a split view.
public protocol Viewable: AnyObject {
    /// Shows `viewable` modally over everything; it stays until this viewable dismisses it.
    func present(_ viewable: any Viewable)
    /// Shows `viewable` modally and dismisses it by itself after `duration` on the session clock.
    func present(_ viewable: any Viewable, for duration: Duration)
    /// Dismisses whatever this viewable presented.
    func dismiss()
}

/// A navigation stack with pop checkpoints.
public protocol NavigationWireframe: Viewable {
    /// Pushes `view` on top of the stack.
    func push(_ view: any View)
    /// Records the current top view as a checkpoint; does nothing on an empty stack.
    func setPopCheckpoint()
    /// Drops the most recent checkpoint.
    func unsetPopCheckpoint()
    /// Pops back to the most recent checkpoint and drops it; pops to the root when there is none.
    func popToLastCheckpoint()
    /// Puts a button on the current top view (e.g. "Cancel" on a modal flow's first screen).
    func setLeftButton(title: String, action: @escaping () -> Void)
    /// The view on top of the stack.
    var topView: (any View)? { get }
}

/// A master/detail container.
public protocol SplitWireframe: Viewable {
    /// The master pane.
    var master: (any Viewable)? { get set }
    /// The detail pane; setting it replaces the previous detail.
    var detail: (any Viewable)? { get set }
}

/// Makes the containers a feature needs: fresh navigation stacks, split views, modal wrappers for
/// single views and toasts.
public protocol WireframeFactory: AnyObject {
    /// A new, empty navigation stack.
    func makeNavigation() -> any NavigationWireframe
    /// A new, empty split view.
    func makeSplit() -> any SplitWireframe
    /// Wraps one view so it can be presented or placed in a split pane.
    func makeViewable(_ view: any View) -> any Viewable
    /// A transient message, presented like any viewable (usually for a duration).
    func makeToast(message: String) -> any Viewable
    /// A transient message shown while the app works (a spinner): its screen is busy.
    func makeLoadingToast(message: String) -> any Viewable
}

extension WireframeFactory {
    /// Factories that do not tell loading from other toasts make a plain toast.
    public func makeLoadingToast(message: String) -> any Viewable { makeToast(message: message) }
}
