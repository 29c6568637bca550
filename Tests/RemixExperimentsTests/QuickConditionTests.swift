import RemixExperiments
import Testing

/// A context's conditions of one text or simple-version test per field take a quick path; the
/// condition tree reads the attributes as given. Both must decide alike whatever the attributes
/// hold: missing, null, numbers, non-ASCII or long text, versions that are not simple.
@Suite struct QuickConditionTests {
    static let conditions: [AttributeValue] = [
        ["platform": "tablet"],
        ["platform": "tablet", "appVersion": ["$vgte": "2.0"]],
        ["platform": ["$ne": "phone"], "appVersion": ["$vlt": "10.1.0"]],
        ["platform": ["$eq": "tablet"], "country": "DE"],
        ["appVersion": ["$vgt": "1.2.3"], "build": ["$vlte": "1.2.3.4"]],
        ["appVersion": ["$veq": "2.0.0"]],
        ["appVersion": ["$vne": "1"]],
        ["platform": "exactly-sixteen!", "country": ["$ne": ""]],
        ["platform": "seventeen-bytes!!"],
        ["platform": "tablette", "appVersion": ["$vgte": "1.2.3.4.5"]],
        ["platformOfTheDevice": "tablet", "appVersion": ["$vgt": 2]],
        ["platformOfTheDevice": ["$ne": "phone"], "build": ["$vlt": "1234.1234.1234.1"]],
    ]
    static let platforms: [AttributeValue?] = [
        nil, .null, "tablet", "phone", "", "tablet ", "exactly-sixteen!", "seventeen-bytes!!", "tablé", 7, true, ["tablet"],
    ]
    static let versions: [AttributeValue?] = [
        nil, .null, "2.0", "2.0.0", "1.2.3", "1.2.3.4", "1.2.3.0", "10.1.0", "1.9.9", "1", "", "2.0.0-rc.1", "1.2.3.4.5",
        "v2", 2, "12345678901234567", "1234.1234.1234.1", "1234.1234.1234.2",
    ]
    static let countries: [AttributeValue?] = [nil, "DE", "", "de"]

    @Test func theQuickPathDecidesAsTheTreeDoes() {
        var compared = 0
        for source in Self.conditions {
            let condition = Condition(parsing: source)
            for platform in Self.platforms {
                for version in Self.versions {
                    for country in Self.countries {
                        var attributes: [String: AttributeValue] = ["id": "u1"]
                        attributes["platform"] = platform
                        attributes["platformOfTheDevice"] = platform
                        attributes["appVersion"] = version
                        attributes["build"] = version
                        attributes["country"] = country
                        #expect(condition.evaluate(in: AssignmentContext(attributes: attributes)) == condition.evaluate(attributes),
                                "\(source) on \(attributes)")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared == Self.conditions.count * Self.platforms.count * Self.versions.count * Self.countries.count)
    }

    /// Versions of one to four parts against operands of one to four parts, where the parts are
    /// equal up to the shorter one (three parts pad to `-~`, which sorts after a fourth part).
    @Test func versionsEqualUpToTheShorterOneOrderAsPaddedTextDoes() {
        let versions = ["1", "1.2", "1.2.3", "1.2.3.4", "1.2.3.0", "1.2.0", "1.10", "1.2.30", "1.2.3.4000"]
        for text in versions {
            let attributes: [String: AttributeValue] = ["appVersion": .string(text)]
            let context = AssignmentContext(attributes: attributes)
            for operand in versions {
                for name in ["$veq", "$vgt", "$vlt"] {
                    let condition = Condition(parsing: ["appVersion": .object([name: .string(operand)])])
                    #expect(condition.evaluate(in: context) == condition.evaluate(attributes), "\(text) \(name) \(operand)")
                }
            }
        }
    }
}
