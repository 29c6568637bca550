import ArgumentParser
import RemixApp

/// Options shared by commands that evaluate experiments for a session.
struct SessionAttributeOptions: ParsableArguments {
    @Option(help: "Session attributes as a JSON object, e.g. '{\"id\":\"u1\",\"platform\":\"tablet\",\"appVersion\":\"2.1\"}'.")
    var attributes: String = "{}"

    @Option(help: "The time the session happens, for experiment schedules (RFC 3339 or YYYY-MM-DD; default: now).")
    var at: String?

    /// The attributes and time, as the use cases take them (and check them).
    var values: SessionAttributes {
        var values = SessionAttributes()
        values.json = attributes
        values.at = at
        return values
    }
}
