// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// Writes frames of item states to a trajectory file: CSV or JSON Lines, one row per item and frame with
/// step, time (s), item id, x, y (pt), angle (rad), vx, vy (pt/s) and ω (rad/s).
final class TrajectoryWriter: FrameSink {
    enum Format { case csv, jsonl }

    let file: AtomicFile
    let format: Format
    let source: FrameSource
    let ids: [ItemID], names: [String]

    init(path: String, format: Format, source: FrameSource) throws {
        file = try AtomicFile(path)
        self.format = format
        self.source = source
        ids = source.ids
        names = source.names
        if format == .csv { try file.write("step,time,id,x,y,angle,vx,vy,omega\n") }
    }

    func finish() throws { try file.commit() }

    func checkpoint() throws -> SinkCheckpoint { SinkCheckpoint(files: [try file.checkpoint()]) }

    func resume(_ state: SinkCheckpoint) throws { try state.resume([file]) }

    /// One frame: the state of the tracked items at `step` and `time`.
    func frame(step: Int, time: Double) throws {
        let world = source.world
        var text = ""
        text.reserveCapacity(ids.count * 96)
        let t = String(format: "%.6f", time)
        for (k, id) in ids.enumerated() {
            let (c, a) = world.pose(of: id)
            let v = world.velocity(of: id), w = world.angularVelocity(of: id)
            let values = [c.x, c.y, a, v.dx, v.dy, w].map { Self.number(Float($0)) }
            switch format {
            case .csv:
                text += "\(step),\(t),\(Self.csvField(names[k])),\(values.joined(separator: ","))\n"
            case .jsonl:
                text += "{\"step\":\(step),\"time\":\(t),\"id\":\(Self.jsonString(names[k])),\"x\":\(values[0]),\"y\":\(values[1]),"
                    + "\"angle\":\(values[2]),\"vx\":\(values[3]),\"vy\":\(values[4]),\"omega\":\(values[5])}\n"
            }
        }
        try file.write(text)
    }

    /// A Float as the shortest text that reads back to it.
    static func number(_ x: Float) -> String { x.isFinite ? "\(x)" : "null" }

    static func csvField(_ s: String) -> String {
        s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }

    static func jsonString(_ s: String) -> String {
        let data = (try? JSONEncoder().encode(s)) ?? Data("\"\"".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
