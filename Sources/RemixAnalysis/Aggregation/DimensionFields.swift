/// Where a `--dimension` value is read in a `session_started` line, for what reads it elsewhere
/// (a warehouse query): these names at the top level, any other under `attributes`.
package enum DimensionFields {
    package static var topLevel: [String] { DimensionTally.topLevelFields }
}
