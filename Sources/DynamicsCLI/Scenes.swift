import ArgumentParser
import DynamicsScenes
import Foundation

struct Scenes: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the built-in scenes, or print one as a scene file.",
        discussion: """
            With --export NAME, prints the built-in scene NAME as a scene file (JSON, format \
            dynamics-scene/1); `dynamics simulate` on that file gives the built-in's state hash.
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
                guard let scene = Scene.named(export) else {
                    throw CLIError(.usage, "unknown scene '\(export)' (built-in scenes: \(Scene.builtIn.map(\.name).joined(separator: ", ")))")
                }
                FileHandle.standardOutput.write(Data(scene.document(items: items).json.utf8))
                return
            }
            let width = Scene.builtIn.map(\.name.count).max() ?? 0
            for scene in Scene.builtIn {
                let pad = String(repeating: " ", count: width + 2 - scene.name.count)
                print("\(scene.name)\(pad)\(scene.summary) (default \(scene.defaultItems) items, \(scene.defaultSeconds) s)")
            }
        }
    }
}
