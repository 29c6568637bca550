import Classifieds
import RemixKit
import Testing

/// The in-memory advert and group services.
@Suite struct InMemoryServiceTests {
    private func publish(_ draft: Draft, on service: InMemoryAdvertService) -> AsyncResult<AdvertID>? {
        var result: AsyncResult<AdvertID>?
        service.publish(draft: draft) { result = $0 }
        return result
    }

    @Test func publishingWithoutAGroupFails() {
        var madeIDs = 0
        let service = InMemoryAdvertService(adverts: [makeAdvert(advertID: "1")]) { madeIDs += 1; return "new" }
        #expect(publish(Draft(title: "Bike"), on: service) == .error)
        #expect(service.adverts.map(\.advertID) == ["1"])
        #expect(madeIDs == 0)
    }

    @Test func publishingAppendsAnAdvertWithTheMadeIDAndAnEmptyDescription() {
        var next = 0
        let service = InMemoryAdvertService(adverts: [makeAdvert(advertID: "1")]) {
            next += 1
            return "ID-\(next)"
        }
        #expect(publish(Draft(title: "Racing bike", groupID: "5"), on: service) == .success("ID-1"))
        #expect(publish(Draft(title: "", groupID: "4"), on: service) == .success("ID-2"))
        #expect(service.adverts == [
            makeAdvert(advertID: "1"),
            Advert(advertID: "ID-1", title: "Racing bike", description: "", groupID: "5"),
            Advert(advertID: "ID-2", title: "", description: "", groupID: "4"),
        ])
    }

    @Test func publishingWithoutATitleUsesAPlaceholder() {
        let service = InMemoryAdvertService(adverts: []) { "x" }
        #expect(publish(Draft(groupID: "5"), on: service) == .success("x"))
        #expect(service.adverts.first?.title == "<untitled>")
    }

    @Test func failsPublishIsAskedPerAttempt() {
        var down = true
        let service = InMemoryAdvertService(adverts: []) { "x" }
        service.failsPublish = { down }
        #expect(publish(Draft(title: "Bike", groupID: "5"), on: service) == .error)
        #expect(service.adverts.isEmpty)
        down = false
        #expect(publish(Draft(title: "Bike", groupID: "5"), on: service) == .success("x"))
        #expect(service.adverts.count == 1)
    }

    @Test func publishedAdvertsCanBeFetched() {
        let service = InMemoryAdvertService(adverts: []) { "new" }
        _ = publish(Draft(title: "Bike", groupID: "5"), on: service)
        var fetched: AsyncResult<Advert>?
        service.fetchAdvert(for: "new") { fetched = $0 }
        #expect(fetched == .success(Advert(advertID: "new", title: "Bike", description: "", groupID: "5")))
        var all: AsyncResult<[Advert]>?
        service.fetchAdverts { all = $0 }
        #expect(all == .success(service.adverts))
    }

    @Test func fetchingAnUnknownAdvertFails() {
        let service = InMemoryAdvertService(adverts: [makeAdvert(advertID: "1")]) { "x" }
        var fetched: AsyncResult<Advert>?
        service.fetchAdvert(for: "2") { fetched = $0 }
        #expect(fetched == .error)
    }

    @Test func groupServiceFetchesByIDOrFails() {
        let service = InMemoryGroupService(groups: seedGroups())
        var found: AsyncResult<Group>?, missing: AsyncResult<Group>?
        service.fetchGroup(for: "5") { found = $0 }
        service.fetchGroup(for: "6") { missing = $0 }
        #expect(found == .success(seedGroups()[4]))
        #expect(missing == .error)
    }
}
