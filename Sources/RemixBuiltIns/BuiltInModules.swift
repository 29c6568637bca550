import Calculator
import Classifieds
import Foundation
import GroupBrowser
import Marketplace
import RemixKit

/// The feature modules built into `remix`: the assembly of the application, made at the top
/// (beside RemixApp) so that the generic modules — the host, the simulation — link no feature.
/// A target of its own, without the event store, so that the tests and fuzz checks that need
/// the built-in registry do not link PostgresNIO.
package enum BuiltInModules {
    /// Every built-in module, in load order (shared pieces first).
    package static func all() -> [any FeatureModule] {
        [ClassifiedsModule(), MarketplaceModule(), GroupBrowserModule(), CalculatorModule()]
    }

    /// A registry holding every built-in module.
    package static func registry() throws -> FeatureRegistry {
        let registry = FeatureRegistry()
        for module in all() { try registry.register(module) }
        return registry
    }

    /// The app `remix` runs, fits and analyses when none is named: Marketplace.
    package static let defaultApp = "marketplace"

    /// The metrics file shipped with the built-in apps (the same as the repository's
    /// `experiments/metrics.yaml`), found as their catalogs are — in `REMIX_DATA_DIR`, in the
    /// resource bundle beside `remix`, or in the source tree; nil when it cannot be found.
    package static var shippedMetrics: URL? {
        ResourceLocator.find("metrics.yaml", bundle: "remix_RemixBuiltIns.resources", sourceFolder: "RemixBuiltIns")
    }
}
