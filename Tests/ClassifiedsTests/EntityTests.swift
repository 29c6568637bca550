import Classifieds
import Testing

/// Test-data builders, as in the seed's Helpers.swift.
func makeAdvert(advertID: AdvertID, title: String = "dummy title", description: String = "dummy description",
                groupID: GroupID = "0") -> Advert {
    Advert(advertID: advertID, title: title, description: description, groupID: groupID)
}

func makeGroup(groupID: GroupID, parent: GroupID? = nil, children: [GroupID] = [], title: String = "dummy title",
               description: String = "dummy description") -> Group {
    Group(groupID: groupID, parent: parent, children: children, title: title, description: description)
}

/// Advert equality covers all four fields (seed AdvertTests).
@Suite struct AdvertTests {
    @Test func identicalAdvertsAreEqual() {
        #expect(makeAdvert(advertID: "1") == makeAdvert(advertID: "1"))
    }

    @Test func advertsWithDifferentIDsDiffer() {
        #expect(makeAdvert(advertID: "1") != makeAdvert(advertID: "2"))
    }

    @Test func advertsWithDifferentTitlesDiffer() {
        #expect(makeAdvert(advertID: "1", title: "a") != makeAdvert(advertID: "1", title: "b"))
    }

    @Test func advertsWithDifferentDescriptionsDiffer() {
        #expect(makeAdvert(advertID: "1", description: "a") != makeAdvert(advertID: "1", description: "b"))
    }

    @Test func advertsInDifferentGroupsDiffer() {
        #expect(makeAdvert(advertID: "1", groupID: "a") != makeAdvert(advertID: "1", groupID: "b"))
    }
}

/// Group equality covers all five fields, children in order (seed GroupTests).
@Suite struct GroupTests {
    @Test func identicalGroupsAreEqual() {
        #expect(makeGroup(groupID: "1", parent: "0", children: ["2", "3"])
            == makeGroup(groupID: "1", parent: "0", children: ["2", "3"]))
    }

    @Test func groupsWithDifferentIDsDiffer() {
        #expect(makeGroup(groupID: "1") != makeGroup(groupID: "2"))
    }

    @Test func groupsWithDifferentParentsDiffer() {
        #expect(makeGroup(groupID: "1", parent: "a") != makeGroup(groupID: "1", parent: "b"))
        #expect(makeGroup(groupID: "1", parent: "a") != makeGroup(groupID: "1", parent: nil))
    }

    @Test func groupsWithDifferentChildrenDiffer() {
        #expect(makeGroup(groupID: "1", children: ["a"]) != makeGroup(groupID: "1", children: ["b"]))
        #expect(makeGroup(groupID: "1", children: ["a", "b"]) != makeGroup(groupID: "1", children: ["b", "a"]))
    }

    @Test func groupsWithDifferentTitlesDiffer() {
        #expect(makeGroup(groupID: "1", title: "a") != makeGroup(groupID: "1", title: "b"))
    }

    @Test func groupsWithDifferentDescriptionsDiffer() {
        #expect(makeGroup(groupID: "1", description: "a") != makeGroup(groupID: "1", description: "b"))
    }
}

/// A draft starts empty.
@Suite struct DraftTests {
    @Test func newDraftHasNoTitleAndNoGroup() {
        let draft = Draft()
        #expect(draft.title == nil)
        #expect(draft.groupID == nil)
    }
}
