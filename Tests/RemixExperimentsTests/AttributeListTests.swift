import RemixExperiments
import Testing

/// A context made from attributes as a list of pairs (what a simulation passes) decides as one
/// made from the same attributes as a dictionary; of pairs with one name, the last counts.
@Suite struct AttributeListTests {
    static let longName = "a-name-longer-than-sixteen-bytes"
    static let conditions: [AttributeValue] = [
        ["platform": "tablet"], ["platform": "phone"], ["country": ["$in": ["FR", "UK"]]],
        ["appVersion": ["$vgte": "1.9.0"]], ["appVersion": ["$vlt": "1.9.4"]], ["missing": ["$exists": false]],
        ["platform": ["$exists": true]], [.init(stringLiteral: longName): "a value longer than sixteen bytes"],
        [.init(stringLiteral: longName): ["$regex": "^a value"]], ["id": ["$ne": "u1"]],
        ["$or": [["platform": "phone"], ["country": "FR"]]], ["count": ["$gt": 3]],
    ]

    private func expectAlike(_ pairs: [(key: String, value: AttributeValue)], _ dictionary: [String: AttributeValue]) {
        let fromList = AssignmentContext(attributeList: pairs.map { Attribute($0.key, $0.value) })
        let fromDictionary = AssignmentContext(attributes: dictionary)
        #expect(fromList.attributes == dictionary)
        for condition in Self.conditions {
            let compiled = Condition(parsing: condition)
            #expect(compiled.evaluate(in: fromList) == compiled.evaluate(in: fromDictionary), "\(condition)")
            #expect(compiled.evaluate(in: fromList) == compiled.evaluate(dictionary), "\(condition)")
        }
    }

    @Test func aListDecidesAsTheDictionaryOfItsPairs() {
        let list: [(key: String, value: AttributeValue)] = [
            ("id", "u1"), ("platform", "tablet"), ("appVersion", "1.9.4"), ("country", "FR"),
            (Self.longName, "a value longer than sixteen bytes"), ("count", 5),
        ]
        expectAlike(list, Dictionary(list.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 }))
        expectAlike([], [:])
    }

    @Test func ofPairsWithOneNameTheLastCounts() {
        let list: [(key: String, value: AttributeValue)] = [
            ("platform", "phone"), ("id", "u1"), ("platform", "tablet"), (Self.longName, "first"),
            ("country", "UK"), (Self.longName, "a value longer than sixteen bytes"), ("country", "FR"),
            ("id", "u2"), ("appVersion", "2.0"), ("appVersion", "1.9.4"),
        ]
        let dictionary = Dictionary(list.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        #expect(dictionary["platform"] == "tablet")
        expectAlike(list, dictionary)
    }

    /// Past 42 attributes the index's table has more than 64 slots (a second word of its filled
    /// slots): every attribute is still found, repeated names keep their last value, and the
    /// table is freed whole.
    @Test func aLongListDecidesAsItsDictionary() {
        var pairs: [(key: String, value: AttributeValue)] = []
        for index in 0..<150 {
            let name = index % 3 == 0 ? "attribute number \(index) with a long name" : "a\(index)"
            pairs.append((name, index % 2 == 0 ? .string("v\(index)") : .number(Double(index))))
        }
        pairs += pairs.prefix(20).map { ($0.key, AttributeValue.string("again")) }
        let dictionary = Dictionary(pairs.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })
        let fromList = AssignmentContext(attributeList: pairs.map { Attribute($0.key, $0.value) })
        #expect(fromList.attributes == dictionary)
        for (name, value) in dictionary {
            let condition = Condition(parsing: .object([name: value]))
            #expect(condition.evaluate(in: fromList), "\(name)")
            #expect(!Condition(parsing: .object([name: "no such value"])).evaluate(in: fromList), "\(name)")
        }
    }
}
