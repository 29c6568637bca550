import Foundation
import RemixBuiltIns
import RemixExperiments
import RemixHost
import RemixCLITestSupport
import RemixTestSupport
import Testing

/// Finding room in a namespace: the map of taken and free slices, the overlap error that names
/// them, and `remix validate --namespaces`.
@Suite struct NamespaceMapTests {
    @Test func theShippedExperimentsLeaveRoom() throws {
        let report = ExperimentValidation.run(paths: [Fixture.shippedExperiments], registry: try BuiltInModules.registry())
        let map = NamespaceMap(report.experiments.definitions)
        #expect(map.lines == ["insertion: [0, 0.5) insertion-flow, [0.5, 0.6) free, [0.6, 0.8) tablet-auto-message, "
                              + "[0.8, 1) uk-manual-first"])
        #expect(map.free(in: "insertion").map { [$0.start, $0.end] } == [[0.5, 0.6]])
        #expect(map.free(in: "unused").map { [$0.start, $0.end] } == [[0, 1]])
    }

    @Test func theOverlapErrorSaysWhatIsTakenAndWhatIsFree() throws {
        let errors = try ExperimentValidationTests.overlaps("namespace: [ns, 0, 0.4]", "namespace: [ns, 0.3, 0.8]")
        #expect(errors.count == 1)
        #expect(errors.first?.hasSuffix("; in namespace 'ns' the others take [0, 0.4) a; free: [0.4, 1)") == true,
                "\(errors)")
        let full = try ExperimentValidationTests.overlaps("namespace: [ns, 0, 1]", "namespace: [ns, 0.3, 0.8]")
        #expect(full.first?.hasSuffix("the others take [0, 1) a and leave no free range: narrow one of them to make room") == true,
                "\(full)")
    }

    @Test func validateShowsTheMap() async throws {
        let result = await RemixInProcess.run(["validate", Fixture.shippedExperiments, "--namespaces"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == """
            namespaces:
              insertion: [0, 0.5) insertion-flow, [0.5, 0.6) free, [0.6, 0.8) tablet-auto-message, [0.8, 1) uk-manual-first
            5 experiments, 0 errors, 0 warnings

            """)
    }
}
