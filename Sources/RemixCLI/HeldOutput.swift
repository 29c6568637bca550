/// Standard output that can be held back: while `remix run --open` opens its route, what the session
/// prints (its exposures and events) is kept, so that a route that cannot open prints nothing of the
/// session — only why it could not.
final class HeldOutput {
    private var held: String?

    /// Writes `text` to standard output, or keeps it while held.
    func write(_ text: String) {
        if held != nil {
            held? += text
        } else {
            writeOut(text)
        }
    }

    /// Keeps what is written from now on.
    func hold() {
        held = held ?? ""
    }

    /// Writes what was kept, and writes through again.
    func release() {
        guard let text = held else { return }
        held = nil
        if !text.isEmpty { writeOut(text) }
    }
}
