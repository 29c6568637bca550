import Foundation

/// Why a plugin could not be loaded. Every message is one line that starts with the plugin's path.
package enum PluginError: Error, Equatable, CustomStringConvertible {
    /// Nothing exists at the path.
    case notFound(path: String)
    /// The file is not a shared library (e.g. a text file named `x.so`).
    case notSharedLibrary(path: String)
    /// The dynamic loader refused the library (e.g. a missing dependency or symbol).
    case cannotLoad(path: String, reason: String)
    /// The library does not export the plugin entry point.
    case missingEntryPoint(path: String, symbol: String, foundIn: String?)
    /// The plugin was built against a RemixKit with another plugin ABI.
    case abiMismatch(path: String, pluginABI: Int32?, hostABI: Int32, reason: String)
    /// A module, feature or app name of the plugin is already registered.
    case nameTaken(path: String, reason: String)
    /// The plugin's registration failed (its module threw).
    case registrationFailed(path: String, reason: String)
    /// The plugin's module runs against its own copy of RemixKit, not the host's.
    case privateRemixKit(path: String, module: String)
    /// The entry point returned a status this host does not know.
    case unexpectedStatus(path: String, status: Int32)

    /// The plugin's path.
    package var path: String {
        switch self {
        case .notFound(let path), .notSharedLibrary(let path), .cannotLoad(let path, _),
             .missingEntryPoint(let path, _, _), .abiMismatch(let path, _, _, _), .nameTaken(let path, _),
             .registrationFailed(let path, _), .privateRemixKit(let path, _), .unexpectedStatus(let path, _):
            path
        }
    }

    package var description: String {
        "plugin \(path): " + Self.oneLine(reason)
    }

    private var reason: String {
        switch self {
        case .notFound:
            "no such file or directory"
        case .notSharedLibrary:
            "not a shared library (a plugin is a .so built as a dynamic library product; see docs/plugins.md)"
        case .cannotLoad(_, let reason):
            "cannot be loaded: \(reason)"
        case .missingEntryPoint(_, let symbol, let foundIn):
            "no plugin entry point '\(symbol)'" + (foundIn.map { " (only its dependency \($0) has one)" } ?? "")
                + "; is it a Remix plugin? (see docs/plugins.md)"
        case .abiMismatch(_, _, _, let reason):
            "ABI mismatch: \(reason)"
        case .nameTaken(_, let reason):
            "refused: \(reason)"
        case .registrationFailed(_, let reason):
            "registration failed: \(reason)"
        case .privateRemixKit(_, let module):
            "module '\(module)' runs against its own copy of RemixKit, not the host's; depend on the RemixKit "
                + "product, never link RemixKit statically (see docs/plugins.md)"
        case .unexpectedStatus(_, let status):
            "the entry point returned unknown status \(status)"
        }
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }
}
