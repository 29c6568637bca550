import Testing

/// Whether the event-store tests have a PostgreSQL server. Under `CI=true` they must: without one,
/// the database suites skip and this suite fails once, saying what is missing and how to give it.
@Suite struct StoreServerPresenceTests {
    @Test func underCIAServerIsGiven() {
        #expect(StoreServer.availability != .missingUnderCI, Comment(rawValue: StoreServer.missingUnderCI))
    }

    @Test func withoutAServerTheDatabaseTestsSkipAndCIFailsOnlyHere() {
        let url = "postgresql://remix:pw@127.0.0.1:5432/remix"
        #expect(StoreServer.Availability(["CI": "true"]) == .missingUnderCI)
        #expect(StoreServer.Availability(["CI": "1", "REMIX_TEST_POSTGRES_URL": ""]) == .missingUnderCI)
        #expect(StoreServer.Availability([:]) == .absent)
        #expect(StoreServer.Availability(["CI": "true", "REMIX_TEST_POSTGRES_URL": url]) == .given(url))
        #expect(!StoreServer.Availability(["CI": "true"]).runsDatabaseTests, "one failure, not one per database test")
        #expect(!StoreServer.Availability([:]).runsDatabaseTests)
        #expect(StoreServer.Availability(["REMIX_TEST_POSTGRES_URL": url]).runsDatabaseTests)
        #expect(StoreServer.missingUnderCI.contains("`.ci/with-postgres swift test`")
                && StoreServer.missingUnderCI.contains("REMIX_TEST_POSTGRES_URL="))
    }
}
