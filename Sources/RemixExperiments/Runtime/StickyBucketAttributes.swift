extension ExperimentSet {
    /// The hash and fallback attributes of the experiments, in file order without repeats: the
    /// attributes whose sticky-bucket documents evaluating them may read.
    package var stickyBucketAttributes: [String] {
        var names: [String] = []
        for definition in definitions {
            let experiment = definition.experiment
            for name in [experiment.hashAttribute.flatMap { $0.isEmpty ? nil : $0 } ?? "id", experiment.fallbackAttribute ?? ""]
            where !name.isEmpty && !names.contains(name) { names.append(name) }
        }
        return names
    }
}
