import Foundation
import RemixTestSupport
import Testing

/// Fixed runs of `remix simulate` give logs whose SHA-256 was computed on the code before the
/// performance work of issue 33 and committed here: a speed-up must leave every byte as it was.
/// A change meant to alter logs (a new field, another decision) updates these on purpose and says
/// so; a change to the default experiments or populations changes them too.
@Suite struct LogChecksumTests {
    @Test func sha256MatchesTheStandardsTestVectors() {
        #expect(sha256Hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(sha256Hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(sha256Hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    static let runs: [(arguments: [String], sha256: String)] = [
        (["--app", "marketplace", "--users", "300", "--seed", "7", "--jobs", "1"],
         "475e90f87914b7fae9fa2fa9700ff026d98d6bfe65d8c784e8a99104056c38bb"),
        (["--app", "marketplace", "--users", "300", "--seed", "7", "--jobs", "2"],
         "475e90f87914b7fae9fa2fa9700ff026d98d6bfe65d8c784e8a99104056c38bb"),
        (["--app", "calculator", "--users", "300", "--seed", "5", "--jobs", "1"],
         "7354d876fdd1857e9a2d67a1745afc2fb192eab66796558c63fe3704f6376754"),
        (["--app", "groupbrowser", "--users", "300", "--seed", "5", "--jobs", "2"],
         "0d1d62ce16dae438d6bd4b4808c9359d5b72943ff800019df6a416d595fa6151"),
    ]

    @Test(arguments: runs.indices) func theLogOfAFixedRunKeepsItsChecksum(run: Int) async throws {
        let folder = try TemporaryFolder()
        let (arguments, expected) = Self.runs[run]
        let path = folder.path("log.jsonl")
        let result = await Remix.run(["simulate"] + arguments + ["--no-report", "--log", path])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(bytes.count > 50_000)
        #expect(sha256Hex(bytes) == expected, "remix simulate \(arguments.joined(separator: " "))")
    }
}
