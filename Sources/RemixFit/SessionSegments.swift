import Foundation
import RemixLogReader

/// A session cut into what the fit learns from: the intents the user began, each with the screens
/// they stepped on, and the thinking time spent on the first screen between intents.
struct SessionSegments {
    /// A stay on one screen within an attempt.
    struct Visit {
        /// The screen's name without its context.
        var screen: String
        /// The screen with its context, e.g. `groups(Bicycles)`.
        var fullName: String
        var enter: Int64
        /// When another screen came to the front (or the session ended).
        var exit: Int64
        /// The transition that ended the visit: `push`, `back`, … (`end` when the session ended).
        var exitKind: String
        /// How the visit began (the transition that showed it).
        var enterKind: String
        /// The user's steps on the screen: one per action, more when the same screen took several.
        var steps: Int
        /// Whether the visit came back to a screen after a blocking one showed an error (its first step follows an error).
        var afterError = false
    }

    /// One intent the user began.
    struct Attempt {
        /// How it began: the screen its first action showed (nil when the first screen itself serves intents).
        var key: String?
        var start: Int64
        var end: Int64
        var visits: [Visit] = []
        /// The domain events logged during the attempt (indices into the session's events).
        var events: [Int] = []
        /// How it ended: back on the first screen (with the transition that got there), shown
        /// beside it without leaving it (a split's detail), or with the session.
        var ending: Ending = .session

        enum Ending: Equatable {
            case home(transition: String)
            case beside
            case session
        }
    }

    var home: String
    var attempts: [Attempt] = []
    /// Time on the first screen before each intent began and before the session ended: one think each.
    var homeDwells: [Int64] = []
    /// Whether the session ended without the user doing anything (no intent drawn).
    var isEmpty: Bool { attempts.isEmpty }
}

extension SessionSegments {
    static let forward: Set<String> = ["push", "present", "show"]
    static let backward: Set<String> = ["back", "pop", "dismiss"]

    /// The front screen a navigation state shows (with its context): the top modal layer, its first
    /// pane, the top of that pane's stack.
    static func front(ofStack stack: String) -> String {
        let bytes = stack.utf8.span
        let pane = frontPane(bytes)
        let start = separator(bytes, descent, in: pane, last: true).map { $0 + 3 } ?? pane.lowerBound
        let front = bytes.extracting(start..<pane.upperBound).string
        guard let first = front.unicodeScalars.first, let last = front.unicodeScalars.last,
              CharacterSet.whitespaces.contains(first) || CharacterSet.whitespaces.contains(last) else { return front }
        return front.trimmingCharacters(in: .whitespaces)
    }

    /// The bytes of the front pane: after the last ` ^ ` (the top modal layer), before the first
    /// ` | ` (a split view's primary pane).
    private static func frontPane(_ bytes: Span<UInt8>) -> Range<Int> {
        let start = separator(bytes, modal, in: 0..<bytes.count, last: true).map { $0 + 3 } ?? 0
        let end = separator(bytes, split, in: start..<bytes.count, last: false) ?? bytes.count
        return start..<end
    }

    /// Where the three-byte `separator` starts within `range` outside parentheses (a screen's
    /// context may hold any separator, as `Route` reads it): the first such place, or the last.
    private static func separator(_ bytes: Span<UInt8>, _ mark: [UInt8], in range: Range<Int>,
                                  last: Bool) -> Int? {
        var index = range.lowerBound, depth = 0, found: Int?
        while index < range.upperBound {
            switch bytes[index] {
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"): depth = max(depth - 1, 0)
            case mark[0] where depth == 0 && index + 3 <= range.upperBound && bytes[index + 1] == mark[1] && bytes[index + 2] == mark[2]:
                guard last else { return index }
                found = index
                index += 3
                continue
            default: break
            }
            index += 1
        }
        return found
    }

    /// The separators of a stack's text: a screen pushed on another, a modal layer, a split pane.
    private static let descent = Array(" > ".utf8), modal = Array(" ^ ".utf8), split = Array(" | ".utf8)

    /// A screen's name without its context: `groups(Bicycles)` → `groups`.
    static func baseName(_ screen: String) -> String {
        screen.firstIndex(of: "(").map { String(screen[..<$0]) } ?? screen
    }

    /// The contexts along the front pane of a stack, e.g. `[Bicycles, Off road bikes]`.
    static func contexts(ofStack stack: String) -> [String] {
        let bytes = stack.utf8.span
        let pane = frontPane(bytes)
        var contexts: [String] = []
        var start = pane.lowerBound
        while start <= pane.upperBound {
            let end = separator(bytes, descent, in: start..<pane.upperBound, last: false) ?? pane.upperBound
            // `name(context)`: the text between the first '(' and the closing ')'.
            if end > start, bytes[end - 1] == UInt8(ascii: ")"),
               let open = bytes.extracting(start..<(end - 1)).firstIndex(of: UInt8(ascii: "(")).map({ start + $0 }) {
                contexts.append(bytes.extracting((open + 1)..<(end - 1)).string)
            }
            start = end + 3
        }
        return contexts
    }
}
