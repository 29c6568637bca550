/// The result of `remix analyze`: per experiment, each variation's units and metrics, and each
/// variation compared with the baseline; plus what was read.
public struct AnalysisReport: Sendable {
    /// One metric of one variation.
    public struct MetricCount: Sendable, Equatable {
        public var metric: String
        public var conversions: Int
        public var rate: Double
    }

    /// Share of a variation's units that reached a screen after exposure.
    public struct FunnelStep: Sendable, Equatable {
        public var screen: String
        public var units: Int
        public var share: Double
    }

    /// Time from first exposure to the first primary conversion, in seconds.
    public struct ConversionTime: Sendable, Equatable {
        public var count: Int
        public var medianSeconds: Double?
        public var p90Seconds: Double?
    }

    /// One variation.
    public struct Variation: Sendable {
        public var key: String
        public var variationId: Int
        public var feature: String
        public var units: Int
        public var metrics: [MetricCount]
        public var funnel: [FunnelStep]
        public var timeToConversion: ConversionTime
    }

    /// One variation against the baseline on one metric.
    public struct Comparison: Sendable {
        public var variation: String
        public var baseline: String
        public var metric: String
        public var guardrail: Bool
        public var expected: Double
        public var ci: [Double]
        public var pValue: Double
        public var pValueAdjusted: Double
        public var chanceToWin: Double
        public var risk: [Double]
        public var error: String?
    }

    /// One experiment.
    public struct Experiment: Sendable {
        public var key: String
        public var primaryMetric: String?
        public var guardrails: [String]
        public var weights: [Double]
        public var srmPValue: Double?
        public var multipleExposureUnits: Int
        public var variations: [Variation]
        public var comparisons: [Comparison]
    }

    /// What was read.
    public struct Log: Sendable, Equatable {
        public var files: [String]
        public var lines: Int
        public var badLines: Int
        public var firstBadLines: [Int]
        public var tornFinalLine: Bool
    }

    public var experiments: [Experiment]
    public var log: Log
    public var alpha: Double
    public var correction: Correction
    /// Wall-clock seconds spent reading and computing.
    public var elapsedSeconds: Double
}

/// How p-values are adjusted for testing many variations × metrics.
public enum Correction: String, Sendable, CaseIterable {
    case none, holm, bh
}

/// The SRM p-value below which a sample ratio mismatch is flagged.
public let srmThreshold = 0.001
