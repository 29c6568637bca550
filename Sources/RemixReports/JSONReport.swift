import RemixAnalysis
import RemixFormats
import RemixKit
import Foundation
import RemixStatistics

/// The report as JSON with the documented names and full precision (non-finite numbers as null).
package enum JSONReport {
    package static func render(_ report: AnalysisReport) -> String {
        let out = JSONWriter()
        out.object {
            out.key("experiments")
            out.array(report.experiments) { experiment in
                out.object {
                    experimentFields(experiment, into: out)
                    if !experiment.rolloutTimeline.isEmpty {
                        out.key("rolloutTimeline")
                        out.array(experiment.rolloutTimeline) { decision in rolloutObject(decision, into: out) }
                    }
                    if let bandit = experiment.bandit { banditObject(bandit, into: out) }
                    if !experiment.overTime.isEmpty {
                        out.key("overTime")
                        out.array(experiment.overTime) { point in overTimeObject(point, into: out) }
                    }
                    guard !experiment.slices.isEmpty else { return }
                    out.key("slices")
                    out.array(experiment.slices) { slice in
                        out.object {
                            out.field("value", slice.value)
                            experimentFields(slice.experiment, into: out)
                        }
                    }
                }
            }
            out.key("log")
            out.object {
                out.field("files", report.log.files.count)
                out.field("paths", report.log.files)
                out.field("lines", report.log.lines)
                out.field("badLines", report.log.badLines)
                out.key("firstBadLines")
                out.array(report.log.firstBadLines) { bad in
                    out.object {
                        out.field("path", bad.path)
                        out.field("line", bad.line)
                        out.field("reason", bad.reason.description)
                    }
                }
                out.field("tornFinalLine", report.log.tornFinalLine)
                out.field("tornPaths", report.log.tornFiles)
                out.field("otherScreenEvents", report.log.otherScreenEvents.map(Double.init))
                out.key("runs")
                out.array(report.log.runs) { run in runObject(run, into: out) }
            }
            out.field("warnings", report.warnings)
            out.field("notes", report.notes)
            out.field("notRunning", report.notRunning.map(\.description))
            out.field("dimension", report.dimension)
            out.field("by", report.by?.rawValue)
            out.field("alpha", report.alpha)
            out.field("correction", report.correction.rawValue)
            out.field("difference", report.settings.difference.rawValue)
            out.field("sequentialTuning", report.settings.sequentialTuning)
            prior(report.settings.prior, into: out)
        }
        return out.text + "\n"
    }

    private static func experimentFields(_ experiment: AnalysisReport.Experiment, into out: JSONWriter) {
        out.field("key", experiment.key)
        out.field("primaryMetric", experiment.hasFile ? experiment.primaryMetric : nil)
        out.field("hasExperimentFile", experiment.hasFile)
        out.field("guardrails", experiment.guardrails)
        out.field("weights", experiment.weights)
        out.field("srmPValue", experiment.srmPValue)
        out.field("srmWarning", (experiment.srmPValue ?? 1) < srmThreshold)
        out.field("multipleExposureUnits", experiment.multipleExposureUnits)
        if let phase = experiment.phase { phaseFields(phase, experiment, into: out) }
        out.key("undeclaredVariations")
        out.array(experiment.undeclaredVariations) { undeclared in
            out.object {
                out.field("key", undeclared.key)
                out.field("variationId", undeclared.variationId)
                out.field("units", undeclared.units)
            }
        }
        out.key("variations")
        out.array(experiment.variations) { variation in variationObject(variation, into: out) }
        out.key("comparisons")
        out.array(experiment.comparisons) { comparison in comparisonObject(comparison, full: true, into: out) }
    }

    /// The phase reported (a number, or "all") and each phase's units and SRM test.
    private static func phaseFields(_ phase: PhaseScope, _ experiment: AnalysisReport.Experiment, into out: JSONWriter) {
        switch phase {
        case .number(let number): out.field("phase", number)
        case .all: out.field("phase", "all")
        }
        out.key("phases")
        out.array(experiment.phases) { split in
            out.object {
                out.field("phase", split.phase)
                out.field("units", split.units)
                out.field("weights", split.weights)
                out.field("srmPValue", split.srmPValue)
                out.field("srmWarning", (split.srmPValue ?? 1) < srmThreshold)
            }
        }
        out.field("unitsInSeveralPhases", experiment.unitsInSeveralPhases)
        out.field("unitsSwitchingVariation", experiment.unitsSwitchingVariation)
    }

    /// One cut of `--by`: units and figures per variation, and the comparisons' effect, CI and p-values.
    private static func overTimeObject(_ point: AnalysisReport.OverTimePoint, into out: JSONWriter) {
        out.object {
            out.field("until", point.untilText)
            out.key("variations")
            out.array(point.variations) { variation in
                out.object {
                    out.field("key", variation.key)
                    out.field("units", variation.units)
                    metricsObject(variation.metrics, into: out) { metric in
                        out.field("conversions", metric.conversions)
                        out.field("value", metric.value)
                    }
                }
            }
            out.key("comparisons")
            out.array(point.comparisons) { comparison in comparisonObject(comparison, full: false, into: out) }
        }
    }

    /// A variation compared with the baseline on a metric: effect, CI, p-values, chance to win,
    /// error and the absolute difference; `full` (the report's comparisons, not a `--by` cut's)
    /// adds the baseline, guardrail, risk, direction, credible interval and prior.
    private static func comparisonObject(_ comparison: AnalysisReport.Comparison, full: Bool, into out: JSONWriter) {
        out.object {
            out.field("variation", comparison.variation)
            if full { out.field("baseline", comparison.baseline) }
            out.field("metric", comparison.metric)
            if full { out.field("guardrail", comparison.guardrail) }
            effect("expected", [comparison.expected], of: comparison, into: out)
            effect("ci", comparison.ci, of: comparison, into: out)
            out.field("pValue", comparison.pValue)
            out.field("pValueAdjusted", comparison.pValueAdjusted)
            out.field("chanceToWin", comparison.chanceToWin)
            if full { effect("risk", comparison.risk, of: comparison, into: out) }
            out.field("error", comparison.error)
            if full {
                out.field("inverse", comparison.inverse)
                out.field("directionDeclared", comparison.directionDeclared)
                effect("credibleInterval", comparison.credibleInterval, of: comparison, into: out)
            }
            absoluteDifference(comparison, into: out, full: full)
            if full { prior(comparison.prior, into: out) }
        }
    }

    /// `prior`: the Bayesian test's proper prior (mean and standard deviation), or null for flat.
    private static func prior(_ prior: BayesianPrior?, into out: JSONWriter) {
        out.key("prior")
        guard let prior else { return out.null() }
        out.object {
            out.field("mean", prior.mean)
            out.field("stddev", prior.standardDeviation)
        }
    }

    /// `metrics`: each metric's figures under its key, written by `fields`.
    private static func metricsObject(_ metrics: [AnalysisReport.MetricCount], into out: JSONWriter,
                                      _ fields: (AnalysisReport.MetricCount) -> Void) {
        out.key("metrics")
        out.object {
            for metric in metrics {
                out.key(metric.metric)
                out.object { fields(metric) }
            }
        }
    }

    /// A comparison's effect field: null when the baseline is 0, which leaves no lift (the
    /// comparison's `absoluteDifference` then holds it).
    private static func effect(_ name: String, _ values: [Double], of comparison: AnalysisReport.Comparison, into out: JSONWriter) {
        if comparison.liftUndefined {
            out.key(name)
            out.null()
        } else if values.count == 1 {
            out.field(name, values[0])
        } else {
            out.field(name, values)
        }
    }

    /// `absoluteDifference`: when the baseline is 0, the absolute difference whose lift is null;
    /// null otherwise (and without `risk` and `credibleInterval` unless `full`).
    private static func absoluteDifference(_ comparison: AnalysisReport.Comparison, into out: JSONWriter, full: Bool) {
        out.key("absoluteDifference")
        guard comparison.liftUndefined else { return out.null() }
        out.object {
            out.field("expected", comparison.expected)
            out.field("ci", comparison.ci)
            if full {
                out.field("risk", comparison.risk)
                out.field("credibleInterval", comparison.credibleInterval)
            }
        }
    }

    /// One decision of a rollout's controller, as its `rollout_decision` event says it.
    private static func rolloutObject(_ decision: RolloutDecision, into out: JSONWriter) {
        out.object {
            out.field("time", decision.timeText)
            out.field("step", decision.step)
            out.field("share", decision.share)
            out.field("decision", decision.decision.rawValue)
            out.field("reason", decision.reason)
            out.field("units", decision.units.map(Double.init))
            out.field("srmPValue", decision.srmPValue)
            out.key("guardrails")
            out.array(decision.guardrails) { guardrail in
                out.object {
                    out.field("metric", guardrail.metric)
                    out.field("inverse", guardrail.inverse)
                    out.field("control", guardrail.control)
                    out.field("rollout", guardrail.rollout)
                    out.field("effect", guardrail.effect)
                    out.field("bound", guardrail.bound)
                    out.field("pValue", guardrail.pValue)
                    out.field("worse", guardrail.worse)
                    out.field("error", guardrail.error)
                }
            }
        }
    }

    /// A run record: what produced the log.
    private static func runObject(_ run: AnalysisReport.RunRecord, into out: JSONWriter) {
        out.object {
            out.field("ts", run.timestamp)
            out.field("version", run.version)
            out.field("app", run.app)
            out.field("seed", run.seed)
            out.field("users", run.users.map(Double.init))
            out.field("shard", run.shard)
            out.key("sources")
            out.array(run.sources) { source in
                out.object {
                    out.field("role", source.role)
                    out.field("path", source.path)
                    out.field("hash", source.hash)
                }
            }
        }
    }

    private static func variationObject(_ variation: AnalysisReport.Variation, into out: JSONWriter) {
        out.object {
            out.field("key", variation.key)
            out.field("variationId", variation.variationId)
            out.field("feature", variation.feature)
            out.field("units", variation.units)
            metricsObject(variation.metrics, into: out) { metric in
                out.field("type", metric.type)
                out.field("label", metric.label)
                out.field("cuped", metric.cuped)
                out.field("conversions", metric.conversions)
                out.field("rate", metric.rate)
                out.field("value", metric.value)
                out.field("inverse", metric.inverse)
                out.field("missingValues", metric.missingValues)
                out.field("nonNumericValues", metric.nonNumericValues)
                out.field("error", metric.error)
            }
            out.key("funnel")
            out.object {
                for step in variation.funnel {
                    out.key(step.screen)
                    out.object {
                        out.field("units", step.units)
                        out.field("share", step.share)
                    }
                }
            }
            out.key("timeToConversion")
            out.object {
                out.field("count", variation.timeToConversion.count)
                out.field("medianSeconds", variation.timeToConversion.medianSeconds)
                out.field("p90Seconds", variation.timeToConversion.p90Seconds)
                out.field("unknown", variation.timeToConversion.unknown)
            }
        }
    }
}

