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

/// Turns an advert into detail view data: its title and description.
public enum AdvertDetailFormatter {
    /// The detail view data for `advert`.
    public static func prepare(_ advert: Advert) -> ItemDetailViewData {
        ItemDetailViewData(title: advert.title, detail: advert.description)
    }
}
