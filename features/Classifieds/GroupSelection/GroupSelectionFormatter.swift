import RemixKit

/// Turns a level of groups into group-list view data.
public enum GroupSelectionFormatter {
    /// The view data for `groups`, headed "Select group", for a screen named `screenName`.
    public static func prepare(groups: [Group], parentTitle: String? = nil,
                               screenName: String = GroupSelectionViewData.defaultScreenName) -> GroupSelectionViewData {
        GroupSelectionViewData(
            screenName: screenName, title: "Select group", parentTitle: parentTitle,
            items: groups.map { .init(groupID: $0.groupID, title: $0.title, hasChildren: !$0.children.isEmpty) })
    }
}
