import Foundation

/// A navigation state to open directly: the form the event log prints
/// (`adverts > groups > groups(Bicycles) > title`, a split as `master | detail`, a modal layer
/// after ` ^ `) or a URL (`remix://marketplace/adverts/groups/groups(Bicycles)/title`, with `|`
/// and `^` as path segments of their own and `%`-escapes where a name needs them). A step `*` is
/// whichever screen the step before leads to.
public struct Route: Equatable, Sendable, CustomStringConvertible {
    /// Each layer's panes (one, or a split's two), each pane's screens bottom first.
    public var layers: [[[ScreenID]]]
    /// The app a URL names; nil for the log's form.
    public var app: String?

    /// Reads a route in either form; a text that is neither throws ``RouteError/malformed(_:_:)``.
    public init(parsing text: String) throws(RouteError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.lowercased().hasPrefix("remix://") {
            var segments = trimmed.dropFirst("remix://".count).split(separator: "/", omittingEmptySubsequences: false)
                .map { String($0).removingPercentEncoding ?? String($0) }
            guard let first = segments.first, !first.isEmpty else { throw RouteError.malformed(text, "no app after remix://") }
            app = first
            segments.removeFirst()
            if segments.last == "" { segments.removeLast() }
            layers = try Self.layers(segments, text)
        } else {
            app = nil
            layers = try Self.layers(Self.segments(trimmed), text)
        }
    }

    /// The log form's screens and separators (`>` within a pane, `|` between panes, `^` between
    /// layers), split only outside parentheses so that a context may hold any of them.
    private static func segments(_ text: String) -> [String] {
        var segments: [String] = [], current = "", depth = 0
        func flush() {
            let piece = current.trimmingCharacters(in: .whitespaces)
            if !piece.isEmpty { segments.append(piece) }
            current = ""
        }
        for character in text {
            switch character {
            case "(":
                depth += 1
                current.append(character)
            case ")":
                depth = max(depth - 1, 0)
                current.append(character)
            case ">" where depth == 0, "|" where depth == 0, "^" where depth == 0:
                flush()
                if character != ">" { segments.append(String(character)) }
            default:
                current.append(character)
            }
        }
        flush()
        return segments
    }

    /// The route of a navigation state.
    public init(_ state: NavigationState, app: String? = nil) {
        self.app = app
        layers = state.layers.map { layer in
            switch layer {
            case .stack(let screens): [screens]
            case .split(let master, let detail): [master, detail]
            case .single(let screen): [[screen]]
            }
        }
    }

    private static func layers(_ segments: [String], _ text: String) throws(RouteError) -> [[[ScreenID]]] {
        var layers: [[[ScreenID]]] = [[[]]]
        for segment in segments {
            switch segment {
            case "^": layers.append([[]])
            case "|":
                guard layers[layers.count - 1].count == 1 else { throw .malformed(text, "a layer splits in two panes at most") }
                layers[layers.count - 1].append([])
            default:
                let screen = try screenID(segment, text)
                layers[layers.count - 1][layers[layers.count - 1].count - 1].append(screen)
            }
        }
        guard layers.allSatisfy({ $0.first?.isEmpty == false }) else { throw .malformed(text, "a layer has no screen") }
        return layers
    }

    private static func screenID(_ text: String, _ route: String) throws(RouteError) -> ScreenID {
        guard let open = text.firstIndex(of: "(") else {
            guard !text.contains(")") else { throw .malformed(route, "'\(text)' has ')' without '('") }
            return ScreenID(name: text)
        }
        guard text.hasSuffix(")"), open != text.startIndex else { throw .malformed(route, "'\(text)' is not name(context)") }
        return ScreenID(name: String(text[..<open]), context: String(text[text.index(after: open)..<text.index(before: text.endIndex)]))
    }

    /// The screen a route names `*`: whichever screen the step before leads to (the first screen
    /// of a slot's flow, whichever feature fills it).
    public static let anyScreen = "*"

    /// Whether `shown` is the screen a route's step `wanted` names (`*` is any screen).
    public static func matches(_ shown: ScreenID, _ wanted: ScreenID) -> Bool {
        wanted.name == anyScreen || shown == wanted
    }

    /// Every screen in display order: each layer's panes, bottom first.
    public var screens: [ScreenID] { layers.flatMap { $0.flatMap { $0 } } }

    /// The log's form (`adverts > groups(Bicycles) ^ title`).
    public var description: String {
        layers.map { panes in panes.map { $0.map(\.description).joined(separator: " > ") }.joined(separator: " | ") }
            .joined(separator: " ^ ")
    }

    /// The URL form for `app`.
    public func url(app: String) -> String {
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/|^"))
        func escape(_ text: String) -> String {
            (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text)
                .replacingOccurrences(of: "|", with: "%7C").replacingOccurrences(of: "^", with: "%5E")
        }
        var segments: [String] = []
        for (index, panes) in layers.enumerated() {
            if index > 0 { segments.append("%5E") }
            for (pane, screens) in panes.enumerated() {
                if pane > 0 { segments.append("%7C") }
                segments += screens.map { escape($0.description) }
            }
        }
        return "remix://\(escape(app))/" + segments.joined(separator: "/")
    }
}

/// Why a route cannot be read or opened.
public enum RouteError: Error, Equatable, CustomStringConvertible {
    case malformed(String, String)
    /// The route names another app than the one being run.
    case otherApp(route: String, app: String)
    /// The screen at `step` (1-based) could not be opened from the one before it.
    case cannotOpen(step: Int, screen: String, from: String, reason: String)
    /// Opening went somewhere the route does not: the app showed `shown` instead.
    case wentElsewhere(step: Int, screen: String, shown: String)

    public var description: String {
        switch self {
        case .malformed(let text, let why):
            "'\(text)' is not a route (\(why)); write a navigation state as the log prints it, e.g. "
                + "'adverts > groups(Bicycles) > title', or remix://APP/adverts/groups(Bicycles)/title"
        case .otherApp(let route, let app): "route \(route) is for app '\(app)'"
        case .cannotOpen(let step, let screen, let from, let reason):
            "cannot open step \(step) of the route, \(screen), from \(from): \(reason)"
        case .wentElsewhere(let step, let screen, let shown):
            "opening step \(step) of the route, \(screen), showed \(shown) instead"
        }
    }
}

/// A view that says which of its own inputs shows a given next screen of a route — what a user
/// would select or press to get there. Views that do not adopt it are read by their screen's
/// semantics (the host's route opener tries the row that stands for the next screen's context, then
/// a button named like it, then the screen's one primary or submit button); a view returns nil for
/// a screen it cannot lead to.
public protocol RouteOpening: View {
    /// The input that leads from this view to `next`, or nil.
    func input(toOpen next: ScreenID) -> UserInput?
    /// Every input that may lead to `next`, the likeliest first — where more than one way may show
    /// it (a slot that hands out its flows in turn). The opener tries the next one after backing
    /// out of a detour that led elsewhere. By default,
    /// ``input(toOpen:)`` alone.
    func inputs(toOpen next: ScreenID) -> [UserInput]
}

extension RouteOpening {
    public func inputs(toOpen next: ScreenID) -> [UserInput] {
        input(toOpen: next).map { [$0] } ?? []
    }
}
