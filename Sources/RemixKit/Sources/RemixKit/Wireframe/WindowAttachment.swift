/// A container a window made, reaching its window through an `unowned` reference, not a weak one:
/// a weak reference gives the window a side table, and every count of the window then takes the
/// runtime's slow path. The containers share the window's ``WindowLife``, which the window marks
/// as it goes: so ``window`` is the live window or nil, as a weak reference would be, and the
/// unowned reference is read only while its window lives (`unowned` checks it: reading it later
/// would stop the program, never read freed memory).
class WindowAttachment {
    /// The window that made this container.
    private unowned let owner: Window
    /// Whether that window has gone.
    private let life: WindowLife

    /// The window that made this container; nil once the window is gone.
    final var window: Window? { life.isGone ? nil : owner }

    init(window: Window) {
        owner = window
        life = window.life
    }
}

/// Whether a window has gone, shared by the window and the containers it made.
final class WindowLife {
    var isGone = false
}
