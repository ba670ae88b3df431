// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import DynamicsScenes
import Foundation

struct Scenes: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the built-in and example scenes, or print one as a scene file.",
        discussion: """
            With --export NAME, prints the built-in scene NAME as a scene file (JSON, format \
            dynamics-scene/1; `dynamics simulate` on that file gives the built-in's state hash), or the \
            example scene file NAME as it ships.
            """
    )

    @Option(help: "Print this built-in scene as a scene file.")
    var export: String?

    @Option(parsing: .unconditional, help: "Items of the exported scene (default: the scene's).")
    var items: Int?

    func validate() throws {
        if let items, !(1...10_000_000).contains(items) { throw ValidationError("--items must be 1…10000000, got \(items)") }
        if items != nil && export == nil { throw ValidationError("--items applies to --export") }
    }

    func run() throws {
        try reportingFailures {
            if let export {
                if let scene = Scene.named(export) {
                    FileHandle.standardOutput.write(Data(scene.document(items: items).json.utf8))
                    return
                }
                if let example = SceneSource.example(named: export), items == nil {
                    FileHandle.standardOutput.write(try Data(contentsOf: example))
                    return
                }
                let names = (Scene.builtIn.map(\.name) + SceneDocument.exampleFiles.map(SceneSource.exampleName)).joined(separator: ", ")
                throw CLIError(.usage, "unknown scene '\(export)' (\(names)); --items applies to built-in scenes")
            }
            let width = Scene.builtIn.map(\.name.count).max() ?? 0
            for scene in Scene.builtIn {
                let pad = String(repeating: " ", count: width + 2 - scene.name.count)
                print("\(scene.name)\(pad)\(scene.summary) (default \(scene.defaultItems) items, \(scene.defaultSeconds) s)")
            }
            for url in SceneDocument.exampleFiles {
                let name = SceneSource.exampleName(url)
                let summary = (try? SceneDocument.load(contentsOf: url))?.summary ?? "example scene file"
                print("\(name)\(String(repeating: " ", count: max(2, width + 2 - name.count)))\(summary) (example file \(url.lastPathComponent))")
            }
        }
    }
}
