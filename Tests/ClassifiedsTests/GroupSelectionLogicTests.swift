import Classifieds
import RemixKit
import Testing

/// The group list formatter (seed GroupSelectionFormatterTests).
@Suite struct GroupSelectionFormatterTests {
    @Test func formatsEachGroupInOrderUnderSelectGroup() {
        let groups = [
            makeGroup(groupID: "1", children: ["2"], title: "Cars"),
            makeGroup(groupID: "2", parent: "1", title: "Racing cars"),
            makeGroup(groupID: "3", title: "Bicycles"),
        ]
        let viewData = GroupSelectionFormatter.prepare(groups: groups)
        #expect(viewData.title == "Select group")
        #expect(viewData.parentTitle == nil)
        #expect(viewData.items == [
            .init(groupID: "1", title: "Cars", hasChildren: true),
            .init(groupID: "2", title: "Racing cars", hasChildren: false),
            .init(groupID: "3", title: "Bicycles", hasChildren: false),
        ])
    }

    @Test func keepsTheParentTitle() {
        let viewData = GroupSelectionFormatter.prepare(groups: [], parentTitle: "Cars")
        #expect(viewData.title == "Select group")
        #expect(viewData.parentTitle == "Cars")
        #expect(viewData.items.isEmpty)
    }
}

/// The group selection interactor (seed GroupSelectionInteractorTests).
@Suite struct GroupSelectionInteractorTests {
    private let service = InMemoryGroupService(groups: [
        makeGroup(groupID: "1", children: ["2"]),
        makeGroup(groupID: "2", parent: "1", title: "Child"),
        makeGroup(groupID: "3"),
    ])

    private func selectionType(of id: GroupID) -> AsyncResult<GroupSelectionType>? {
        var result: AsyncResult<GroupSelectionType>?
        GroupSelectionInteractor(groupService: service).findSelectionType(for: id) { result = $0 }
        return result
    }

    private func groups(under parent: GroupID?) -> [GroupID]? {
        var result: [GroupID]?
        GroupSelectionInteractor(groupService: service).fetchGroups(parentGroupID: parent) { outcome in
            if case .success(let groups) = outcome { result = groups.map(\.groupID) }
        }
        return result
    }

    @Test func unknownGroupIsAnError() {
        #expect(selectionType(of: "99") == .error)
    }

    @Test func groupWithoutChildrenIsALeaf() {
        #expect(selectionType(of: "3") == .success(.leaf))
        #expect(selectionType(of: "2") == .success(.leaf))
    }

    @Test func groupWithChildrenIsAParent() {
        #expect(selectionType(of: "1") == .success(.parent))
    }

    @Test func fetchingWithoutParentGivesTheRootsInServiceOrder() {
        #expect(groups(under: nil) == ["1", "3"])
    }

    @Test func fetchingWithAParentGivesItsChildren() {
        #expect(groups(under: "1") == ["2"])
        #expect(groups(under: "3") == [])
    }

    @Test func levelsUseTheParentFieldAndLeafnessTheChildrenField() {
        // The two fields are not cross-checked: a group listed under a parent only by its parent field.
        let service = InMemoryGroupService(groups: [makeGroup(groupID: "1"), makeGroup(groupID: "2", parent: "1")])
        let interactor = GroupSelectionInteractor(groupService: service)
        var level: [Group] = []
        interactor.fetchGroups(parentGroupID: "1") { if case .success(let groups) = $0 { level = groups } }
        var type: AsyncResult<GroupSelectionType>?
        interactor.findSelectionType(for: "1") { type = $0 }
        #expect(level.map(\.groupID) == ["2"])
        #expect(type == .success(.leaf))
    }

    @Test func titleOfAGroup() {
        let interactor = GroupSelectionInteractor(groupService: service)
        #expect(interactor.title(of: "2") == "Child")
        #expect(interactor.title(of: "99") == nil)
    }
}
