import RemixKit

/// The gateway to adverts: listing, fetching and publishing.
public protocol AdvertService: AnyObject {
    /// All adverts in service order.
    func fetchAdverts(completion: (AsyncResult<[Advert]>) -> Void)
    /// The advert with that id, or an error if there is none.
    func fetchAdvert(for advertID: AdvertID, completion: (AsyncResult<Advert>) -> Void)
    /// Publishes a draft; fails when the draft has no group (or the service is down).
    func publish(draft: Draft, completion: (AsyncResult<AdvertID>) -> Void)
}

/// Adverts held in memory. Published adverts get a fresh id and an empty description.
public final class InMemoryAdvertService: AdvertService {
    /// The adverts, in service order.
    public var adverts: [Advert] {
        get { storedAdverts }
        set {
            // Swapped in, so that the old list goes after the change: then no access to it
            // overlaps another, and its exclusive access is checked when compiling.
            var replaced = newValue
            swap(&replaced, &storedAdverts)
        }
    }
    private var storedAdverts: [Advert]
    /// Decides, per publish attempt, whether the service is down (simulations and tests set it).
    public var failsPublish: () -> Bool = { false }
    private let makeID: () -> AdvertID

    /// Makes the service with `adverts`; `makeID` gives each published advert its id.
    public init(adverts: [Advert], makeID: @escaping () -> AdvertID) {
        storedAdverts = adverts
        self.makeID = makeID
    }

    public func fetchAdverts(completion: (AsyncResult<[Advert]>) -> Void) {
        completion(.success(storedAdverts))
    }

    public func fetchAdvert(for advertID: AdvertID, completion: (AsyncResult<Advert>) -> Void) {
        if let advert = storedAdverts.first(where: { $0.advertID == advertID }) {
            completion(.success(advert))
        } else {
            completion(.error)
        }
    }

    public func publish(draft: Draft, completion: (AsyncResult<AdvertID>) -> Void) {
        guard let groupID = draft.groupID, !failsPublish() else {
            completion(.error)
            return
        }
        let advert = Advert(advertID: makeID(), title: draft.title ?? "<untitled>", description: "", groupID: groupID)
        var list: [Advert] = []
        swap(&list, &storedAdverts)
        list.append(advert)
        storedAdverts = list
        completion(.success(advert.advertID))
    }
}
