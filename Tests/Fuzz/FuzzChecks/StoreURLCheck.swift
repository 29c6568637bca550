import RemixStoreURL

extension FuzzChecks {
    /// Event-store URLs (`--log postgresql://…`): any text either reads as a URL or is a `badURL`
    /// error; a password read from it never shows in the URL's printed form, nor in the redacted text.
    public static func storeURL(_ input: UnsafeBufferPointer<UInt8>) -> String? {
        guard let text = String(validating: input, as: UTF8.self) else { return nil }
        let redacted = StoreURL.redact(text)
        let url: StoreURL
        do {
            url = try StoreURL(parsing: text, environment: [:], home: "/nonexistent")
        } catch {
            return error.kind == .badURL ? nil : "a URL that fails is a \(error.kind) error, not badURL: \(error.message)"
        }
        guard let password = url.password, !password.isEmpty else { return nil }
        let shown = ":\(password)@"
        if url.description.contains(shown) || url.redacted.contains(shown) { return "the password shows in \(url.redacted)" }
        // The redacted text may still hold the password's characters elsewhere (a database named
        // like it), but read as a URL it must carry no password but the mask.
        if let reread = try? StoreURL(parsing: redacted, environment: [:], home: "/nonexistent"),
           let left = reread.password, left != "***", left == password {
            return "redact(_:) keeps the password: \(redacted)"
        }
        return nil
    }
}
