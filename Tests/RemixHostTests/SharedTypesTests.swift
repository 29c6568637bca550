import Foundation
import Marketplace
import RemixHost
import RemixKit
import Testing

/// Guards the plugin layout: RemixKit must be one shared library, so a type defined in it is the
/// same type for the host, the feature modules and the tests.
@Suite struct SharedTypesTests {
    @Test func remixKitTypesLiveInTheSharedLibrary() throws {
        var info = Dl_info()
        let metadata = unsafeBitCast(FeatureRegistry.self as Any.Type, to: UnsafeRawPointer.self)
        #expect(dladdr(metadata, &info) != 0)
        let file = info.dli_fname.map { String(cString: $0) } ?? ""
        #expect(file.hasSuffix("libRemixKit.so"), "FeatureRegistry's metadata is in \(file), not libRemixKit.so")
    }

    @Test func remixKitIsLoadedOnce() throws {
        let maps = try String(contentsOfFile: "/proc/self/maps", encoding: .utf8)
        let paths = Set(maps.split(separator: "\n").compactMap { line -> String? in
            guard let path = line.split(separator: " ", omittingEmptySubsequences: true).last,
                  path.hasSuffix("libRemixKit.so") else { return nil }
            return String(path)
        })
        #expect(paths.count == 1, "libRemixKit.so mapped from \(paths)")
    }

    @Test func featureModuleTypesCastAcrossTheBoundary() throws {
        let registry = try BuiltInModules.registry()
        let session = try AppSession(app: "marketplace", registry: registry)
        let feature = try registry.feature(named: "AutoGroupInsertion").make(in: session.environment)
        #expect(feature is any FlowFeature)
        #expect(feature is AutoGroupInsertionFeature)
    }
}
