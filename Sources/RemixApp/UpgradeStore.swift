import RemixStore

/// `remix log upgrade URL`: an event store of an older schema version brought up to this
/// binary's, in one transaction (docs/storage.md, "Schema").
package struct UpgradeStore {
    /// The store's URL.
    package var store: String

    /// An upgrade of the store at `store`.
    package init(store: String) {
        self.store = store
    }

    /// What the upgrade did.
    package struct Outcome: Equatable {
        /// The store's URL without its password.
        package var store: String
        /// The version the store had.
        package var from: Int
        /// The version it has now.
        package var to: Int
    }

    /// Upgrades the store (a store already current is left as it is).
    package func run(_ context: AppContext) async throws -> Outcome {
        guard StoreURL.isStoreURL(store) else {
            throw AppError("'\(store)' is not an event store: name its postgresql:// URL")
        }
        let url = try StoreURL(parsing: store)
        let from = try await PostgresStore.with(url) { store in
            if let version = try await store.installedVersion(), version < StoreSchema.version {
                context.notify(.message("upgrading the event store at \(url.redacted) from schema version \(version) to "
                                        + "\(StoreSchema.version): remix_events is rewritten once (about a minute per 10 M events)"))
            }
            return try await store.upgradeSchema()
        }
        return Outcome(store: url.redacted, from: from, to: StoreSchema.version)
    }
}
