import RemixExperiments
import Testing

/// Results refer to interned variation reports without counting references; past the interning
/// limit, a result holds its report itself. Either way a result outlives its experiment.
@Suite("Variation reports")
struct VariationReportTests {
    let engine = AssignmentEngine()
    let user = AssignmentContext(attributes: ["id": "42"])

    /// The result of an experiment that is gone by the time the result is read.
    private func resultOfDroppedExperiment(_ key: String) -> AssignmentResult {
        let experiment = Experiment(key: key, variations: [.string("\(key)-a"), .string("\(key)-b")], hashVersion: 2,
                                    meta: [.init(key: "\(key)-first"), .init(key: "\(key)-second")])
        return engine.run(experiment, context: user)
    }

    private func expectReported(_ result: AssignmentResult, _ key: String) {
        #expect(result.experimentKey == key)
        #expect(result.value == .string("\(key)-\(result.variationId == 0 ? "a" : "b")"))
        #expect(result.key == "\(key)-\(result.variationId == 0 ? "first" : "second")")
        #expect(result.hashAttribute == "id" && result.hashValue == "42")
    }

    @Test("equal experiments report alike, and a result outlives its experiment")
    func internedReports() {
        let first = resultOfDroppedExperiment("interned"), second = resultOfDroppedExperiment("interned")
        #expect(first == second)
        expectReported(first, "interned")
    }

    @Test("past the interning limit, reports are held by their results", .timeLimit(.minutes(1)))
    func pastTheLimit() {
        // Two reports an experiment: this many distinct experiments fill the table, whatever
        // other tests of this process interned before.
        var results: [AssignmentResult] = []
        for index in 0...(65_536 / 2) {
            let result = resultOfDroppedExperiment("limit-\(index)")
            if index % 1024 == 0 || index == 65_536 / 2 { results.append(result) }
        }
        for (number, result) in results.enumerated() {
            let index = number == results.count - 1 ? 65_536 / 2 : number * 1024
            expectReported(result, "limit-\(index)")
        }
    }
}
