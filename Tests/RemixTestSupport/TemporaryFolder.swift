import RemixKitTesting

/// The plugin authors' temporary folder (RemixKitTesting), under the name our tests use.
package typealias TemporaryFolder = RemixKitTesting.TemporaryFolder
