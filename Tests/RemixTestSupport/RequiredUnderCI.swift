import Foundation

/// Whether a test that needs something this machine may lack — a database server, a browser,
/// GrowthBook's Python SDK, the conformance data beside the checkout — must run: under CI
/// (`CI=true` or `CI=1`, as .ci/run sets it) such a test fails where it would otherwise skip, so that
/// CI never skips it silently. The one place that reads `CI`.
package enum RequiredUnderCI {
    /// Whether `environment` is CI's.
    package static func holds(in environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        ["true", "1"].contains(environment["CI"]?.lowercased() ?? "")
    }
}
