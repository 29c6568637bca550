import RemixAnalysis
import RemixExperiments
import RemixLogReader
import RemixTestSupport
import Testing

/// The passes that read a few log lines whole (bandit updates and the events a bandit counts,
/// rollout decisions) read them with the host's JSON reader: numbers exactly as written, booleans
/// apart from numbers.
@Suite struct LogLineObjectTests {
    /// A weight Foundation's `JSONSerialization` on Linux reads one unit in the last place off.
    static let weight = "0.8599999999999999"

    static func update(weight: String) -> String {
        #"{"ts":"2026-11-23T10:00:00.000Z","type":"bandit_update","session":"","user":"","experiment":"b","update":2,"#
            + #""enoughUnits":false,"srmPValue":1,"arms":[{"variation":"a","units":40,"weight":"# + weight
            + #","bestProbability":0.9,"posterior":{"mean":0.25,"sd":0.5}},{"variation":"c","units":41,"weight":0.14}]}"#
    }

    @Test func aBanditUpdateReadsItsNumbersExactly() throws {
        let object = try #require(LogLineObject.parse(Array(Self.update(weight: Self.weight).utf8)))
        let update = try #require(BanditUpdate(line: object))
        #expect(update.arms.map(\.weight) == [Double(Self.weight)!, 0.14])
        #expect(update.arms.map(\.units) == [40, 41])
        #expect(update.update == 2 && !update.enoughUnits && update.srmPValue == 1)
        #expect(update.arms[0].posterior == BanditPosterior(mean: 0.25, sd: 0.5) && update.arms[1].posterior == nil)
    }

    @Test func theLatestWeightsOfALogAreTheWrittenOnes() throws {
        let folder = try TemporaryFolder()
        let log = try folder.write("log.jsonl", Self.update(weight: "0.5") + "\n" + Self.update(weight: Self.weight) + "\n")
        #expect(try BanditReport.latestWeights(path: log) == ["b": [Double(Self.weight)!, 0.14]])
    }

    @Test func wholeNumbersMetricValuesAndNonObjects() {
        #expect(LogLineObject.integer(.number(3)) == 3)
        #expect(LogLineObject.integer(.number(3.5)) == nil)
        #expect(LogLineObject.integer(.bool(true)) == nil)
        #expect(LogLineObject.metricValue(.number(2.5)) == 2.5)
        #expect(LogLineObject.metricValue(.bool(true)) == 1 && LogLineObject.metricValue(.bool(false)) == 0)
        #expect(LogLineObject.metricValue(.string("3")) == 0 && LogLineObject.metricValue(nil) == 0)
        #expect(LogLineObject.parse(Array("[1,2]".utf8)) == nil)
        #expect(LogLineObject.parse(Array("{\"a\":".utf8)) == nil)
    }

    @Test func anUpdateWithAnArmThatIsNotAnObjectIsNotOne() throws {
        let line = #"{"type":"bandit_update","experiment":"b","update":1,"arms":[{"variation":"a","weight":1},2]}"#
        #expect(BanditUpdate(line: try #require(LogLineObject.parse(Array(line.utf8)))) == nil)
    }
}
