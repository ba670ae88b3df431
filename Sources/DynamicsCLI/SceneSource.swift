// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Dynamics
import DynamicsScenes
import Foundation

/// What `simulate` runs: a built-in scene or a scene file, built into a world that steps.
enum SceneSource {
    case builtIn(Scene)
    case file(SceneDocument, URL)

    /// A scene file when `argument` names a file or ends in .json, .yaml or .yml; else a built-in scene's
    /// name, or an example scene file's (`dynamics scenes` lists both).
    static func resolve(_ argument: String, limits: SceneLimits) throws -> SceneSource {
        let ext = URL(fileURLWithPath: argument).pathExtension.lowercased()
        if ["json", "yaml", "yml"].contains(ext) || FileManager.default.fileExists(atPath: argument) {
            let url = URL(fileURLWithPath: argument)
            do {
                let document = try SceneDocument.load(contentsOf: url, limits: limits) { warning in
                    FileHandle.standardError.write(Data("dynamics: \(argument): \(warning)\n".utf8))
                }
                return .file(document, url)
            } catch {
                throw CLIError(error.kind.status, "\(argument): \(error.description)")
            }
        }
        if let scene = Scene.named(argument) { return .builtIn(scene) }
        if let example = Self.example(named: argument) { return try resolve(example.path, limits: limits) }
        let names = (Scene.builtIn.map(\.name) + SceneDocument.exampleFiles.map(Self.exampleName)).joined(separator: ", ")
        throw CLIError(.usage, "'\(argument)' is neither a scene file nor a built-in or example scene (\(names))")
    }

    /// An example scene file that ships with the package, by its name without extension.
    static func example(named name: String) -> URL? {
        SceneDocument.exampleFiles.first { exampleName($0) == name }
    }

    static func exampleName(_ url: URL) -> String { url.deletingPathExtension().lastPathComponent }

    /// Shell completion of a scene argument: the built-in and example scene names, the scene files (.json,
    /// .yaml, .yml) and the folders that start with `prefix`.
    @Sendable static func completions(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        let names = Scene.builtIn.map(\.name) + SceneDocument.exampleFiles.map(exampleName)
        let slash = prefix.lastIndex(of: "/")
        let folder = slash.map { String(prefix[...$0]) } ?? ""
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        let files = entries.sorted().compactMap { entry -> String? in
            let path = folder + entry
            var isFolder: ObjCBool = false
            guard !entry.hasPrefix("."), FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
            if isFolder.boolValue { return path + "/" }
            return ["json", "yaml", "yml"].contains(URL(fileURLWithPath: entry).pathExtension.lowercased()) ? path : nil
        }
        return (names + files).filter { $0.hasPrefix(prefix) }
    }

    var name: String {
        switch self {
        case .builtIn(let scene): scene.name
        case .file(let document, let url): document.name ?? url.deletingPathExtension().lastPathComponent
        }
    }
}

extension SceneFileError.Kind {
    var status: CLIError.Status {
        switch self {
        case .data: .data
        case .cannotOpen: .noInput
        case .io: .io
        }
    }
}

/// Limits on scene files, from the command line.
struct LimitOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Largest scene file, bytes (default 268435456).")
    var maxBytes: Int?

    @Option(parsing: .unconditional, help: "Most items a scene file may make (default 10000000).")
    var maxItems: Int?

    @Option(parsing: .unconditional, help: "Deepest nesting in a scene file (default 64).")
    var maxDepth: Int?

    var limits: SceneLimits {
        var l = SceneLimits()
        if let maxBytes { l.bytes = maxBytes }
        if let maxItems { l.items = maxItems }
        if let maxDepth { l.depth = maxDepth }
        return l
    }

    func validate() throws {
        for (flag, value, top) in [("--max-bytes", maxBytes, 1 << 40), ("--max-items", maxItems, 1 << 40), ("--max-depth", maxDepth, 10_000)] {
            if let value, !(1...top).contains(value) { throw ValidationError("\(flag) must be 1…\(top), got \(value)") }
        }
    }
}

/// Runs a command body, turning a ``CLIError`` into its one-line reason on standard error and its exit
/// status, and removing unfinished output files.
func reportingFailures(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as CLIError {
        AtomicFile.discardAll()
        FileHandle.standardError.write(Data("dynamics: \(error.description)\n".utf8))
        throw ExitCode(error.status.rawValue)
    } catch let error as DynamicsError {
        AtomicFile.discardAll()
        FileHandle.standardError.write(Data("dynamics: \(error.description)\n".utf8))
        throw ExitCode(CLIError.Status.data.rawValue)
    } catch {
        AtomicFile.discardAll()
        throw error
    }
}
