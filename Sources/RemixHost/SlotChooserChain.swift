import RemixKit

/// Asks several slot choosers in turn; the first with an answer fills the slot.
package final class SlotChooserChain: SlotChooser {
    private let choosers: [any SlotChooser]

    /// Makes a chain, first asked first.
    package init(_ choosers: [any SlotChooser]) {
        self.choosers = choosers
    }

    package func choose(slot: SlotDefinition, app: AppDefinition) -> SlotAssignment? {
        for chooser in choosers {
            if let assignment = chooser.choose(slot: slot, app: app) { return assignment }
        }
        return nil
    }
}
