import Foundation

/// The repository's experiments folder, copied for a test.
package enum ShippedExperiments {
    /// Copies `experiments/` into `folder` and returns the copy's path. The calculator experiment
    /// starts on 2026-11-27, after the simulated users' first visits, so CUPED has a pre-exposure window.
    package static func copy(into folder: TemporaryFolder) throws -> String {
        let experiments = folder.path("experiments")
        try FileManager.default.copyItem(at: Repository.root.appendingPathComponent("experiments"), to: URL(fileURLWithPath: experiments))
        let entry = experiments + "/calculator-entry.yaml"
        let text = try String(contentsOfFile: entry, encoding: .utf8)
        try text.replacingOccurrences(of: "\nstatus: running", with: "\nstatus: running\nschedule:\n  start: 2026-11-27")
            .write(toFile: entry, atomically: true, encoding: .utf8)
        return experiments
    }
}
