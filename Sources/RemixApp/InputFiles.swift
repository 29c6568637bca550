import Foundation
import RemixFormats
import RemixAnalysis
import RemixBuiltIns
import RemixYAML

/// Where every command finds the inputs it was not given — one rule (docs/experiments.md#where-commands-find-their-files):
/// a file is looked for in the experiments folder, then in `./experiments`; a population file is the
/// app's (`APP.population.yaml`) before the generic `population.yaml`, the app being the one the
/// command runs (its `--app`, else its experiment's); a metrics file that neither folder has is the
/// one shipped with `remix`, with a note. When nothing is found, the error lists the paths tried.
enum InputFiles {
    /// The folders searched, in order: the experiments folder (the folder of a file named alone),
    /// then `experiments`.
    static func folders(_ experiments: String) -> [String] {
        let folder = YAMLFile.kind(of: experiments) == .file ? PathText.folder(of: experiments) : experiments
        let first = folder.isEmpty ? "." : folder
        return standardized(first) == standardized(defaultFolder) ? [first] : [first, defaultFolder]
    }

    /// The experiments folder a command reads when none is named.
    static let defaultFolder = "experiments"

    /// The population files tried for `app` (nil: ``BuiltInModules/defaultApp``), in order.
    static func populationCandidates(app: String?, experiments: String) -> [String] {
        let names = ["\(app ?? BuiltInModules.defaultApp).population.yaml", "population.yaml"]
        return folders(experiments).flatMap { folder in names.map { (folder as NSString).appendingPathComponent($0) } }
    }

    /// The population file: `given`, else the first of ``populationCandidates(app:experiments:)``
    /// that exists; none is an error listing the paths tried.
    static func population(given: String?, app: String?, experiments: String) throws -> String {
        if let given { return given }
        let candidates = populationCandidates(app: app, experiments: experiments)
        guard let found = candidates.first(where: { YAMLFile.kind(of: $0) == .file }) else {
            throw AppError("no population file for app '\(app ?? BuiltInModules.defaultApp)': tried "
                           + candidates.joined(separator: ", ") + "; give --population FILE (docs/simulation.md describes one)")
        }
        return found
    }

    /// The metrics file tried in each folder, in order.
    static func metricsCandidates(experiments: String) -> [String] {
        folders(experiments).map { ($0 as NSString).appendingPathComponent(MetricsFileParser.fileName) }
    }

    /// Where the metrics come from: a file of the folders, else the shipped one (with a note to
    /// say so), else none (with a note listing the paths tried).
    struct Metrics {
        /// The file read, if any.
        var path: String?
        /// Why the folders' own file is not the one read, when it is not.
        var note: String?
    }

    /// The metrics file for `experiments`: its own metrics.yaml, else `./experiments`', else the
    /// one shipped with `remix`.
    static func metrics(experiments: String) -> Metrics {
        let candidates = metricsCandidates(experiments: experiments)
        if let found = candidates.first(where: { YAMLFile.kind(of: $0) == .file }) {
            return Metrics(path: found, note: found == candidates[0] ? nil
                           : "\(candidates[0]) does not exist; the metrics are those of \(found)")
        }
        let tried = candidates.joined(separator: " and ") + (candidates.count == 1 ? " does" : " do")
        guard let shipped = BuiltInModules.shippedMetrics?.path else {
            return Metrics(path: nil, note: "no metrics file: \(tried) not exist, and the metrics shipped with remix were not "
                           + "found (set REMIX_DATA_DIR to their folder); metrics are event names only")
        }
        return Metrics(path: shipped, note: "\(tried) not exist; the metrics are those shipped with remix (\(shipped)); "
                       + "copy that file to \(candidates[0]) to change them")
    }

    private static func standardized(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }
}
