import RemixHost
import RemixKit

/// How a simulated session ended.
public enum SessionOutcome: String, Sendable, CaseIterable {
    /// The user published the advert they meant to.
    case published
    /// The user started an insertion and gave up.
    case abandoned
    /// The user looked around and left without inserting.
    case browsed
    /// The user gave up after a failed publish.
    case failed
    /// The session hit the step limit.
    case exhausted
}

/// The events simulated users write themselves, beside the features' and the host's.
public enum SimulatedUserEvents {
    /// `advert_misfiled`: a published advert shows up in another group than the one meant.
    public static let observed = [DomainEventSpec("advert_misfiled", fields: ["shownIn", "intended"])]
}

/// Plays one person: looks only at what the screens show (`Window.panels`) and acts through the
/// same inputs a person has, following a persona's chances and timings on the virtual clock.
final class SimulatedUser {
    private enum Goal { case start, filtering, inserting, leaving, done }

    private let session: AppSession
    private let persona: Population.Persona
    private let advert: Population.IntendedAdvert
    private let log: SessionLog
    private var random: SeededGenerator
    private var goal = Goal.start
    private var browsed = false
    private var filtered = false
    private var attempts = 0
    private var published = false
    private var publishFailed = false
    private var formGroupChosen = false
    private var formSubmits = 0
    private var outcome = SessionOutcome.browsed
    private(set) var steps = 0

    init(session: AppSession, persona: Population.Persona, advert: Population.IntendedAdvert,
         log: SessionLog, random: SeededGenerator) {
        self.session = session
        self.persona = persona
        self.advert = advert
        self.log = log
        self.random = random
    }

    /// The most steps a session takes before it ends as exhausted.
    static let maximumSteps = 200

    /// Runs the session to its end.
    func run(maxSteps: Int = SimulatedUser.maximumSteps) -> SessionOutcome {
        session.start()
        while goal != .done {
            steps += 1
            if steps > maxSteps { return .exhausted }
            let window = session.window
            if window.isBlocked {
                session.waitWhileBlocked()
                continue
            }
            session.clock.advance(by: .milliseconds(persona.think.sampleMilliseconds(&random)))
            if window.isBlocked { continue }
            act(on: window.panels)
        }
        return outcome
    }

    private func chance(_ probability: Double) -> Bool {
        probability > 0 && Double(random.next() >> 11) * 0x1.0p-53 < probability
    }

    private func act(on panels: [Panel]) {
        guard let front = panels.first else { return end(.browsed) }
        if goal == .leaving { return leave(panels, endingWith: outcome) }
        // A form the persona has no chance for (a plugin's one-screen flow) is as off-putting
        // as the title step, where people also type.
        let abandon = persona.abandon[front.content.name] ?? (Self.isForm(front.content) ? persona.abandon["title"] : nil)
        if front.content.name != "adverts", chance(abandon ?? 0) {
            return leave(panels, endingWith: goal == .inserting ? .abandoned : .browsed)
        }
        switch front.content.name {
        case "adverts": onAdverts(panels)
        case "groups": onGroups(front)
        case "title": onTitle(front)
        case "item": back(panels)
        default:
            if goal == .inserting, Self.isForm(front.content) { onForm(front) } else { randomAction(panels) }
        }
    }

    private func onAdverts(_ panels: [Panel]) {
        let list = panels[0]
        if published {
            let mine = list.content.items.last { $0.title == advert.title }
            if let mine, mine.detail != advert.groupPath.last {
                log.write("advert_misfiled", [EventField("shownIn", .string(mine.detail)),
                                              EventField("intended", .string(advert.groupPath.last ?? ""))])
            }
            return end(.published)
        }
        if attempts > 0 { return end(publishFailed ? .failed : .abandoned) }
        if !browsed, chance(persona.browseFirst), !list.content.items.isEmpty {
            browsed = true
            let item = list.content.items[Int(random.next() % UInt64(list.content.items.count))]
            return send(.select(itemID: item.id), to: list)
        }
        if !filtered, chance(persona.filterFirst) {
            filtered = true
            goal = .filtering
            return send(.press(buttonID: "filters"), to: list)
        }
        if chance(persona.startInsertion) {
            attempts += 1
            goal = .inserting
            return send(.press(buttonID: "new"), to: list)
        }
        end(.browsed)
    }

