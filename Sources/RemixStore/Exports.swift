// Store URLs and errors live in RemixStoreURL, which builds without the PostgreSQL client; every
// user of the store reads URLs and errors too, so importing RemixStore brings them along.
@_exported import RemixStoreURL