/// A minimal streaming JSON writer.
final class JSONWriter {
    private(set) var text = ""
    private var needsComma = [false]

    func object(_ body: () -> Void) {
        separate()
        text += "{"
        needsComma.append(false)
        body()
        needsComma.removeLast()
        text += "}"
    }

    func array<T>(_ items: [T], _ body: (T) -> Void) {
        separate()
        text += "["
        needsComma.append(false)
        for item in items { body(item) }
        needsComma.removeLast()
        text += "]"
    }

    func key(_ name: String) {
        separate()
        text += Self.quoted(name) + ":"
        needsComma[needsComma.count - 1] = false
    }

    func field(_ name: String, _ value: String?) { key(name); raw(value.map(Self.quoted) ?? "null") }
    func field(_ name: String, _ value: Int) { key(name); raw(String(value)) }
    func field(_ name: String, _ values: [Int]) { key(name); raw("[" + values.map(String.init).joined(separator: ",") + "]") }
    func field(_ name: String, _ value: Bool) { key(name); raw(value ? "true" : "false") }
    func field(_ name: String, _ value: Double?) { key(name); raw(value.map(Self.number) ?? "null") }
    func field(_ name: String, _ values: [Double]) { key(name); raw("[" + values.map(Self.number).joined(separator: ",") + "]") }
    func field(_ name: String, _ values: [String]) { key(name); raw("[" + values.map(Self.quoted).joined(separator: ",") + "]") }

    func null() { raw("null") }

    private func raw(_ value: String) {
        separate()
        text += value
    }

    private func separate() {
        if needsComma[needsComma.count - 1] { text += "," }
        needsComma[needsComma.count - 1] = true
    }

    /// Shortest round-trip decimal; integral values keep a `.0`-free form; non-finite → null.
    static func number(_ value: Double) -> String { JSONText.number(value) }

    /// A string literal that prints as it reads (DEL and C1 controls escaped too).
    static func quoted(_ text: String) -> String { JSONText.printableQuoted(text) }
}
