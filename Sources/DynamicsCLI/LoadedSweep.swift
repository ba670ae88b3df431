// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation

/// A sweep file read, with its base scene resolved to a scene file's value and its pointers checked.
struct LoadedSweep {
    let sweep: Sweep
    let name: String
    let base: SceneValue
    let manifest: SweepManifest
    /// The checkpoint the variants start from (the sweep's `start`): the scene its run was made from, the run's
    /// checkpoint and its step.
    let start: (document: SceneDocument, run: Data, step: Int)?

    init(path: String) throws {
        let url = URL(fileURLWithPath: path)
        do {
            sweep = try Sweep.load(contentsOf: url)
        } catch {
            let more = error.problems.count > 1 ? " (and \(error.problems.count - 1) more problems)" : ""
            throw CLIError(error.kind.status, "\(path): \(error)\(more)")
        }
        name = sweep.name ?? url.deletingPathExtension().lastPathComponent
        switch sweep.scene {
        case .named(let sceneName):
            if let scene = Scene.named(sceneName) {
                base = scene.document(items: sweep.items).value
            } else if let example = SceneSource.example(named: sceneName) {
                if sweep.items != nil { throw CLIError(.usage, "\(path): /items: applies to a built-in scene; '\(sceneName)' is a scene file") }
                base = try Self.sceneValue(example.path, from: path)
            } else {
                throw CLIError(.data, "\(path): /scene: '\(sceneName)' is neither a built-in nor an example scene (dynamics scenes)")
            }
        case .file(let file):
            let resolved = file.hasPrefix("/") ? file : url.deletingLastPathComponent().appendingPathComponent(file).path
            base = try Self.sceneValue(resolved, from: path)
        case .inline(let value):
            base = value
        }
        // Every pointer must resolve in the base scene (with its first value), so a typo fails at once.
        var probe = base
        for (k, a) in sweep.fixed.enumerated() {
            do { probe = try probe.setting(a.pointer, to: a.value) } catch { throw CLIError(.data, "\(path): /fixed/\(k): \(error)") }
        }
        for (k, p) in sweep.parameters.enumerated() {
            do { _ = try probe.setting(p.pointer, to: p.values[0]) } catch { throw CLIError(.data, "\(path): /parameters/\(k): \(error)") }
        }
        manifest = SweepManifest(sweep, base: base, name: name)
        if let file = sweep.start {
            let resolved = file.hasPrefix("/") ? file : url.deletingLastPathComponent().appendingPathComponent(file).path
            let (state, run) = try SimulationCheckpoint.read(resolved)
            let document: SceneDocument
            do { document = try SceneDocument.parse(Data(state.document.utf8)) } catch {
                throw CLIError(.data, "\(path): /start: the checkpoint's scene does not read: \(error)")
            }
            start = (document, run, state.step)
        } else {
            start = nil
        }
    }

    /// A scene file's value as written (a sweep's pointers name places in the file, not in the reader's
    /// normal form), checked to be a valid scene.
    static func sceneValue(_ file: String, from sweepPath: String) throws -> SceneValue {
        do {
            return try SceneDocument.loadAsWritten(contentsOf: URL(fileURLWithPath: file)).written
        } catch {
            throw CLIError(error.kind.status, "\(sweepPath): scene \(file): \(error)")
        }
    }
}
