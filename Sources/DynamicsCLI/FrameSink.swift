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
    /// What the sink holds, for a checkpoint: its files (flushed) and what it keeps in memory.
    func checkpoint() throws -> SinkCheckpoint
    /// Continues from a checkpoint's state; the sink was just made for the same output of the same run.
    func resume(_ state: SinkCheckpoint) throws
}

extension FrameSink {
    func afterStep(_ step: Int) throws {}
}

/// An output's state in a checkpoint (`simulate --checkpoint`): its files and what it keeps in memory.
struct SinkCheckpoint: Codable {
    var files: [CheckpointedFile]
    /// The region drawn (x, y, width, height; pt), as the run's start chose it.
    var view: [Double]?
    var panels: [String]?
    var crcs: [UInt32]?
    var sizes: [Int]?
    var steps: [Int64]?
    var times: [Double]?

    init(files: [CheckpointedFile], view: CGRect? = nil) {
        self.files = files
        self.view = view.map { [$0.minX, $0.minY, $0.width, $0.height] }
    }

    /// The view recorded, or a CLIError when there is none.
    func recordedView() throws -> CGRect {
        guard let v = view, v.count == 4 else { throw CLIError(.data, "the checkpoint has no view for an output") }
        return CGRect(x: v[0], y: v[1], width: v[2], height: v[3])
    }

    /// The recorded files, one for each of `files`, each continued.
    func resume(_ files: [AtomicFile]) throws {
        guard self.files.count == files.count else { throw CLIError(.data, "the checkpoint's outputs do not match the run's") }
        for (file, recorded) in zip(files, self.files) { try file.resume(recorded) }
    }
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

    /// The region to show (pt): the scene's bounds, or the items (as far as their outlines reach, turned any
    /// way) and boundaries at the start with a margin.
    func view() -> CGRect {
        if let bounds = run.document.bounds { return bounds }
        var box = CGRect.null
        for k in tracked { // each item's outline as it may turn about its centre (at least 50 pt around it)
            let c = world.pose(of: run.itemIDs[k]).center, shape = run.shapes[k], com = shape.centerOfMass
            let reach = shape.outlines.joined().reduce(50.0) { max($0, hypot($1.x - com.x, $1.y - com.y)) }
            box = box.union(CGRect(x: c.x - reach, y: c.y - reach, width: 2 * reach, height: 2 * reach))
        }
        for outline in run.boundaryOutlines { for p in outline { box = box.union(CGRect(origin: p, size: .zero)) } }
        if box.isNull { return CGRect(x: 0, y: 0, width: 100, height: 100) }
        return box.insetBy(dx: -0.1 * box.width - 10, dy: -0.1 * box.height - 10)
    }
}
