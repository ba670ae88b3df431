import ArgumentParser
import DynamicsScenes

struct Scenes: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the built-in scenes.")

    func run() {
        for scene in Scene.builtIn {
            let pad = String(repeating: " ", count: max(1, 14 - scene.name.count))
            print("\(scene.name)\(pad)\(scene.summary) (default \(scene.defaultItems) items, \(scene.defaultSeconds) s)")
        }
    }
}
