// SPDX-License-Identifier: Apache-2.0
/// One thing wrong with a scene file: where (a JSON Pointer into the document, "" for the whole file) and
/// why. Warnings do not stop a run.
public struct SceneProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// How bad a problem is.
    public enum Severity: String, Hashable, Sendable {
        /// The scene cannot run.
        case error
        /// The scene runs, but probably not as meant (an item overlapping a boundary).
        case warning
    }

    /// A JSON Pointer (RFC 6901) to the value, e.g. `/items/3/shape/width`; "" for the whole document.
    public let path: String
    /// What is wrong, e.g. "must be > 0, got -5".
    public let message: String
    /// Error or warning.
    public let severity: Severity

    /// Creates a problem.
    public init(path: String, message: String, severity: Severity = .error) {
        self.path = path
        self.message = message
        self.severity = severity
    }

    /// `path: message` (with "warning: " before a warning's message; the message alone for the whole file).
    public var description: String {
        let text = severity == .warning ? "warning: \(message)" : message
        return path.isEmpty ? text : "\(path): \(text)"
    }
}

/// A scene file that cannot run: every problem found, errors first in document order.
public struct SceneFileError: Error, Sendable, CustomStringConvertible {
    /// How the problem stops the run, for a command line's exit status.
    public enum Kind: Sendable {
        /// The file's content is wrong (sysexits' EX_DATAERR, 65).
        case data
        /// The file cannot be opened (EX_NOINPUT, 66).
        case cannotOpen
        /// Reading failed (EX_IOERR, 74).
        case io
    }

    /// What kind of failure.
    public let kind: Kind
    /// The problems (at least one error).
    public let problems: [SceneProblem]

    /// Creates an error from its problems.
    public init(kind: Kind, problems: [SceneProblem]) {
        self.kind = kind
        self.problems = problems
    }

    /// The first error, on one line.
    public var description: String {
        (problems.first { $0.severity == .error } ?? problems.first)?.description ?? "invalid scene"
    }
}
