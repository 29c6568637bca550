import Foundation
@testable import RemixAnalysis
import RemixLogReader
import RemixTestSupport
import Testing

/// An experiment's exposures take memory by its own units, not by the log's: many experiments of a
/// few units each read in little memory, and the common case stays a dense array read by index.
@Suite struct ExposureMemoryTests {
    /// `experiments` experiments of `units` units each, every unit exposed to one experiment.
    static func manyExperiments(_ experiments: Int, units: Int) throws -> String {
        var lines: [String] = []
        lines.reserveCapacity(experiments * units)
        for experiment in 0..<experiments {
            for unit in 0..<units {
                lines.append(AnalysisFixture.exposure("u\(experiment)-\(unit)", "exp-\(experiment)", unit % 2 == 0 ? "control" : "treatment",
                                                      id: unit % 2, at: 1))
            }
        }
        return try AnalysisFixture.log(lines)
    }

    /// 10 000 experiments × 4 units (a 10 MB log) under a 400 MB address-space limit: the exposures
    /// were once indexed by every unit of the log, 10 000 × 40 000 of them, and took 8.6 GB.
    /// (Not under a sanitizer, whose shadow memory alone passes any such limit: .ci/run leaves it out.)
    @Test func tenThousandExperimentsOfFourUnitsAreAnalysedWithin400MB() throws {
        let path = try Self.manyExperiments(10_000, units: 4)
        let result = try RemixProcess.run(["analyze", path, "--experiments", try AnalysisFixture.folder().path, "--format", "csv",
                                           "--jobs", "2"], addressSpaceKB: 400_000)
        #expect(result.status == 0, "\(result.stderr.suffix(600))")
        let rows = result.stdout.split(separator: "\n")
        #expect(rows.count == 1 + 10_000 * 2)
        #expect(rows.last?.hasPrefix("exp-9999,treatment,1,F1,2,advert_published,0,") == true)
    }

    /// The same shape in process: every experiment's storage stays within its units, and the
    /// counts are those of the log.
    @Test func eachExperimentsExposuresGrowWithItsOwnUnits() throws {
        let path = try Self.manyExperiments(500, units: 4)
        let tally = try LogReader.tally(paths: [path], tracked: [], timed: [], until: .max, kept: nil, keptFieldNames: [],
                                        jobs: 2, sizes: LogReader.Sizes(chunk: 4096, parallelMinimum: 0))
        #expect(tally.experiments.count == 500)
        for experiment in tally.experiments {
            #expect(experiment.exposures.count == 4)
            #expect(experiment.exposures.slotCount <= ExposureMap.density * 5 + ExposureMap.minimumSpan)
        }
        let report = try Analyzer.run(AnalysisOptions(logs: [path], jobs: 2))
        #expect(report.experiments.count == 500 && report.experiments.allSatisfy { $0.variations.map(\.units) == [2, 2] })
    }

    /// Dense while the units exposed are a good share of the span of their ids, whichever order
    /// they come in; a table of the exposed units past it; the same units, slots and order either way.
    @Test func aMapIsDenseForACommonExperimentAndSparseForAScatteredOne() {
        var common = ExposureMap()
        for unit in (1000..<2000).reversed() where unit % 3 != 0 { common.add(unit: unit, variation: Int32(unit % 2), first: Int64(unit)) }
        #expect(!common.isSparse && common.count == 667 && common.slotCount <= 2000)
        var scattered = ExposureMap()
        for unit in stride(from: 0, to: 1_000_000, by: 1000) { scattered.add(unit: unit, variation: 0, first: 5) }
        scattered.add(unit: 7000, variation: 1, first: 3)
        #expect(scattered.isSparse && scattered.count == 1000 && scattered.slotCount == 1000)
        var seen: [Int] = []
        scattered.forEach { unit, slot, exposure in
            seen.append(unit)
            #expect(scattered.exposure(of: unit)?.slot == slot)
            #expect(exposure.variation == (unit == 7000 ? LogTally.Exposure.multiple : 0))
            #expect(exposure.first == (unit == 7000 ? 3 : 5))
        }
        #expect(seen == Array(stride(from: 0, to: 1_000_000, by: 1000)))
        #expect(scattered.exposure(of: 7001) == nil && common.exposure(of: 999) == nil && common.exposure(of: 1002) == nil)
        var units: [Int] = []
        common.forEach { unit, _, _ in units.append(unit) }
        #expect(units == (1000..<2000).filter { $0 % 3 != 0 })
    }
}
