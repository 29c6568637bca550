import Foundation
import RemixBuiltIns
import RemixHost
import RemixKit
import RemixTestSupport
import Testing

/// What the registry declares about each event is what the log holds: a tool that reads fields by
/// their declared names (`remix features`, metrics, fits) finds them in the lines.
@Suite struct DeclaredFieldsTests {
    @Test func everyDeclaredEventCarriesExactlyItsDeclaredFields() throws {
        let folder = try TemporaryFolder()
        let log = folder.path("events.jsonl")
        try Fixture.run(sessions: 400, to: log)
        let declared = Dictionary(try BuiltInModules.registry().declaredEvents.map { ($0.name, Set($0.fields)) },
                                  uniquingKeysWith: { first, _ in first })
        let common: Set<String> = ["ts", "type", "session", "user"]
        var logged: [String: Set<String>] = [:]
        for line in try readLog(log) where declared[line.type] != nil {
            logged[line.type, default: []].formUnion(Set(line.object.keys).subtracting(common))
        }
        for (type, fields) in logged.sorted(by: { $0.key < $1.key }) {
            #expect(fields == declared[type], "\(type): logged \(fields.sorted()), declared \(declared[type]?.sorted() ?? [])")
        }
        let checked = Set(logged.keys)
        #expect(checked.isSuperset(of: ["run", "session_started", "screen", "exposure", "session_ended"]),
                "checked \(checked.sorted())")
    }
}
