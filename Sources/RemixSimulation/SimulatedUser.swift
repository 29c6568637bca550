import RemixHost
import RemixKit

/// Plays one person through one session of any app: reads only what the screens show and mean
/// (``Window/panels`` with their semantics — button roles, field purposes, row kinds and values)
/// and acts with the inputs a person has, toward the intents a persona drew, with the persona's
/// chances and timings on the virtual clock. It knows no app, screen or field by name: the
/// population file supplies every name it matches.
final class SimulatedUser {
    private enum Mode { case pursuing, leaving, done }

    private let session: AppSession
    /// The session's window, read at every step (the session's is a property of its environment).
    private let window: Window
    private let sharedPersona: SharedPersona
    private var persona: Population.Persona { sharedPersona.value }
    /// The population's effects on this persona (nil when there are none).
    private let effects: ActiveEffects?
    private let sharedPopulation: SharedPopulation
    private let log: SessionLog
    private var random: SeededGenerator
    private var mode = Mode.pursuing
    private var plan: [Int] = []
    private var attempt: Attempt?
    private var home = ""
    private var lastScreen = ""
    private(set) var results: [IntentResult] = []
    /// The names of the screens the user saw in front, in order of first sight.
    private(set) var screensSeen: [String] = []
    private(set) var steps = 0

    /// The most steps a session takes before it ends as exhausted.
    static let maximumSteps = 200
    /// The most errors one attempt retries before the user gives up.
    static let maximumErrors = 5
    private static let strayLetters = Array("qwertyuiopasdfghjklzxcvbnm")

    /// Makes the user of one session; its plan, results and screens go into the lists taken from
    /// `lists` (empty), which ``takeLists(into:)`` hands back for the next session.
    init(session: AppSession, persona: SharedPersona, population: SharedPopulation, log: SessionLog, random: SeededGenerator,
         lists: inout SessionLists) {
        swap(&plan, &lists.plan)
        swap(&results, &lists.results)
        swap(&screensSeen, &lists.screensSeen)
        self.session = session
        window = session.window
        sharedPersona = persona
        effects = population.value.effects.isEmpty ? nil
            : ActiveEffects(population.value.effects, persona: persona.value.name)
        sharedPopulation = population
        self.log = log
        self.random = random
    }

    /// The factors of the population's effects for the features this session was exposed to.
    private func effectFactors(screen: String) -> (abandon: Double, typos: Double, retry: Double) {
        guard let effects, !log.exposedFeatures.isEmpty else { return (1, 1, 1) }
        return effects.factors(log.exposedFeatures, screen: screen)
    }

    /// Runs the session to its end; the screen it ended on is ``lastScreen``.
    func run(arrivedFrom start: String? = nil, maxSteps: Int = SimulatedUser.maximumSteps) -> String {
        // A session that arrived through a route was started there; its home is still the app's
        // first screen (`start`), which the user returns to between intents.
        if start == nil { session.start() }
        let front = window.frontPanel?.content.name ?? ""
        home = start ?? front
        lastScreen = front
        // Sized for the few screens a session sees, so that appending does not regrow it.
        screensSeen.reserveCapacity(8)
        screensSeen.append(home)
        if front != home { screensSeen.append(front) }
        plan.reserveCapacity(persona.intents.count)
        for entry in persona.intents where chance(entry.chance) { plan.append(entry.intent) }
        // An intent ends with one result at most, so that appending does not regrow it.
        results.reserveCapacity(plan.count)
        beginNextIntent()
        // A link that led into a flow started the first intent there, as a tap on the first
        // screen would have.
        if start != nil, front != home { attempt?.started = true }
        while mode != .done {
            steps += 1
            if steps > maxSteps {
                finish(.exhausted)
                break
            }
            if window.isBlocked {
                session.waitWhileBlocked()
                continue
            }
            session.clock.advance(by: .milliseconds(persona.think.sampleMilliseconds(&random)))
            guard let panels = window.unblockedPanels else { continue }
            guard let front = panels.first else {
                finish(.stuck)
                break
            }
            if front.content.name != lastScreen {
                lastScreen = front.content.name
                if !screensSeen.contains(lastScreen) { screensSeen.append(lastScreen) }
            }
            if mode == .leaving { leave(panels) } else { pursue(panels) }
        }
        return lastScreen
    }

    /// Hands this user's lists to `lists` for the next session (``SessionLists/empty()`` empties
    /// them).
    func takeLists(into lists: inout SessionLists) {
        swap(&plan, &lists.plan)
        swap(&results, &lists.results)
        swap(&screensSeen, &lists.screensSeen)
    }

    // MARK: Intents

    private func beginNextIntent() {
        guard !plan.isEmpty else {
            attempt = nil
            mode = .done
            return
        }
        let intent = sharedPopulation.intents[plan.removeFirst()]
        let choices = intent.value.values
        let values = choices.isEmpty ? Population.IntentValues(texts: [:], path: [], weight: 1)
            : choices[intent.valueDraw.pick(&random)]
        attempt = Attempt(intent: intent, values: values)
        log.watch(intent.value.success?.value)
    }

