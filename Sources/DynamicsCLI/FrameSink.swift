// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation

/// An output that receives the run's frames (every `--every` steps, the first and the last) and is
/// committed when the run completes.
protocol FrameSink {
    /// One frame: the tracked items' state at `step`.
    func frame(step: Int, time: Double) throws
    /// Called after every step (`step` counts from 1).
    func afterStep(_ step: Int) throws
    /// Completes the file (renames it onto its target).
    func finish() throws
}

extension FrameSink {
    func afterStep(_ step: Int) throws {}
}

/// What a sink needs of the run: the world, the tracked items, their names and shapes.
struct FrameSource {
    let run: SceneRun
    let tracked: [Int]
    let frames: Int
    let stepsPerSecond: Double
    let every: Int

    var world: DynamicWorld { run.world }
    var ids: [ItemID] { tracked.map { run.itemIDs[$0] } }
    var names: [String] { tracked.map { run.itemNames[$0] } }

    /// The region to show (pt): the scene's bounds, or the items and boundaries at the start with a margin.
    func view() -> CGRect {
        if let bounds = run.document.bounds { return bounds }
        var box = CGRect.null
        for id in ids {
            let c = world.pose(of: id).center
            box = box.union(CGRect(x: c.x - 50, y: c.y - 50, width: 100, height: 100))
        }
        for outline in run.boundaryOutlines { for p in outline { box = box.union(CGRect(origin: p, size: .zero)) } }
        if box.isNull { return CGRect(x: 0, y: 0, width: 100, height: 100) }
        return box.insetBy(dx: -0.1 * box.width - 10, dy: -0.1 * box.height - 10)
    }
}
