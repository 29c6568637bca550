import RemixKitTesting

/// The plugin authors' temporary folder (RemixKitTesting), under the name our tests use.
public typealias TemporaryFolder = RemixKitTesting.TemporaryFolder
