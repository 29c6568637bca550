/// A container a window made, reaching its window through an `unowned` reference, not a weak one:
/// a weak reference gives the window a side table, and every count of the window then takes the
/// runtime's slow path. The window keeps its live attachments in a list linked through them
/// (unowned too: nothing retained, nothing allocated) and, when it goes, clears their reference to
/// it; an attachment that goes first takes itself off the list. So ``window`` is the live window or
/// nil, as a weak reference would be, and no reference outlives its object (`unowned` checks it:
/// reading one that did would stop the program, never read freed memory).
class WindowAttachment {
    /// The window that made this container; nil once the window is gone.
    private(set) final unowned var window: Window?
    /// The neighbours in the window's list of live attachments.
    final unowned var previousAttachment: WindowAttachment?
    final unowned var nextAttachment: WindowAttachment?

    init(window: Window) {
        self.window = window
        window.attach(self)
    }

    deinit {
        window?.detach(self)
    }

    /// Called by the window as it goes.
    final func windowWillGo() {
        window = nil
        previousAttachment = nil
        nextAttachment = nil
    }
}
