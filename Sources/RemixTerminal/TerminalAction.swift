import RemixKit

/// One numbered choice offered on the terminal.
struct TerminalAction {
    /// What the user does.
    enum Kind {
        case input(UserInput, panel: Int)
        case edit(fieldID: String, label: String, panel: Int)
    }

    let label: String
    let kind: Kind

    /// The actions a person can take on `panels`, in display order.
    static func actions(for panels: [Panel]) -> [TerminalAction] {
        var actions: [TerminalAction] = []
        for (index, panel) in panels.enumerated() where !panel.content.blocksInput {
            let content = panel.content
            for item in content.items {
                let detail = item.detail.isEmpty ? "" : " (\(item.detail))"
                let more = item.kind == .drillDown ? " ›" : ""
                let chosen = item.isSelected ? " ✓" : ""
                actions.append(.init(label: "Select \"\(item.title)\"\(detail)\(more)\(chosen)",
                                     kind: .input(.select(itemID: item.id), panel: index)))
            }
            for field in content.fields {
                actions.append(.init(label: "Type \(field.label) (now \"\(field.value)\")",
                                     kind: .edit(fieldID: field.id, label: field.label, panel: index)))
            }
            for button in content.buttons {
                actions.append(.init(label: label(of: button), kind: .input(.press(buttonID: button.id), panel: index)))
            }
        }
        return actions
    }

    /// A button's label, with the way forward marked: `[Next]` for the primary or submit action.
    static func label(of button: ScreenButton) -> String {
        switch button.role {
        case .primary, .submit: "[\(button.title)]"
        case .cancel, .back, .destructive, .other: button.title
        }
    }
}

/// Renders the window's front layer as text.
enum ScreenRenderer {
    static func render(state: NavigationState, panels: [Panel]) -> String {
        var lines = ["", "── \(state) ──"]
        for panel in panels {
            let content = panel.content
            lines.append(content.isBusy ? "\(content.title) (busy)" : content.title)
            for paragraph in content.body where !paragraph.isEmpty {
                lines.append(contentsOf: paragraph.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { "  \($0)" })
            }
            for field in content.fields {
                lines.append("  \(field.label): \"\(field.value)\"")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
