// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import DynamicsScenes
import Foundation

struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the JSON Schema of scene files (format dynamics-scene/1).",
        discussion: "For editors and validators; `dynamics validate` checks a file completely (ids, references, polygons too)."
    )

    func run() {
        FileHandle.standardOutput.write(Data(SceneDocument.schema.utf8))
    }
}
