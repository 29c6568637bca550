import RemixHost
import RemixKit
import RemixSimulation

/// What the fit needs to know of an app's screens, learned by tapping through the app itself (every
/// platform, every feature that can fill each slot) rather than from any name written in code: the
/// first screen, which of its actions leads to which screen (how an intent begins), which screens
/// block input (a user waits there, without thinking or giving up), which screens take text, and
/// what the rows users choose stand for.
struct AppSurvey {
    /// The app's first screen on each platform.
    var home: [String: String] = [:]
    /// The screen (name without context) each action on the first screen shows, by that screen.
    var startActions: [String: Population.StartAction] = [:]
    /// Whether the first screen itself takes the intent's input (fields, or rows that complete a
    /// choice): then intents begin there without a start action, as Calculator's entry does.
    var homeServesIntents = false
    /// Screens seen blocking input (loading and error toasts).
    var blockingScreens: Set<String> = []
    /// Screens with text fields, with the purposes of their fields in screen order.
    var textScreens: [String: [String]] = [:]
    /// What each choosable row stands for (row id → value), e.g. a group's id → its title.
    var rowValues: [String: String] = [:]
    /// Screens with rows that lead further or complete a choice (where users choose).
    var choiceScreens: Set<String> = []
    /// Domain events that leaving a flow logs (pressing a `cancel` or `back` button), e.g.
    /// `insertion_cancelled`: never what an intent comes for.
    var leavingEvents: Set<String> = []

    /// The text typed into empty fields on the way.
    static let exampleText = "Example 1"
    /// How many taps deep, and how many states at most, each exploration goes.
    static let depth = 6
    static let stateLimit = 300

    /// Surveys `app`: each platform, with each slot filled in turn by every registered feature of its role.
    static func survey(app: AppDefinition, registry: FeatureRegistry) throws -> AppSurvey {
        var survey = AppSurvey()
        var assignments: [[String: String]] = [[:]]
        for slot in app.slots {
            for feature in registry.features where feature.role == slot.role && feature.name != slot.defaultFeature {
                assignments.append([slot.name: feature.name])
            }
        }
        for platform in app.platforms {
            for fillers in assignments {
                let recorder = EventRecorder()
                let make = { try AppSession(app: app.name, platform: platform, registry: registry, events: recorder,
                                            chooser: FixedSlotChooser(fillers: fillers)) }
                try survey.explore(platform: platform, events: recorder, make)
            }
        }
        return survey
    }

    private mutating func explore(platform: String, events: EventRecorder, _ make: () throws -> AppSession) throws {
        let first = try make()
        first.start()
        settle(first)
        guard let home = first.window.frontPanel?.content else { return }
        self.home[platform] = home.name
        homeServesIntents = homeServesIntents || !home.fields.isEmpty || home.items.contains { $0.kind != .item }
        try surveyStartActions(home, make)
        var seen: Set<String> = []
        var frontier: [[UserInput]] = [[]]
        for _ in 0...Self.depth where !frontier.isEmpty && seen.count < Self.stateLimit {
            var next: [[UserInput]] = []
            for path in frontier where seen.count < Self.stateLimit {
                let session = try make()
                session.start()
                settle(session)
                guard replay(path, in: session), seen.insert(session.window.state.description).inserted else { continue }
                for panel in session.window.panels { note(panel.content) }
                guard let panel = session.window.frontPanel else { continue }
                let fill = panel.content.fields.filter(\.value.isEmpty).map { UserInput.edit(fieldID: $0.id, text: Self.exampleText) }
                for item in panel.content.items { next.append(path + [.select(itemID: item.id)]) }
                for button in panel.content.buttons { next.append(path + fill + [.press(buttonID: button.id)]) }
                try noteLeavingEvents(path, panel.content, events: events, make)
            }
            frontier = next
        }
    }

    /// The events that pressing the screen's `cancel` and `back` buttons logs.
    private mutating func noteLeavingEvents(_ path: [UserInput], _ content: ScreenContent, events: EventRecorder,
                                            _ make: () throws -> AppSession) throws {
        for button in content.buttons where button.role == .cancel || button.role == .back {
            let session = try make()
            session.start()
            settle(session)
            guard replay(path, in: session) else { continue }
            let before = events.events.count
            guard let panel = session.window.frontPanel, (try? session.window.send(.press(buttonID: button.id), to: panel)) != nil
            else { continue }
            leavingEvents.formUnion(events.events[before...].map(\.name))
        }
    }

    /// Which screen each action of the first screen shows first.
    private mutating func surveyStartActions(_ home: ScreenContent, _ make: () throws -> AppSession) throws {
        var actions: [(UserInput, Population.StartAction)] = home.buttons.map { button in
            (.press(buttonID: button.id), .press(button.role == .other ? .id(button.id) : .role(button.role)))
        }
        for kind in [ItemKind.item, .drillDown, .choice] {
            if let row = home.items.first(where: { $0.kind == kind }) { actions.append((.select(itemID: row.id), .select(kind))) }
        }
        for (input, action) in actions {
            let session = try make()
            var shown: String?
            session.start()
            settle(session)
            session.window.addTransitionObserver { transition in
                if shown == nil, let screen = transition.screen { shown = screen.name }
            }
            guard let panel = session.window.frontPanel, (try? session.window.send(input, to: panel)) != nil else { continue }
            if let shown, startActions[shown] == nil { startActions[shown] = action }
        }
    }

    /// Sends `inputs` to the front panel one by one, waiting out blocked screens; false when one cannot be taken.
    private mutating func replay(_ inputs: [UserInput], in session: AppSession) -> Bool {
        for input in inputs {
            guard let panel = session.window.frontPanel, (try? session.window.send(input, to: panel)) != nil else { return false }
            settle(session)
        }
        return true
    }

    /// Notes the screens that block input, then lets virtual time run until input is taken again.
    private mutating func settle(_ session: AppSession) {
        while session.window.isBlocked {
            if let front = session.window.frontPanel { blockingScreens.insert(front.content.name) }
            guard session.clock.advanceToNextEvent() else { break }
        }
    }

    private mutating func note(_ content: ScreenContent) {
        if !content.fields.isEmpty { textScreens[content.name] = content.fields.map(\.purpose.rawValue) }
        for item in content.items where item.kind != .item {
            choiceScreens.insert(content.name)
            if let value = item.value { rowValues[item.id] = value }
        }
    }
}
