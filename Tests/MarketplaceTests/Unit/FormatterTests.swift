import Classifieds
import Marketplace
import RemixKit
import Testing

/// Formatters (seed §1.1, §5.2): pure functions from entities to view data.
@Suite("Formatters")
struct FormatterTests {
    /// A listing as the interactor makes it (AdvertListing has no public initializer).
    func listing(adverts: [Advert], groups: [Group]) throws -> AdvertListing {
        let interactor = AdvertListInteractor(advertService: Services(groups: groups, adverts: adverts).adverts,
                                              groupService: InMemoryGroupService(groups: groups))
        var result: AsyncResult<AdvertListing>?
        interactor.fetchAdverts { result = $0 }
        guard case .success(let listing) = try #require(result) else { throw DriverError("listing failed") }
        return listing
    }

    @Test func advertListFormatterNamesEachAdvertsGroup() throws {
        let listing = try listing(
            adverts: [
                Advert(advertID: "1", title: "First", description: "", groupID: "5"),
                Advert(advertID: "2", title: "Second", description: "", groupID: "9"),
                Advert(advertID: "3", title: "Third", description: "", groupID: "9"),
            ],
            groups: [Group(groupID: "5", title: "Pets"), Group(groupID: "9", title: "Vehicles")])
        let viewData = AdvertListFormatter.prepare(listing)
        #expect(viewData.items == [
            .init(advertID: "1", title: "First", group: "Pets"),
            .init(advertID: "2", title: "Second", group: "Vehicles"),
            .init(advertID: "3", title: "Third", group: "Vehicles"),
        ])
        #expect(viewData.filterTitle == nil)
    }

    @Test func advertListFormatterLeavesTheGroupEmptyWhenItIsMissing() throws {
        let listing = try listing(
            adverts: [Advert(advertID: "1", title: "Orphan", description: "", groupID: "7")],
            groups: [Group(groupID: "5", title: "Pets")])
        #expect(AdvertListFormatter.prepare(listing).items == [.init(advertID: "1", title: "Orphan", group: "")])
    }

    @Test func advertListFormatterNamesTheFilterGroup() throws {
        let listing = try listing(adverts: [], groups: [Group(groupID: "9", title: "Vehicles")])
        #expect(AdvertListFormatter.prepare(listing, filter: "9").filterTitle == "Vehicles")
        #expect(AdvertListFormatter.prepare(listing, filter: "42").filterTitle == "42")
        #expect(AdvertListFormatter.prepare(listing, filter: "9").items.isEmpty)
    }

    @Test func advertDetailFormatterShowsTitleAndDescription() {
        let advert = Advert(advertID: "1", title: "hello world", description: "a fine thing", groupID: "0")
        #expect(AdvertDetailFormatter.prepare(advert) == ItemDetailViewData(title: "hello world", detail: "a fine thing"))
    }

    @Test func advertDetailFormatterKeepsAnEmptyDescriptionEmpty() {
        let advert = Advert(advertID: "1", title: "Puppy", description: "", groupID: "2")
        #expect(AdvertDetailFormatter.prepare(advert) == ItemDetailViewData(title: "Puppy", detail: ""))
    }

    @Test func titleStepFormatterIsHeadedAdvertTitleAndShowsTheDraftTitleOrNothing() {
        #expect(TitleStepFormatter.prepare(title: nil) == TextEntryStepViewData(title: "Advert title", value: ""))
        #expect(TitleStepFormatter.prepare(title: "Red bike")
            == TextEntryStepViewData(title: "Advert title", value: "Red bike"))
        #expect(TitleStepFormatter.prepare(title: "") == TextEntryStepViewData(title: "Advert title", value: ""))
    }

    @Test func headlessTitleStepShowsItsViewDataAndReportsTheTypedText() throws {
        final class Delegate: TextEntryStepViewDelegate {
            var next: [String] = []
            var back: [String] = []
            func didTapNext(withText text: String) { next.append(text) }
            func didGoBack(withText text: String) { back.append(text) }
        }
        let view = HeadlessTextEntryStepView(screenName: "title")
        let delegate = Delegate()
        view.delegate = delegate
        view.viewData = TitleStepFormatter.prepare(title: "Draft")
        #expect(view.screen.fields == [ScreenTextField(id: "text", label: "Advert title", value: "Draft")])
        try view.receive(.edit(fieldID: "text", text: "Edited"))
        try view.receive(.press(buttonID: "next"))
        view.navigationDidGoBack()
        #expect(delegate.next == ["Edited"])
        #expect(delegate.back == ["Edited"])
        #expect(throws: UserInputError.self) { try view.receive(.press(buttonID: "reset")) }
    }
}
