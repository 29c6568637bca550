import RemixFormats
import RemixKit

/// Event values read back from a log line by the host's JSON reader (`remix log copy`): integers
/// stay integers and other numbers doubles, read exactly, so a copied event holds what was logged.
extension EventValue: JSONReadable {
    /// A whole number that fits an `Int` as `.int`, any other as `.double`.
    package static func number(_ value: Double, integer: Int?) -> EventValue {
        integer.map(EventValue.int) ?? .double(value)
    }

    /// An object's members as fields in the order of their names.
    package static func object(members: [String: EventValue]) -> EventValue {
        .object(members.sorted { $0.key < $1.key }.map { EventField($0.key, $0.value) })
    }
}