    private func record(_ outcome: IntentOutcome) {
        guard let attempt else { return }
        results.append(IntentResult(intent: attempt.intent.name, outcome: outcome, screen: lastScreen))
    }

    /// Ends the current intent with `outcome` and the session with it.
    private func finish(_ outcome: IntentOutcome) {
        record(outcome)
        attempt = nil
        mode = .done
    }

    /// Ends the current intent with `outcome` and leaves whatever flow is on screen.
    private func giveUp(_ outcome: IntentOutcome, _ panels: [Panel]) {
        record(outcome)
        attempt = nil
        mode = .leaving
        leave(panels)
    }

    private func pursue(_ panels: [Panel]) {
        while let current = attempt {
            let front = panels[0].content
            if log.sawWatchedEvent {
                check(front)
                record(.achieved)
                beginNextIntent()
                continue
            }
            if current.started, front.name == home, current.intent.start != nil {
                guard current.intent.success != nil else {
                    record(.achieved)
                    beginNextIntent()
                    continue
                }
            }
            return current.started ? act(panels) : begin(panels)
        }
    }

    /// Begins the current intent: its start action on the first screen, or nothing when the
    /// first screen already serves it.
    private func begin(_ panels: [Panel]) {
        guard let start = attempt?.intent.start else {
            attempt?.started = true
            return act(panels)
        }
        switch start {
        case .press(let target):
            for panel in panels {
                if let button = panel.content.buttons.first(where: target.matches) {
                    attempt?.started = true
                    send(.press(buttonID: button.id), to: panel)
                    return
                }
            }
        case .select(let kind):
            for panel in panels {
                // The rows of that kind, drawn among without collecting them in an array.
                let items = panel.content.items
                var count = items.count
                if let kind {
                    // By position: `reduce` hands over each row copied.
                    count = 0
                    for index in items.indices where items[index].kind == kind { count += 1 }
                }
                if count > 0 {
                    attempt?.started = true
                    let row = Self.nth(Int(random.next() % UInt64(count)), of: items) { kind == nil || $0.kind == kind }
                    send(.select(itemID: items[row].id), to: panel)
                    return
                }
            }
        }
        if panels[0].content.name != home, goBack(panels) { return }
        finish(.stuck)
    }

    /// One step toward the started intent on the front screen: give up by chance, retry or give
    /// up after an error, fill fields, pick a row, press forward — or go back from a dead end.
    private func act(_ panels: [Panel]) {
        guard let current = attempt else { return }
        let front = panels[0]
        let factors = effectFactors(screen: front.content.name)
        let abandon = min(1, sharedPersona.abandonChance(on: front.content.name) * factors.abandon)
        if chance(abandon) { return giveUp(.abandoned, panels) }
        if current.intent.start != nil, front.content.name == home {
            // Back where it began without the success event: the flow ended without it.
            current.errorPending = true
            current.errors += 1
            current.started = false
        }
        if current.errorPending {
            guard current.errors <= Self.maximumErrors, chance(min(1, persona.retryAfterError * factors.retry)) else {
                return giveUp(.error, panels)
            }
            current.errorPending = false
            if !current.started { return begin(panels) }
        }
        var content = front.content
        let typed = fill(content, in: front)
        guard mode == .pursuing else { return }
        if typed {
            guard let refreshed = window.frontPanel, refreshed.view === front.view else { return }
            content = refreshed.content
        }
        var selected = false
        if let rowID = pickRow(content, current) {
            guard send(.select(itemID: rowID), to: front) else { return }
            guard let refreshed = window.frontPanel, refreshed.view === front.view, !log.sawWatchedEvent else { return }
            content = refreshed.content
            selected = true
        }
        if let button = forwardButton(content) {
            guard send(.press(buttonID: button.id), to: front) else { return }
            session.waitWhileBlocked()
            if !log.sawWatchedEvent, window.frontPanel?.view === front.view {
                attempt?.errorPending = true
                attempt?.errors += 1
            }
            return
        }
        // Typing or picking changed the screen: look again on the next step. Otherwise it is a
        // dead end for this intent: back out, or stop here.
        if typed || selected { return }
        if !goBack(panels) { finish(.stuck) }
    }

