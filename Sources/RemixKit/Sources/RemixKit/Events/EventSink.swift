/// A value carried by a domain event field.
public enum EventValue: Equatable, Sendable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    /// Named values, e.g. a session's attributes.
    case object([EventField])
    /// A list of values.
    case array([EventValue])
}

/// A named field of a domain event.
public struct EventField: Equatable, Sendable {
    /// The field's name, e.g. `group`.
    public let name: String
    /// Its value.
    public let value: EventValue

    /// Makes a field.
    public init(_ name: String, _ value: EventValue) {
        self.name = name
        self.value = value
    }
}

/// Something that happened in a feature that matters to the business, e.g. `advert_published`.
public struct DomainEvent: Equatable, Sendable {
    /// The event's type, in snake case.
    public let name: String
    /// Its fields, in a stable order.
    public let fields: [EventField]

    /// Makes an event.
    public init(_ name: String, _ fields: [EventField] = []) {
        self.name = name
        self.fields = fields
    }

    /// The value of the field of that name.
    public subscript(field: String) -> EventValue? { fields.first { $0.name == field }?.value }
}

/// Where features report domain events; the host decides what to do with them (log, count, show).
public protocol EventSink: AnyObject {
    /// Records one event.
    func record(_ event: DomainEvent)
}

/// An event sink that keeps every event in memory, in order.
public final class EventRecorder: EventSink {
    /// The events recorded so far.
    public private(set) var events: [DomainEvent] = []

    /// Makes an empty recorder.
    public init() {}

    public func record(_ event: DomainEvent) {
        events.append(event)
    }

    /// The names of the recorded events, in order.
    public var names: [String] { events.map(\.name) }
}
