/// The version of the Remix host: what `remix --version` prints and what run records carry.
package enum RemixVersion {
    /// The version number, e.g. `0.5.0`.
    package static let number = "0.5.0"
    /// The version as run records write it: `remix 0.5.0`.
    package static let text = "remix \(number)"
}
