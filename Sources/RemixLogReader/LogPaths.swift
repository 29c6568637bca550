import Foundation
import RemixSystem

/// Expands log arguments: `-` for standard input, a path that exists as given (even with `*?[`
/// in its name), otherwise a glob by the shell's rules.
package enum LogPaths {
    /// The files `patterns` name, as the analysis reads them; a glob that matches nothing names none.
    package static func files(_ patterns: [String]) -> [String] {
        patterns.flatMap { pattern in (try? expand([pattern])) ?? [] }
    }

    package static func expand(_ patterns: [String]) throws(LogReadError) -> [String] {
        var files: [String] = []
        for pattern in patterns {
            var info = stat()
            guard pattern != "-", pattern.contains(where: { "*?[".contains($0) }), unsafe lstat(pattern, &info) != 0 else {
                files.append(pattern)
                continue
            }
            var matches = unsafe glob_t()
            defer { unsafe globfree(&matches) }
            guard unsafe glob(pattern, 0, nil, &matches) == 0, unsafe matches.gl_pathc > 0 else { throw .noLogs(pattern: pattern) }
            for index in unsafe 0..<Int(matches.gl_pathc) {
                if let path = unsafe matches.gl_pathv[index] { unsafe files.append(String(cString: path)) }
            }
        }
        return files
    }
}
