import Classifieds
import RemixKit

/// Fetches the advert to show in detail.
public final class DiscoveryInteractor {
    private let advertService: any AdvertService

    /// Makes the interactor.
    public init(advertService: any AdvertService) {
        self.advertService = advertService
    }

    /// The advert with that id, or an error.
    public func fetchDetail(advertID: AdvertID, completion: (AsyncResult<Advert>) -> Void) {
        advertService.fetchAdvert(for: advertID, completion: completion)
    }
}
