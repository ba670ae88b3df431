// SPDX-License-Identifier: Apache-2.0
import Foundation

extension SceneDocument {
    /// The JSON Schema (draft 2020-12) of scene files, format `dynamics-scene/1`, as text. It checks the
    /// shape of a file; the reader also checks what a schema cannot (unique ids, references, convexity).
    public static var schema: String {
        guard let url = Bundle.module.url(forResource: "scene.schema", withExtension: "json"),
              let text = try? String(contentsOf: url, encoding: .utf8)
        else { fatalError("the DynamicsScenes resource bundle has no scene.schema.json") }
        return text
    }

    /// The example scene files that ship with the package, sorted by name.
    public static var exampleFiles: [URL] {
        guard let folder = Bundle.module.url(forResource: "examples", withExtension: nil),
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path)
        else { return [] }
        return names.sorted().map { folder.appendingPathComponent($0) }
    }
}
