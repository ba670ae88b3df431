import ArgumentParser
import DynamicsScenes

struct Scenes: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the built-in scenes.")

    func run() {
        let width = Scene.builtIn.map(\.name.count).max() ?? 0
        for scene in Scene.builtIn {
            let pad = String(repeating: " ", count: width + 2 - scene.name.count)
            print("\(scene.name)\(pad)\(scene.summary) (default \(scene.defaultItems) items, \(scene.defaultSeconds) s)")
        }
    }
}
