import Foundation
import RemixFormats
import RemixExperiments
import RemixFiles
import RemixKit
import RemixYAML

/// Turns the rules of one feature of a GrowthBook SDK payload into experiment files for one app
/// slot, and — when it has force rules, or experiments that can include the same session — a slot
/// rules file that keeps the feature's order. Variation and forced values must name registered
/// features that can fill the slot. The files are checked with the experiments already in the
/// output folder (as `remix validate` does) before anything is written.
package struct GrowthBookImport: Sendable {
    /// What to import and where to.
    package struct Options: Sendable {
        /// The payload file, for messages.
        package var payloadFile: String
        /// The app and slot the experiments fill.
        package var app: String
        package var slot: String
        /// The payload feature to read; by default `<app>.<slot>`, or the payload's only feature.
        package var feature: String?
        /// The experiments folder the files go to.
        package var outputFolder: String
        /// Replace experiment files that already exist.
        package var overwrite: Bool
        /// Leave out rules Remix cannot express instead of failing.
        package var skipUnsupported: Bool

        /// Options for importing into `outputFolder`.
        package init(payloadFile: String, app: String, slot: String, feature: String? = nil,
                    outputFolder: String = "experiments", overwrite: Bool = false, skipUnsupported: Bool = false) {
            self.payloadFile = payloadFile
            self.app = app
            self.slot = slot
            self.feature = feature
            self.outputFolder = outputFolder
            self.overwrite = overwrite
            self.skipUnsupported = skipUnsupported
        }
    }

    /// A file to write.
    package struct PlannedFile: Sendable, Equatable {
        package let path: String
        package let text: String
        /// Whether a file is already there.
        package let replaces: Bool
    }

    /// The payload feature that was read.
    package let featureKey: String
    /// The experiments read from its rules, in rule order.
    package let experiments: [ImportedExperiment]
    /// Its rules in order — force rules and experiments by key — when they go into a slot rules
    /// file (it has force rules, or experiments that can include the same session); else empty.
    package let rules: [ImportedRule]
    /// The files to write: one per experiment, and the saved groups file when it gains groups.
    package let files: [PlannedFile]
    /// What was left out or adjusted, one sentence each.
    package let notes: [String]

    /// Plans the import of `payload` (already parsed) for `options` against `registry`.
    package static func plan(_ payload: AttributeValue, options: Options,
                            registry: FeatureRegistry) throws(InteropError) -> GrowthBookImport {
        let fail = { (problems: [String]) in InteropError(file: options.payloadFile, problems: problems,
                                                          conclusion: "nothing was written") }
        let (app, slot) = try target(options, registry: registry)
        let (featureKey, feature) = try select(payload, options: options).get()
        var notes: [String] = []
        if let value = feature["defaultValue"], (try? SlotValue.read(value).feature) != slot.defaultFeature {
            notes.append("feature '\(featureKey)' defaults to \(PayloadJSON.compact(value)); in Remix the slot's "
                         + "default, \(slot.defaultFeature), fills \(app.name)/\(slot.name) when no experiment includes a session")
        }
        let rules: [AttributeValue]
        switch feature["rules"] {
        case nil, .null?: rules = []
        case .array(let list)?: rules = list
        case let other?: throw fail(["feature '\(featureKey)' has rules that are not a list: \(PayloadJSON.compact(other))"])
        }
        let reader = GrowthBookRuleReader(registry: registry, app: app, slot: slot, featureKey: featureKey)
        var problems: [String] = []
        var experiments: [(ImportedExperiment, index: Int)] = []
        var ordered: [ImportedRule] = []
        for (index, rule) in rules.enumerated() {
            let label = "feature '\(featureKey)' rule \(index + 1)" + (rule["key"]?.stringValue.map { " ('\($0)')" } ?? "")
            var ruleNotes: [String] = []
            switch reader.read(rule, notes: &ruleNotes) {
            case .experiment(let experiment):
                if experiments.contains(where: { $0.0.key == experiment.key }) {
                    problems.append("\(label) uses the key '\(experiment.key)' of an earlier rule; experiment keys must differ")
                }
                experiments.append((experiment, index + 1))
                ordered.append(.experiment(experiment.key))
                notes += ruleNotes.map { "\(label) \($0)" }
            case .force(let force):
                ordered.append(.force(force))
                notes += ruleNotes.map { "\(label) \($0)" }
            case .unsupported(let why) where options.skipUnsupported:
                notes.append("\(label) is left out: it \(why)")
            case .unsupported(let why):
                problems.append("\(label) \(why); leave it out with --skip-unsupported")
            case .problems(let found):
                problems += found.map { "\(label) \($0)" }
            }
        }
        if !problems.isEmpty { throw fail(problems) }
        if ordered.isEmpty { notes.append("feature '\(featureKey)' has no experiment or force rule; no file was planned") }
        return try ImportPlanner(options: options, registry: registry, featureKey: featureKey,
                           payloadGroups: payload["savedGroups"]?.objectValue ?? [:])
            .plan(experiments, rules: ordered, notes: notes)
    }

    /// Reads the payload at `options.payloadFile` and plans its import.
    package static func plan(options: Options, registry: FeatureRegistry) throws(InteropError) -> GrowthBookImport {
        _ = try target(options, registry: registry)
        do {
            return try plan(PayloadJSON.read(path: options.payloadFile), options: options, registry: registry)
        } catch let error as PayloadJSON.ReadError {
            throw InteropError(file: error.file, problems: [error.message])
        } catch let error as InteropError {
            throw error
        } catch {
            throw InteropError(file: options.payloadFile, problems: [String(describing: error)])
        }
    }

    /// Writes the planned files, all or none: into a temporary folder first (removed on failure and
    /// on SIGINT or SIGTERM), then moved into the output folder, which is made when needed.
    package func write() throws(InteropError) {
        guard let first = files.first else { return }
        let folder = PathText.folder(of: first.path)
        do throws(StagedOutput.Failure) {
            let staged = try StagedOutput.folder(folder)
            do throws(StagedOutput.Failure) {
                for file in files { try staged.write(file.text, as: file.path) }
            } catch {
                staged.discard()
                throw error
            }
            try staged.commit()
        } catch {
            throw InteropError(file: error.path, problems: ["cannot write the file: \(error.reason)"],
                               conclusion: "nothing was written")
        }
    }

    /// The app and slot the experiments fill.
    private static func target(_ options: Options,
                               registry: FeatureRegistry) throws(InteropError) -> (AppDefinition, SlotDefinition) {
        do throws(RegistryError) {
            let app = try registry.app(named: options.app)
            guard let slot = app.slot(named: options.slot) else {
                throw .unknownSlot(app: app.name, slot: options.slot, known: app.slots.map(\.name))
            }
            return (app, slot)
        } catch {
            throw InteropError(file: "--app/--slot", problems: [error.description])
        }
    }

    /// The feature to import: the one named, else `<app>.<slot>`, else the payload's only one.
    private static func select(_ payload: AttributeValue,
                               options: Options) -> Result<(String, [String: AttributeValue]), InteropError> {
        let error = { (message: String) in
            Result<(String, [String: AttributeValue]), InteropError>.failure(
                InteropError(file: options.payloadFile, problems: [message], conclusion: "nothing was written"))
        }
        guard case .object(let top) = payload else {
            return error("is \(PayloadJSON.compact(payload).prefix(40)), not a GrowthBook SDK payload (a JSON object with 'features')")
        }
        if top["encryptedFeatures"] != nil, top["features"] == nil {
            return error("holds encrypted features; turn encryption off for the SDK connection, or decrypt the payload first")
        }
        guard case .object(let features)? = top["features"] else {
            return error("has no 'features' object, so it is not a GrowthBook SDK payload; download it from your SDK "
                         + "connection's endpoint (/api/features/<client key>)")
        }
        let wanted = options.feature ?? GrowthBookExport.featureKey(app: options.app, slot: options.slot)
        var key = wanted
        if features[wanted] == nil {
            guard options.feature == nil, features.count == 1, let only = features.keys.first else {
                return error("has no feature '\(wanted)'" + NameSuggestion.hint(for: wanted, among: Array(features.keys), noun: "feature")
                             + "; choose one with --feature")
            }
            key = only
        }
        guard case .object(let feature)? = features[key] else {
            return error("feature '\(key)' is \(PayloadJSON.compact(features[key] ?? .null)), not an object")
        }
        return .success((key, feature))
    }
}
