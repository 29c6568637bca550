import RemixAnalysis
import RemixFormats

extension AnalysisReport.Experiment {
    /// One line on the phase reported and each phase's split, for the table and the HTML page;
    /// nil for an experiment without phases.
    var phaseSummary: String? {
        guard let phase else { return nil }
        let which = switch phase {
        case .number(let number): "phase \(number)"
        case .all: "all phases together"
        }
        let splits = phases.map { split in
            "phase \(split.phase): \(TableReport.grouped(split.units.reduce(0, +))) units, SRM p = "
                + (split.srmPValue.map { TableReport.fixed($0, 4) } ?? "n/a")
                + ((split.srmPValue ?? 1) < srmThreshold ? " SAMPLE RATIO MISMATCH" : "")
        }
        let crossing = unitsInSeveralPhases == 0 ? [] : [
            "\(TableReport.grouped(unitsInSeveralPhases)) units in several phases, "
                + "\(TableReport.grouped(unitsSwitchingVariation)) of them re-randomised to another variation",
        ]
        return "reports \(which) (--phase N|all) · " + (splits + crossing).joined(separator: " · ")
    }
}
