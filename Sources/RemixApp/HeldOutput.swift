/// Output that can be held back: while `remix run --open` opens its route, what the session prints
/// (its exposures and events) is kept, so that a route that cannot open prints nothing of the
/// session — only why it could not.
final class HeldOutput {
    private let writeThrough: (String) -> Void
    private var held: String?

    /// Output that writes through `write` unless held.
    init(_ write: @escaping (String) -> Void) {
        writeThrough = write
    }

    /// Writes `text`, or keeps it while held.
    func write(_ text: String) {
        if held != nil {
            held? += text
        } else {
            writeThrough(text)
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
        if !text.isEmpty { writeThrough(text) }
    }
}
