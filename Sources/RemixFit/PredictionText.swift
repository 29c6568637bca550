import Foundation
import RemixFormats

/// A prediction as a table: per experiment and variation, each metric with its interval.
package enum PredictionText {
    package static func table(_ prediction: PopulationPrediction) -> String {
        var lines = ["predicted from the fit and \(prediction.replicates) replicates, \(CountText.grouped(prediction.users)) users each "
                     + "(value [95 % interval]):"]
        var experiment = ""
        for figure in prediction.figures {
            if figure.experiment != experiment {
                experiment = figure.experiment
                lines.append(experiment)
            }
            let text = figure.kind == "rate"
                ? String(format: "%.1f %% [%.1f, %.1f]", figure.value * 100, figure.low * 100, figure.high * 100)
                : String(format: "%.4g [%.4g, %.4g]", figure.value, figure.low, figure.high)
            lines.append("  \(figure.variation): \(figure.metric) \(text)")
        }
        if !prediction.unseenScreens.isEmpty {
            lines.append("screens the fitted log never showed, given each persona's default chance to give up: "
                         + prediction.unseenScreens.joined(separator: ", "))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
