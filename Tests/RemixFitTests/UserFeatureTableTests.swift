import Foundation
@testable import RemixFit
import RemixKit
import Testing

/// The users' numbers: what is added is what is read back, whether a user stayed open, was packed
/// when others took the open rows, or came back and was unpacked — and the mixture reads the
/// same pairs after packing, sampling and compaction.
@Suite struct UserFeatureTableTests {
    static let layout = FeatureLayout(intents: 2, screens: 3)

    /// Adds random counts for 300 users in an interleaved order to a table with `openCapacity`
    /// open rows and to a plain dense copy; returns both.
    static func filled(openCapacity: Int) -> (table: UserFeatureTable, dense: [[Float]]) {
        var table = UserFeatureTable(layout: layout, openCapacity: openCapacity)
        var dense: [[Float]] = []
        var random = SeededGenerator(seed: 9)
        for _ in 0..<4_000 {
            let user = Int(random.next() % 300)
            let row = table.row(of: "u\(user)")
            while dense.count <= row { dense.append(Array(repeating: 0, count: layout.width)) }
            let column = Int(random.next() % UInt64(layout.width))
            table[row, column] += 1
            dense[row][column] += 1
        }
        return (table, dense)
    }

    @Test(arguments: [1, 7, 4096])
    func whatIsAddedIsReadBackBeforeAndAfterPacking(openCapacity: Int) {
        var (table, dense) = Self.filled(openCapacity: openCapacity)
        for row in dense.indices {
            #expect((0..<Self.layout.width).map { table[row, $0] } == dense[row], "row \(row) while open or packed")
        }
        table.packAll()
        for row in dense.indices {
            let pairs = table.withPairs(row) { columns, values in columns.indices.map { (Int(columns[$0]), values[$0]) } }
            let expected = dense[row].enumerated().filter { $0.element != 0 }.map { ($0.offset, $0.element) }
            #expect(pairs.map(\.0) == expected.map(\.0) && pairs.map(\.1) == expected.map(\.1), "row \(row) packed")
        }
        let sample = table.sample([5, 17, 299])
        #expect(sample.count == 3)
        for (index, row) in [5, 17, 299].enumerated() {
            #expect((0..<Self.layout.width).map { sample[index, $0] } == dense[row])
        }
    }

    /// A packed table holds a handful of bytes per number a user has, not the layout's width.
    @Test func memoryFollowsTheNumbersUsersHave() {
        var table = UserFeatureTable(layout: FeatureLayout(intents: 4, screens: 40), openCapacity: 16)
        for user in 0..<20_000 {
            let row = table.row(of: "user-\(user)")
            table.addSession(row: row, start: Int64(user) * 1000)
            table[row, table.layout.survived(user % 40)] += 1
        }
        table.packAll()
        #expect(table.layout.width * 4 > 700, "a dense row would take \(table.layout.width * 4) bytes")
        #expect(table.bytesPerUser < 60, "\(table.bytesPerUser) bytes a user")
    }
}
