import Foundation
import RemixHost
import RemixKit
@testable import RemixSimulation
import RemixTestSupport
import Testing

/// Personas that arrive through a route (a link): read with positioned problems, opened through
/// the features as taps would, said in `session_started`, deterministic, and absent from the logs
/// of populations without them.
@Suite struct ArrivalTests {
    /// The shipped population with `arrivals` added to its first persona.
    static func population(arrivals: String) throws -> String {
        let text = try String(contentsOfFile: Fixture.populationPath, encoding: .utf8)
        let persona = try #require(text.range(of: "  - name: decisive seller"))
        let lineEnd = try #require(text[persona.upperBound...].firstIndex(of: "\n"))
        return String(text[...lineEnd]) + "    arrivals: \(arrivals)\n" + String(text[text.index(after: lineEnd)...])
    }

    @Test func arrivalsAreReadWithTheirProblemsPositioned() throws {
        let (population, problems) = PopulationFile.parse(
            try Self.population(arrivals: #"[{route: "adverts > *", share: 0.3}, {route: "adverts > groups", share: 0.2}]"#),
            file: "p.yaml")
        #expect(problems.isEmpty, "\(problems)")
        let arrivals = try #require(population?.personas.first?.arrivals)
        #expect(arrivals.map(\.route.description) == ["adverts > *", "adverts > groups"] && arrivals.map(\.share) == [0.3, 0.2])
        for (arrivals, message) in [
            (#"[{route: "adverts > groups(Bikes", share: 0.3}]"#, "is not a route"),
            (#"[{route: "adverts > *", share: 0.7}, {route: "adverts", share: 0.5}]"#, "shares add up to more than 1"),
            (#"[{route: "adverts > *", shares: 0.3}]"#, "unknown key 'shares' in an arrival; did you mean 'share'?"),
            (#"[{route: "adverts > *", share: 2}]"#, "share"),
        ] {
            let found = PopulationFile.parse(try Self.population(arrivals: arrivals), file: "p.yaml").1.map(\.description)
            #expect(found.contains { $0.hasPrefix("p.yaml:") && $0.contains(message) }, "\(arrivals): \(found)")
        }
    }

    /// Half the decisive sellers land in the insertion flow (whichever feature fills the slot);
    /// the sessions say so, their first screens are the route's, their exposures are logged as
    /// for a tap, and the logs are the same with one or two threads.
    @Test func sessionsArriveThroughTheRouteAndSaySo() throws {
        let folder = try TemporaryFolder()
        let population = try Fixture.population(yaml: try Self.population(arrivals: #"[{route: "adverts > *", share: 0.5}]"#))
        let one = folder.path("one.jsonl"), two = folder.path("two.jsonl")
        try Fixture.run(sessions: 400, population: population, to: one)
        try Fixture.run(sessions: 400, jobs: 2, population: population, to: two)
        #expect(FileManager.default.contentsEqual(atPath: one, andPath: two))
        let sessions = sessions(try readLog(one))
        var arrived = 0, started = 0, continued = 0, published = 0
        for (_, lines) in sessions {
            guard let start = lines.first(where: { $0.type == "session_started" }) else { continue }
            let arrival = try #require(start.string("arrival"), "every session says how it arrived: \(start.text)")
            let screens = lines.filter { $0.type == "screen" }.compactMap { $0.string("stack") }
            if arrival == "adverts > *" {
                arrived += 1
                #expect(start.string("persona") == "decisive seller")
                // The first screen, then the slot's first screen (in the platform's layout).
                #expect(screens.count >= 2 && screens[0].hasPrefix("adverts") && screens[1].count > screens[0].count,
                        "\(screens)")
                // Most go on in the flow from there (some give up, as users do).
                if screens.count >= 3, screens[2].count >= screens[1].count - 1 { continued += 1 }
                if lines.contains(where: { $0.type == "advert_published" }) { published += 1 }
                #expect(lines.contains { $0.type == "exposure" }, "arriving in the slot's flow uses the slot")
            } else {
                #expect(arrival == "start")
                started += 1
            }
        }
        #expect(arrived > 50 && started > 200, "arrived \(arrived), started \(started)")
        #expect(continued * 2 > arrived && published * 2 > arrived, "of \(arrived): \(continued) went on, \(published) published")
    }

    @Test func populationsWithoutArrivalsLogAsBefore() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("plain.jsonl")
        try Fixture.run(sessions: 200, to: path)
        #expect(try readLog(path).allSatisfy { $0.type != "session_started" || $0["arrival"] == nil })
    }

    @Test func aRouteTheAppCannotOpenIsAPositionedErrorAndExitOne() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("arrive.yaml", try Self.population(arrivals: #"[{route: "adverts > nowhere", share: 1}]"#))
        let result = await Remix.run(["simulate", "--population", file, "--users", "20", "--no-report", "--log", folder.path("e.jsonl")])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(file):") && result.stderr.contains("persona 'decisive seller' arrives through 'adverts > nowhere'"),
                "\(result.stderr)")
    }
}
