// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// Kinematic items in scene files: the material's `kinematic` flag, the timeline's `drive` event, and what the
/// reader refuses.
@Suite struct KinematicSceneTests {
    static let platform = """
        {"format": "dynamics-scene/1", "configuration": {"workers": 1, "rest": false},
         "items": [{"id": "platform", "shape": {"type": "rectangle", "width": 400, "height": 20}, "center": [0, 0],
                    "velocity": [50, 0], "material": {"kinematic": true, "friction": 0.6}},
                   {"id": "box", "shape": {"type": "rectangle", "width": 100, "height": 100}, "center": [0, -60],
                    "material": {"friction": 0.6}}],
         "behaviors": [{"type": "gravity"}, {"type": "collision"}],
         "timeline": [{"time": 1, "drive": {"item": "platform", "center": [100, -30], "angle": 0}}]}
        """

    @Test("a kinematic platform of a scene file carries its box at its velocity, under gravity")
    func carries() throws {
        let run = try SceneFileTests.run(Self.platform, seconds: 0.9)
        let (platform, box) = (run.itemIDs[0], run.itemIDs[1])
        #expect(abs(run.world.pose(of: platform).center.x - 45) < 1e-2 && run.world.pose(of: platform).center.y == 0)
        #expect(abs(run.world.velocity(of: box).dx - 50) < 1, "the box moves at \(run.world.velocity(of: box))")
    }

    @Test("the timeline's drive event brings a kinematic item to its pose one step later, and reads back")
    func drive() throws {
        let run = try SceneFileTests.run(Self.platform, seconds: 1 + 1.0 / 60)
        let pose = run.world.pose(of: run.itemIDs[0])
        #expect(abs(pose.center.x - 100) < 1e-2 && abs(pose.center.y + 30) < 1e-2 && abs(pose.angle) < 1e-6, "pose \(pose)")
        let document = try SceneDocument.parse(Data(Self.platform.utf8))
        #expect(SceneDocument.read(Data(document.json.utf8), yaml: false).0 == document, "kinematic and drive read back")
        #expect(document.json.contains("\"kinematic\"") && document.json.contains("\"drive\""))
    }

    @Test("the reader refuses an item both anchored and kinematic, and a drive of an unknown item")
    func refuses() {
        let both = Self.platform.replacingOccurrences(of: "\"kinematic\": true", with: "\"kinematic\": true, \"anchored\": true")
        #expect(SceneFileTests.problems(both).contains { $0.path == "/items/0/material/kinematic" && $0.message.contains("not both") })
        let unknown = Self.platform.replacingOccurrences(of: "\"item\": \"platform\", \"center\"", with: "\"item\": \"platfrom\", \"center\"")
        #expect(SceneFileTests.problems(unknown).contains { $0.path == "/timeline/0/drive/item" && $0.message.contains("platfrom") })
    }
}
