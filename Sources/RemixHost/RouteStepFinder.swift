import RemixKit

/// The default reading of a screen for routes: a row that stands for the next screen's context
/// (its value or title) and leads further or completes a choice; else a button whose id or title is
/// the next screen's name; else the screen's one primary (or one submit) button. With
/// `declaredOnly`, only a view's own ``RouteOpening`` answer counts (the opener's detours).
package enum RouteStepFinder {
    /// Every input that may lead from `view` to `next`, the likeliest first (``RouteOpening/inputs(toOpen:)``);
    /// a screen read by its semantics offers one at most.
    package static func inputs(on view: any View, toOpen next: ScreenID, declaredOnly: Bool = false) -> [UserInput] {
        if let opening = view as? any RouteOpening { return opening.inputs(toOpen: next) }
        return semanticInput(on: view, toOpen: next, declaredOnly: declaredOnly).map { [$0] } ?? []
    }

    private static func semanticInput(on view: any View, toOpen next: ScreenID, declaredOnly: Bool) -> UserInput? {
        guard !declaredOnly else { return nil }
        let screen = view.screen
        if let context = next.context, !context.isEmpty {
            let rows = screen.items.filter { $0.value == context || $0.title == context }
            if let row = rows.first(where: { $0.kind != .item }) ?? rows.first { return .select(itemID: row.id) }
        }
        if let button = screen.buttons.first(where: { $0.id == next.name || $0.title == next.name }) {
            return .press(buttonID: button.id)
        }
        for role in [ButtonRole.primary, .submit] {
            let buttons = screen.buttons.filter { $0.role == role }
            if buttons.count == 1 { return .press(buttonID: buttons[0].id) }
        }
        return nil
    }
}
