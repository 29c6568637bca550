import Classifieds
import RemixKit

/// Turns an advert into detail view data: its title and description.
public enum AdvertDetailFormatter {
    /// The detail view data for `advert`.
    public static func prepare(_ advert: Advert) -> ItemDetailViewData {
        ItemDetailViewData(title: advert.title, detail: advert.description)
    }
}
