import Calculator
import Classifieds
import GroupBrowser
import Marketplace
import RemixKit

/// The feature modules linked into the host.
public enum BuiltInModules {
    /// Every built-in module, in load order (shared pieces first).
    public static func all() -> [any FeatureModule] {
        [ClassifiedsModule(), MarketplaceModule(), GroupBrowserModule(), CalculatorModule()]
    }

    /// A registry holding every built-in module.
    public static func registry() throws -> FeatureRegistry {
        let registry = FeatureRegistry()
        for module in all() { try registry.register(module) }
        return registry
    }
}
