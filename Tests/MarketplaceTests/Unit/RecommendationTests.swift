import Classifieds
import Marketplace
import RemixKit
import Testing

/// The keyword group recommendation (seed §2.2): the first rule in table order whose keyword is in
/// the lower-cased title wins; otherwise the default; the answer comes after a delay on the clock.
@Suite("Keyword group recommendation")
struct RecommendationTests {
    func service(_ table: RecommendationTable = SampleData.recommendations, clock: VirtualClock = VirtualClock(),
                 delay: Duration = .seconds(2)) -> KeywordGroupRecommendationService {
        KeywordGroupRecommendationService(table: table, clock: clock, delay: delay)
    }

    @Test(arguments: [
        ("Mountain bike", "4"), ("racing bike", "5"), ("BMX bike", "3"), ("Racing car", "5"),
        ("Carbon bike", "3"), ("Oscar's pram", "10"), ("sofa", "10"), ("TRUCK for sale", "10"), ("", "10"),
    ])
    func marketplaceTableExamples(title: String, group: String) {
        #expect(service().recommendation(for: title) == group)
    }

    @Test func tableOrderIsThePriorityNotThePositionInTheTitle() {
        let carsFirst = RecommendationTable(
            rules: [.init(keyword: "car", groupID: "10"), .init(keyword: "racing", groupID: "5")], defaultGroupID: "0")
        #expect(service(carsFirst).recommendation(for: "Racing car") == "10")
        #expect(service(carsFirst).recommendation(for: "car racing") == "10")
        #expect(service().recommendation(for: "car racing") == "5")
    }

    @Test func keywordsMatchCaseInsensitivelyAsSubstrings() {
        let table = RecommendationTable(rules: [.init(keyword: "Bike", groupID: "3")], defaultGroupID: "0")
        #expect(service(table).recommendation(for: "MOTORBIKES") == "3")
        #expect(service(table).recommendation(for: "bicycle") == "0")
    }

    @Test func titlesAndKeywordsBeyondPrintableASCIIMatchAsTheyRead() {
        let table = RecommendationTable(
            rules: [.init(keyword: "vélo", groupID: "1"), .init(keyword: "cafe\u{301}", groupID: "2"), .init(keyword: "bike", groupID: "3")],
            defaultGroupID: "0")
        #expect(service(table).recommendation(for: "Vieux VÉLO de course") == "1")
        // Canonically equal: "é" written as one character or as "e" and an accent.
        #expect(service(table).recommendation(for: "machine à café") == "2")
        #expect(service(table).recommendation(for: "bike\ttrailer") == "3")
        #expect(service(table).recommendation(for: "a long title about a road bike, barely used, with lights") == "3")
        #expect(service(table).recommendation(for: "bik") == "0")
    }

    @Test func noMatchGivesTheDefaultEvenWithAnEmptyTable() {
        #expect(service(RecommendationTable(rules: [], defaultGroupID: "7")).recommendation(for: "anything") == "7")
    }

    @Test func answerArrivesAfterTheDelayOnTheClock() {
        let clock = VirtualClock()
        let recommender = service(clock: clock)
        var answers: [GroupID] = []
        recommender.recommendGroup(for: "Mountain bike") { answers.append($0) }
        #expect(answers.isEmpty)
        #expect(clock.nextDue == .seconds(2))
        clock.advance(by: .milliseconds(1999))
        #expect(answers.isEmpty)
        clock.advance(by: .milliseconds(1))
        #expect(answers == ["4"])
    }

    @Test func delayCanBeChanged() {
        let clock = VirtualClock()
        let recommender = service(clock: clock, delay: .milliseconds(500))
        var answers: [GroupID] = []
        recommender.recommendGroup(for: "sofa") { answers.append($0) }
        clock.advance(by: .milliseconds(499))
        #expect(answers.isEmpty)
        clock.advance(by: .milliseconds(1))
        #expect(answers == ["10"])
        recommender.delay = .zero
        recommender.recommendGroup(for: "bike") { answers.append($0) }
        clock.advance(by: .zero)
        #expect(answers == ["10", "3"])
    }

    @Test func sessionRecommenderUsesTheCatalogTableAndTheSessionClock() throws {
        let app = try MarketplaceDriver(start: false)
        let recommender = try app.session.environment.services.resolve(KeywordGroupRecommendationService.self)
        #expect(recommender.recommendation(for: "Oscar's pram") == "10")
        var answer: GroupID?
        recommender.recommendGroup(for: "racing bike") { answer = $0 }
        app.clock.advance(by: .seconds(2))
        #expect(answer == "5")
    }
}
