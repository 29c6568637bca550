import Foundation

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
        let layer = stack.components(separatedBy: " ^ ").last ?? stack
        let pane = layer.components(separatedBy: " | ").first ?? layer
        return (pane.components(separatedBy: " > ").last ?? pane).trimmingCharacters(in: .whitespaces)
    }

    /// A screen's name without its context: `groups(Bicycles)` → `groups`.
    static func baseName(_ screen: String) -> String {
        screen.firstIndex(of: "(").map { String(screen[..<$0]) } ?? screen
    }

    /// The contexts along the front pane of a stack, e.g. `[Bicycles, Off road bikes]`.
    static func contexts(ofStack stack: String) -> [String] {
        let layer = stack.components(separatedBy: " ^ ").last ?? stack
        let pane = layer.components(separatedBy: " | ").first ?? layer
        return pane.components(separatedBy: " > ").compactMap { part in
            guard let open = part.firstIndex(of: "("), part.hasSuffix(")") else { return nil }
            return String(part[part.index(after: open)..<part.index(before: part.endIndex)])
        }
    }
}
