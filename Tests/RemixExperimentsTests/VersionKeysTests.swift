import RemixExperiments
import Testing

/// A context prepares the keys of each short simple version among its attributes, and a version
/// test compares those keys; the condition tree compares GrowthBook's padded strings. Both must
/// decide alike for every kind of version text and operand.
@Suite struct VersionKeysTests {
    static let texts = [
        "1", "2", "2.0", "2.0.0", "2.3.1", "10.1.0", "1.9.9", "0.0.1", "0.0.0", "2.0.0.0", "1.2.3.4", "1.2.3.4.5",
        "9999.1", "10000.1", "1-2-3", "1.2-3", "2.0.0-rc", "2.0.0-rc.1", "2.", ".2", "", "a.b", "01.2", "1..2",
        "v1.2", "1.2.3.4.5.6.7", "1.2.3.4.5.6.7.8", "1234.5678.9012.3", "1234567890123456", "12345678901234567",
        "1.2.3.4.5.6.7.8.9", " 1.2", "1.2 ", "2.0.0+build", "1.0.0-0", "3.0.0-~",
    ]
    static let operands = ["2.0", "1.9.9", "10.1.0", "2.0.0-rc.1", "1", "1.2.3.4", "1.2.3.4.5", "0", "2.0.0", "1.2.3"]
    static let operators = ["$veq", "$vne", "$vgt", "$vgte", "$vlt", "$vlte"]

    @Test func preparedKeysDecideAsPaddedVersionsDo() {
        var compared = 0
        for text in Self.texts {
            let attributes: [String: AttributeValue] = ["id": "u1", "appVersion": .string(text)]
            let context = AssignmentContext(attributes: attributes)
            for operand in Self.operands {
                for name in Self.operators {
                    let condition = Condition(parsing: ["appVersion": .object([name: .string(operand)])])
                    #expect(condition.evaluate(in: context) == condition.evaluate(attributes),
                            "\(text) \(name) \(operand)")
                    compared += 1
                }
            }
        }
        #expect(compared == Self.texts.count * Self.operands.count * Self.operators.count)
    }

    /// With another field first, as the targeting conditions of experiment files are written.
    @Test func aVersionBesideATextTestDecidesAlike() {
        for text in Self.texts {
            for platform in ["tablet", "phone"] {
                let attributes: [String: AttributeValue] = ["id": "u1", "platform": .string(platform), "appVersion": .string(text)]
                let condition = Condition(parsing: ["platform": "tablet", "appVersion": .object(["$vgte": "2.0"])])
                #expect(condition.evaluate(in: AssignmentContext(attributes: attributes)) == condition.evaluate(attributes), "\(platform) \(text)")
            }
        }
    }
}
