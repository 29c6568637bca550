import Foundation
import RemixExperiments
import RemixFormats
import RemixKit

/// The attributes and the time of a session that experiments are evaluated for (`remix run`,
/// `remix assign`): `--attributes` and `--at`.
package struct SessionAttributes {
    /// A JSON object of attributes, e.g. `{"id":"u1","platform":"tablet"}`.
    package var json = "{}"
    /// The session's time (RFC 3339 or YYYY-MM-DD; nil: now).
    package var at: String?

    /// No attributes, now.
    package init() {}

    /// The parsed attributes.
    func attributes() throws -> [String: AttributeValue] {
        guard let value = try? AttributeValue.parse(json: json), case .object(let object) = value else {
            throw AppError("--attributes must be a JSON object, e.g. '{\"id\":\"u1\",\"country\":\"GB\"}' (got \(Excerpt.quoted(json)))")
        }
        return object
    }

    /// The session's time.
    func date() throws -> Date {
        try Self.date(at, option: "--at")
    }

    /// The time `text` gives (nil: now); a bad one is an error naming `option`.
    static func date(_ text: String?, option: String) throws -> Date {
        guard let text else { return Date() }
        guard let date = DateParsing.parse(text) else {
            throw AppError("\(option) must be a date like 2026-12-01 or 2026-12-01T09:00:00Z (got \(Excerpt.quoted(text)))")
        }
        return date
    }
}
