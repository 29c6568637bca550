import RemixExperiments
import Testing

/// The experiments of a set found by the app and slot they fill.
@Suite struct ExperimentSetTests {
    @Test(arguments: [3, 40])
    func experimentsAreFoundBySlotInKeyOrderHoweverManySlotsThereAre(slots: Int) throws {
        var definitions: [ExperimentDefinition] = []
        for slot in 0..<slots {
            for key in ["b", "a"] {
                definitions.append(try Fixture.definition(Fixture.experiment("\(key)\(slot)", slot: "slot\(slot)")))
            }
        }
        definitions.append(try Fixture.definition(Fixture.experiment("other", app: "groupbrowser", slot: "slot0")))
        let set = ExperimentSet(definitions: definitions)
        for slot in 0..<slots {
            let keys: [String] = set.definitions(app: "marketplace", slot: "slot\(slot)").map(\.key)
            let expectedKeys: [String] = ["a\(slot)", "b\(slot)"]
            #expect(keys == expectedKeys)
        }
        #expect(set.definitions(app: "groupbrowser", slot: "slot0").map(\.key) == ["other"])
        #expect(set.definitions(app: "groupbrowser", slot: "slot1").isEmpty)
        #expect(set.definitions(app: "calculator", slot: "slot0").isEmpty)
    }
}
