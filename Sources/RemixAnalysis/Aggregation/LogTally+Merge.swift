extension LogTally {
    /// Adds `other` (a tally of another part of the log, or another log) into this one, matching
    /// units, experiments and variations by their exact bytes. `other`'s bad lines are shifted by
    /// `lineOffset` and named after `path` when they have no file yet.
    mutating func merge(_ other: LogTally, path: String, lineOffset: Int) {
        var unitMap = [Int](repeating: 0, count: other.users.count)
        for unit in 0..<other.users.count {
            unitMap[unit] = other.users.withBytes(unit) { users.intern($0) }
        }
        for index in tracked.indices {
            for (unit, last) in other.lastTimes[index].enumerated() where last != .min {
                LogTally.ensure(&lastTimes[index], unitMap[unit], .min)
                lastTimes[index][unitMap[unit]] = max(lastTimes[index][unitMap[unit]], last)
            }
            if let theirs = other.earliestTimes[index] { earliestTimes[index]?.merge(theirs, unitMap: unitMap) }
        }
        screens.merge(other.screens, unitMap: unitMap)
        if let theirs = other.kept { kept?.merge(theirs, unitMap: unitMap) }
        for experiment in 0..<other.experiments.count {
            let id = other.experimentNames.withBytes(experiment) { experimentID($0) }
            mergeExperiment(other.experiments[experiment], into: id, unitMap: unitMap)
        }
        lines += other.lines
        latestTime = max(latestTime, other.latestTime)
        badLineCount += other.badLineCount
        for bad in other.badLines where badLines.count < Self.badLinesKept {
            badLines.append(bad.path.isEmpty ? BadLine(path: path, line: bad.line + lineOffset, reason: bad.reason) : bad)
        }
        tornFiles += other.tornFiles.map { $0.isEmpty ? path : $0 }
        runLines += other.runLines.prefix(max(Self.runLinesKept - runLines.count, 0))
    }

    /// Makes this tally of the first part of `path` the whole a merge into an empty tally would
    /// give: its bad lines and a torn end named after `path`, its kept events allowed `keptLimit`.
    mutating func becomeWhole(path: String, keptLimit: Int?) {
        badLines = badLines.map { $0.path.isEmpty ? BadLine(path: path, line: $0.line, reason: $0.reason) : $0 }
        tornFiles = tornFiles.map { $0.isEmpty ? path : $0 }
        if let keptLimit { kept?.allow(keptLimit) }
    }

    private mutating func mergeExperiment(_ theirs: ExperimentTally, into id: Int, unitMap: [Int]) {
        var variationMap = [Int32](repeating: 0, count: theirs.variations.count)
        for index in 0..<theirs.variations.count {
            let before = experiments[id].variations.count
            let mine = theirs.variations.withBytes(index) { experiments[id].variations.intern($0) }
            if mine == before {
                experiments[id].variationIDs.append(theirs.variationIDs[index])
                experiments[id].features.append(theirs.features[index])
            } else if experiments[id].features[mine].isEmpty {
                experiments[id].features[mine] = theirs.features[index]
            }
            variationMap[index] = Int32(mine)
        }
        theirs.exposures.forEach { unit, _, exposure in
            let variation = exposure.variation == Exposure.multiple ? Exposure.multiple : variationMap[Int(exposure.variation)]
            experiments[id].exposures.add(unit: unitMap[unit], variation: variation, first: exposure.first)
        }
    }

    /// Records the feature of a variation the first time it is seen.
    mutating func noteFeature(_ feature: UnsafeBufferPointer<UInt8>, experiment: UnsafeBufferPointer<UInt8>,
                              variation: UnsafeBufferPointer<UInt8>) {
        guard let id = experimentNames.find(experiment), let index = experiments[id].variations.find(variation),
              experiments[id].features[index].isEmpty else { return }
        experiments[id].features[index] = String(decoding: feature, as: UTF8.self)
    }
}
