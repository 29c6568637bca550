import GrowthBookAssignment
import RemixFormats

/// A log line read whole as a JSON object, for the passes that need a few lines' every member
/// (bandit updates, rollout decisions, the events a bandit counts): the host's one JSON reader, so
/// numbers read exactly as the event-log writer wrote them and booleans stay apart from numbers
/// (Foundation's `JSONSerialization` on Linux can read a number one unit in the last place off).
package enum LogLineObject {
    /// The members of `line` when it is one JSON object; nil when it is anything else.
    package static func parse<Bytes: Sequence<UInt8>>(_ line: Bytes) -> [String: AttributeValue]? {
        (try? JSONReader<AttributeValue>.parse(Array(line)))?.objectValue
    }

    /// A JSON number that is a whole `Int`; nil for a fraction or any other value.
    package static func integer(_ value: AttributeValue?) -> Int? {
        value?.numberValue.flatMap { Int(exactly: $0) }
    }

    /// A number as a metric value: a JSON number as it is, `true` as 1 and `false` as 0, anything
    /// else 0 (a field that is missing or not a number adds nothing).
    package static func metricValue(_ value: AttributeValue?) -> Double {
        switch value {
        case .number(let number)?: return number
        case .bool(let flag)?: return flag ? 1 : 0
        default: return 0
        }
    }
}
