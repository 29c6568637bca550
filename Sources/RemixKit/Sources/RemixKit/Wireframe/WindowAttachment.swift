/// A container a window made, reaching its window through an `unowned` reference, not a weak one:
/// a weak reference gives the window a side table, and every count of the window then takes the
/// runtime's slow path. The window keeps a list of its live attachments (``Window/Attachment``)
/// and, when it goes, marks them detached; an attachment that goes first takes itself off the
/// list. So ``window`` is the live window or nil, as a weak reference would be, and the unowned
/// reference is read only while its window lives (`unowned` checks it: reading it later would stop
/// the program, never read freed memory).
class WindowAttachment {
    /// The window that made this container.
    private unowned let owner: Window
    /// Whether the window has gone.
    private var isDetached = false

    /// The window that made this container; nil once the window is gone.
    final var window: Window? { isDetached ? nil : owner }

    init(window: Window) {
        owner = window
        window.attach(self)
    }

    deinit {
        window?.detach(self)
    }

    /// Called by the window as it goes.
    final func windowWillGo() {
        isDetached = true
    }
}