    /// Types the intent's texts into fields of matching purpose that do not show them yet;
    /// whether anything was typed.
    private func fill(_ content: ScreenContent, in panel: Panel) -> Bool {
        guard let values = attempt?.values, !values.texts.isEmpty else { return false }
        var typed = false
        let fields = content.fields
        for position in fields.indices {
            let field = fields[position]
            guard let texts = values.texts[field.purpose.rawValue] else { continue }
            // Which field of its purpose this is, in screen order, counted without a table per step.
            let index = fields[..<position].reduce(0) { $1.purpose == field.purpose ? $0 + 1 : $0 }
            guard index < texts.count, field.value != texts[index] else { continue }
            var text = texts[index]
            session.clock.advance(by: .milliseconds(persona.typingPerCharacter.sampleMilliseconds(&random) * Int64(text.count)))
            if chance(min(1, persona.typos * effectFactors(screen: panel.content.name).typos)) { text = slip(text) }
            guard send(.edit(fieldID: field.id, text: text), to: panel) else { return false }
            typed = true
        }
        return typed
    }

    /// `text` with one stray letter typed somewhere in it.
    private func slip(_ text: String) -> String {
        var characters = Array(text)
        let letter = Self.strayLetters[Int(random.next() % UInt64(Self.strayLetters.count))]
        characters.insert(letter, at: Int(random.next() % UInt64(characters.count + 1)))
        return String(characters)
    }

    /// The id of the row that advances the intent: the one whose value is the furthest step of
    /// the path (unless already selected); else, among rows that drill down or complete a choice,
    /// one by chance (`choose: any`) or the one closest to the path's goal when none is selected
    /// yet. Rows are read in place by position: a row copied out (an optional one above all)
    /// counts a reference for each of its strings.
    private func pickRow(_ content: ScreenContent, _ current: Attempt) -> String? {
        let path = current.values.path
        let items = content.items
        var best = -1
        var bestStep = 0
        if !path.isEmpty {
            for index in items.indices {
                guard let value = items[index].value, let step = path.lastIndex(of: value), step >= bestStep else { continue }
                best = index
                bestStep = step
            }
        }
        if best >= 0 { return items[best].isSelected ? nil : items[best].id }
        // The rows that drill down or complete a choice, counted and drawn among in place.
        var choices = 0
        for index in items.indices where items[index].kind != .item {
            if items[index].isSelected { return nil }
            choices += 1
        }
        guard choices > 0 else { return nil }
        if current.intent.chooseAny {
            return items[Self.nth(Int(random.next() % UInt64(choices)), of: items) { $0.kind != .item }].id
        }
        guard let goal = path.last,
              let nearest = NameSuggestion.nearest(to: goal, among: items.compactMap { $0.kind != .item ? $0.value : nil })
        else { return nil }
        return items.first { $0.kind != .item && $0.value == nearest }?.id
    }

    /// The index of the row at `position` (from 0) among the rows of `items` that pass
    /// `isIncluded`; the caller has counted them, so it exists.
    private static func nth(_ position: Int, of items: [ScreenItem], where isIncluded: (ScreenItem) -> Bool) -> Int {
        var remaining = position
        for index in items.indices where isIncluded(items[index]) {
            if remaining == 0 { return index }
            remaining -= 1
        }
        return items.count - 1
    }

    /// The button that moves the complete screen forward: the persona's preferences, then submit,
    /// then primary.
    private func forwardButton(_ content: ScreenContent) -> ScreenButton? {
        for target in persona.prefer {
            if let button = content.buttons.first(where: target.matches) { return button }
        }
        return content.buttons.first { $0.role == .submit } ?? content.buttons.first { $0.role == .primary }
    }

    /// After success: the row titled with one text should show another in its detail.
    private func check(_ content: ScreenContent) {
        guard let current = attempt, let check = current.intent.check,
              let title = current.values.texts[check.row]?.first else { return }
        let expected = check.detail == "path" ? current.values.path.last : current.values.texts[check.detail]?.first
        guard let expected, let row = content.items.last(where: { $0.title == title }), row.detail != expected else { return }
        log.write(check.event.value, [EventField("shownIn", .string(row.detail)), EventField("intended", .string(expected))])
    }

    // MARK: Leaving

    /// Leaves whatever flow is on screen — back, or a cancel button — until the first screen shows.
    private func leave(_ panels: [Panel]) {
        if panels.first?.content.name == home || !goBack(panels) { mode = .done }
    }

    /// Goes back one screen, or presses a cancel button; false when the screen offers neither.
    private func goBack(_ panels: [Panel]) -> Bool {
        if window.canGoBack {
            try? window.goBack()
            return true
        }
        for panel in panels {
            if let button = panel.content.buttons.first(where: { $0.role == .cancel || $0.role == .back }) {
                send(.press(buttonID: button.id), to: panel)
                return true
            }
        }
        return false
    }

    // MARK: Helpers

    private func chance(_ probability: Double) -> Bool {
        probability > 0 && Double(random.next() >> 11) * 0x1.0p-53 < probability
    }

    /// Sends `input`; a refused input leaves the user stuck (false).
    @discardableResult
    private func send(_ input: UserInput, to panel: Panel) -> Bool {
        do {
            try window.send(input, to: panel)
            return true
        } catch {
            finish(.stuck)
            return false
        }
    }
}
