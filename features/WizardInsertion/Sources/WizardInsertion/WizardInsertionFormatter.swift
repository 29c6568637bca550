import Classifieds
import Marketplace

/// Turns the draft and the group tree into the wizard's view data, one function a step.
public enum WizardInsertionFormatter {
    /// The title step for `draft`, showing `message` if any; the field is Marketplace's title field.
    public static func titleStep(draft: Draft, message: String? = nil) -> WizardTitleViewData {
        WizardTitleViewData(heading: "Step 1 of 3: Title", field: TitleStepFormatter.prepare(title: draft.title),
                            message: message)
    }

    /// One level of the group step: `groups` (children of the group titled `parentTitle`, or the
    /// roots) with the draft's group selected, showing `message` if any.
    public static func groupStep(groups: [Group], parentTitle: String?, draft: Draft, message: String? = nil)
        -> WizardGroupViewData {
        WizardGroupViewData(
            heading: "Step 2 of 3: Group", parentTitle: parentTitle,
            rows: groups.map {
                .init(groupID: $0.groupID, title: $0.title, hasChildren: !$0.children.isEmpty,
                      isSelected: $0.groupID == draft.groupID)
            },
            message: message)
    }

    /// The review step for `draft`, whose group is reached by `groupPath` (titles, root first),
    /// showing `message` if any.
    public static func reviewStep(draft: Draft, groupPath: [String], message: String? = nil) -> WizardReviewViewData {
        WizardReviewViewData(heading: "Step 3 of 3: Review", titleLine: "Title: " + (draft.title ?? ""),
                             groupLine: "Group: " + groupPath.joined(separator: " › "), message: message)
    }
}
