// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes

/// What `dynamics bench --until-rest` measures before its timed steps: how long a scene takes to come to
/// rest, and what its steps cost until then.
struct RestResult {
    /// Simulated seconds from the scene's start until every item rested, or nil when it did not.
    let restSeconds: Double?
    /// The median wall time of the steps before that, ms.
    let msPerStepAwakeMedian: Double

    /// Steps `run` (its timeline too) one step at a time until every item rests or `seconds` simulated seconds
    /// have passed.
    static func settle(_ run: SceneRun, seconds: Double) throws -> RestResult {
        let world = run.world
        let limit = Int((seconds * world.configuration.stepsPerSecond).rounded(.up))
        var timer = StepTimer(capacity: limit)
        for _ in 0..<limit where world.awakeItemCount > 0 {
            try timer.measure { try run.step() }
        }
        return RestResult(restSeconds: world.awakeItemCount == 0 ? world.elapsedTime : nil,
                          msPerStepAwakeMedian: timer.medianMilliseconds)
    }
}
