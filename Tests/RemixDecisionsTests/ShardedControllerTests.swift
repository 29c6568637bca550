import Foundation
import RemixApp
import Testing

/// Shards of a run that follows a rollout meet in an event store; into files they are refused.
@Suite struct ShardedControllerTests {
    @Test func shardsOfARolloutIntoAFileAreRefusedSayingToUseAnEventStore() async throws {
        let fixture = try RolloutFixture()
        defer { fixture.remove() }
        var simulate = Simulate()
        simulate.users = 100
        simulate.experiments = fixture.folder.path
        simulate.log = fixture.log
        simulate.report = false
        simulate.shard = "1/2"
        await #expect {
            _ = try await simulate.run(NoticeLog().context(cores: 2))
        } throws: { error in
            let text = "\(error)"
            return text.contains("share only through an event store") && text.contains("--log postgresql://")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.log) || (try? Data(contentsOf: URL(fileURLWithPath: fixture.log)))?.isEmpty == true)
    }
}
