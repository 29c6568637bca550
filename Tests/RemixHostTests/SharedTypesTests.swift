import Foundation
import Marketplace
import RemixBuiltIns
import RemixHost
import RemixKit
import Testing

/// Guards the plugin layout: RemixKit must be one shared library, so a type defined in it is the
/// same type for the host, the feature modules and the tests.
@Suite struct SharedTypesTests {
    @Test func remixKitIsLoadedOnce() throws {
        #if os(Linux)
        // procfs files report size 0, so read to the end rather than by size.
        let handle = try #require(FileHandle(forReadingAtPath: "/proc/self/maps"))
        let maps = String(decoding: handle.readDataToEndOfFile(), as: UTF8.self)
        let paths = Set(maps.split(separator: "\n").compactMap { line -> String? in
            guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last,
                  path.hasSuffix("libRemixKit.so") else { return nil }
            return String(path)
        })
        #expect(paths.count == 1, "libRemixKit.so mapped from \(paths)")
        #endif
    }

    /// A feature made inside the Marketplace module conforms to RemixKit's protocol as the test
    /// sees it; with two copies of RemixKit the conformance would name the other copy's protocol.
    @Test func featureModuleTypesCastAcrossTheBoundary() throws {
        let registry = try BuiltInModules.registry()
        let session = try AppSession(app: "marketplace", registry: registry)
        let feature = try registry.feature(named: "AutoGroupInsertion").make(in: session.environment)
        #expect(feature is any FlowFeature)
        #expect(feature is AutoGroupInsertionFeature)
        #expect(type(of: session.window) == Window.self)
    }

    /// Values made by the host flow into feature code and back without losing their type.
    @Test func hostValuesKeepTheirTypeInFeatureCode() throws {
        let registry = try BuiltInModules.registry()
        let session = try AppSession(app: "marketplace", registry: registry)
        let slot = try session.environment.slot("insertion")
        #expect(slot.use(as: (any FlowFeature).self) != nil)
        #expect(slot.featureName == "AlternatingInsertion")
    }
}
