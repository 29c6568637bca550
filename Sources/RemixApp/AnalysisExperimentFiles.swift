import Foundation
import RemixAnalysis
import RemixExperiments
import RemixLogReader
import RemixSimulation
import RemixStore

/// The experiment files `remix analyze` reads, in this order (docs/analysis.md): `--experiments`;
/// else the files the logs' run records name, when every one still exists with the bytes the run
/// read; else `./experiments`; else none — then no experiment has a file, which the analysis says
/// first, and it gives no SRM verdict (it does not know the weights).
struct AnalysisExperimentFiles {
    /// Where the definitions came from.
    enum Origin: Equatable {
        /// `--experiments`.
        case option
        /// The files the logs' run records name.
        case runRecord
        /// `./experiments`.
        case defaultFolder
        /// No experiment file was found.
        case none
    }

    var origin: Origin
    /// The definitions read, by key (a file with an error left out, with a warning).
    var definitions: [String: ExperimentDefinition]
    /// The experiments folder whose metrics go with them (``InputFiles/metrics(experiments:)``).
    var folder: String
    /// The files read: the folder, or the run record's files.
    var inputs: [String]
    /// The app the logs' run records name, if they name one: its default metric is reported when
    /// no experiment file is read.
    var runApp: String?

    /// The run's files are read only when at most this many bytes of a log's start hold its run record.
    static let headBytes = 1 << 20

    /// Finds the files for an analysis of `logs`; `experiments` is the option (a missing folder is
    /// then an error).
    static func find(experiments: String?, logs: [String], _ context: AppContext) throws -> AnalysisExperimentFiles {
        let without = "the analysis goes on without that file"
        if let experiments {
            guard FileManager.default.fileExists(atPath: experiments) else {
                throw AppError("experiments folder '\(experiments)' does not exist (--experiments)")
            }
            return AnalysisExperimentFiles(origin: .option, definitions: Definitions.lenient(folder: experiments, without: without, context),
                                           folder: experiments, inputs: [experiments], runApp: nil)
        }
        let records = runRecords(of: logs)
        let runApp = records.first.map(\.app).flatMap { $0.isEmpty ? nil : $0 }
        let sources = records.flatMap(\.sources).filter { $0.role == "experiment" || $0.role == "slot rules" }
        if !sources.isEmpty {
            if let changed = sources.first(where: { !matches($0) }) {
                context.notify(.note("the run's experiment file \(changed.path) "
                                     + (FileManager.default.fileExists(atPath: changed.path) ? "has changed since the run" : "is gone")
                                     + "; reading \(InputFiles.defaultFolder)/ instead (or give --experiments DIR)"))
            } else {
                var paths: [String] = []
                for source in sources where !paths.contains(source.path) { paths.append(source.path) }
                let (set, problems) = ExperimentSet.load(paths: paths)
                for problem in problems where problem.severity == .error { context.warn("\(problem) (\(without))") }
                let definitions = Dictionary(set.definitions.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
                return AnalysisExperimentFiles(origin: .runRecord, definitions: definitions,
                                               folder: MetricEvents.folders(of: [paths[0]]).first ?? ".", inputs: paths, runApp: runApp)
            }
        }
        let folder = InputFiles.defaultFolder
        guard FileManager.default.fileExists(atPath: folder) else {
            return AnalysisExperimentFiles(origin: .none, definitions: [:], folder: folder, inputs: [], runApp: runApp)
        }
        return AnalysisExperimentFiles(origin: .defaultFolder, definitions: Definitions.lenient(folder: folder, without: without, context),
                                       folder: folder, inputs: [folder], runApp: runApp)
    }

    /// Whether the file `source` names still has the bytes the run read.
    private static func matches(_ source: AnalysisReport.RunRecord.Source) -> Bool {
        guard let data = FileManager.default.contents(atPath: source.path) else { return false }
        return RunSource(role: source.role, path: source.path, bytes: [UInt8](data)).hash == source.hash
    }

    /// The first run record of each regular log file (found in its first ``headBytes``): standard
    /// input, pipes and event stores are not read twice.
    static func runRecords(of logs: [String]) -> [AnalysisReport.RunRecord] {
        LogPaths.files(logs).filter { $0 != "-" && !StoreURL.isStoreURL($0) }.compactMap { path in
            guard (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular,
                  let handle = FileHandle(forReadingAtPath: path) else { return nil }
            defer { try? handle.close() }
            guard let head = try? handle.read(upToCount: headBytes) else { return nil }
            // The lines holding the marker, in order, found by searching for it (splitting the whole
            // head into lines took about 15 % of an analysis of a 20 000-user log).
            let marker = Data("\"run\"".utf8)
            var from = head.startIndex
            while let found = head.range(of: marker, in: from..<head.endIndex) {
                let start = head[..<found.lowerBound].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? head.startIndex
                let end = head[found.upperBound...].firstIndex(of: UInt8(ascii: "\n")) ?? head.endIndex
                if let record = AnalysisReport.RunRecord(line: [UInt8](head[start..<end])) { return record }
                from = end
            }
            return nil
        }
    }
}
