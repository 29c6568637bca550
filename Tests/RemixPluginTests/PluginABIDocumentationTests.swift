import Foundation
import RemixKit
import RemixTestSupport
import Testing

/// Plugin authors read the ABI version in the docs: both places that name the current one say the
/// number the host is built with.
@Suite struct PluginABIDocumentationTests {
    @Test(arguments: [("docs/plugins.md", "The version is **"), ("docs/architecture.md", "it is ")])
    func theDocsNameTheCurrentABI(file: String, before: String) throws {
        let text = try String(contentsOf: Repository.root.appendingPathComponent(file), encoding: .utf8)
        #expect(text.contains(before + "\(RemixPluginABI.version)"),
                "\(file) does not say '\(before)\(RemixPluginABI.version)' about the current plugin ABI")
    }
}