    private func onGroups(_ panel: Panel) {
        let items = panel.content.items
        if goal == .filtering {
            guard !items.isEmpty else { return send(.press(buttonID: "reset"), to: panel) }
            let item = items[Int(random.next() % UInt64(items.count))]
            if !item.hasChildren { goal = .start }
            return send(.select(itemID: item.id), to: panel)
        }
        let depth = panel.content.context.flatMap { advert.groupPath.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
        if depth < advert.groupPath.count, let item = items.first(where: { $0.title == advert.groupPath[depth] }) {
            return send(.select(itemID: item.id), to: panel)
        }
        send(.press(buttonID: "reset"), to: panel)
    }

    private func onTitle(_ panel: Panel) {
        if publishFailed, attempts > 0 {
            guard chance(persona.retryAfterFailure) else { return leave([panel], endingWith: .failed) }
            publishFailed = false
        }
        if panel.content.fields.first?.value != advert.title {
            let typing = persona.typingPerCharacter.sampleMilliseconds(&random) * Int64(advert.title.count)
            session.clock.advance(by: .milliseconds(typing))
            send(.edit(fieldID: "text", text: advert.title), to: panel)
        }
        send(.press(buttonID: "next"), to: panel)
        session.waitWhileBlocked()
        // Still on the title step: the publish failed (Auto showed a toast; Manual shows nothing).
        if session.window.panels.first?.content.name == "title" {
            publishFailed = true
        } else if session.window.panels.first?.content.name == "adverts" {
            published = true
        }
    }

    /// A one-screen flow a plugin may bring (e.g. QuickInsertion): a text field, rows to pick
    /// from and a button to finish.
    static func isForm(_ content: ScreenContent) -> Bool {
        !content.fields.isEmpty && !content.items.isEmpty
            && content.buttons.contains { $0.id != Panel.leftButtonID }
    }

    /// Fills a one-screen form as a person would, in one go like the title step: types the title,
    /// picks the row of the group the advert belongs in (by title), presses the form's button; a
    /// failed submit is retried by the persona's chance.
    private func onForm(_ panel: Panel) {
        let content = panel.content
        if publishFailed {
            guard chance(persona.retryAfterFailure) else { return leave([panel], endingWith: .failed) }
            publishFailed = false
        }
        formSubmits += 1
        guard formSubmits <= 5,
              let button = content.buttons.first(where: { $0.id != Panel.leftButtonID }) else {
            return leave([panel], endingWith: .failed)
        }
        if let field = content.fields.first, field.value != advert.title {
            let typing = persona.typingPerCharacter.sampleMilliseconds(&random) * Int64(advert.title.count)
            session.clock.advance(by: .milliseconds(typing))
            send(.edit(fieldID: field.id, text: advert.title), to: panel)
        }
        if !formGroupChosen {
            formGroupChosen = true
            let wanted = advert.groupPath.last
            let row = content.items.first { $0.title == wanted } ?? content.items[Int(random.next() % UInt64(content.items.count))]
            session.clock.advance(by: .milliseconds(persona.think.sampleMilliseconds(&random)))
            send(.select(itemID: row.id), to: panel)
        }
        guard goal != .done, let current = session.window.panels.first, current.content.name == content.name else { return }
        send(.press(buttonID: button.id), to: current)
        session.waitWhileBlocked()
        if session.window.panels.first?.content.name == content.name {
            publishFailed = true
        } else if session.window.panels.first?.content.name == "adverts" {
            published = true
        }
    }

    /// Leaves whatever flow is on screen — back, or the modal's Cancel — until the list shows.
    private func leave(_ panels: [Panel], endingWith result: SessionOutcome) {
        outcome = result
        if panels.first?.content.name == "adverts" || panels.isEmpty { return end(result) }
        goal = .leaving
        back(panels)
    }

    private func back(_ panels: [Panel]) {
        let window = session.window
        if window.canGoBack {
            try? window.goBack()
        } else if let panel = panels.first(where: { $0.content.buttons.contains { $0.id == Panel.leftButtonID } }) {
            send(.press(buttonID: Panel.leftButtonID), to: panel)
        } else {
            end(outcome)
        }
    }

    /// For screens the persona has no plan for (other apps, plugins): a random control.
    private func randomAction(_ panels: [Panel]) {
        let panel = panels[Int(random.next() % UInt64(panels.count))]
        let content = panel.content
        let choices = content.items.count + content.buttons.count + content.fields.count
        guard choices > 0, !chance(0.1) else { return end(.browsed) }
        let pick = Int(random.next() % UInt64(choices))
        if pick < content.items.count { return send(.select(itemID: content.items[pick].id), to: panel) }
        if pick < content.items.count + content.buttons.count {
            return send(.press(buttonID: content.buttons[pick - content.items.count].id), to: panel)
        }
        let field = content.fields[pick - content.items.count - content.buttons.count]
        send(.edit(fieldID: field.id, text: String(random.next() % 100)), to: panel)
    }

    private func send(_ input: UserInput, to panel: Panel) {
        do {
            try session.window.send(input, to: panel)
        } catch {
            end(.exhausted)
        }
    }

    private func end(_ result: SessionOutcome) {
        outcome = result
        goal = .done
    }
}
