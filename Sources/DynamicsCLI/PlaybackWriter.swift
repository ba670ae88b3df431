// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation

/// `--output FILE.html`: one self-contained page that plays the run back on a canvas (no server, no
/// network, no external script). Frames are stored compactly and streamed to the file as the run goes, one
/// base64 line each: per item, x and y as 16-bit integers on a grid over three times the view (about
/// 1/20 000 of it) and the angle in 1/65 536 turns, 6 bytes. A frame holds the tracked items, then every item
/// the timeline has made so far in creation order (x = −32 768 for one removed); the description of the
/// run, with every item's shape, follows the frames.
final class PlaybackWriter: FrameSink {
    let file: AtomicFile
    let source: FrameSource
    private(set) var origin: CGPoint
    private(set) var unit: CGFloat
    private(set) var view: CGRect
    /// The sentinel x of an item that is gone.
    static let removed = Int16.min

    init(path: String, source: FrameSource) throws {
        file = try AtomicFile(path)
        self.source = source
        view = source.view()
        (unit, origin) = Self.grid(view)
        try file.write(PlaybackPage.head(title: source.run.document.name ?? "dynamics"))
        try file.write("<script type=\"application/octet-stream\" id=\"frames\">")
    }

    /// The items a frame holds: the tracked ones, then those the timeline made (removed ones too).
    var slots: [Int] {
        let run = source.run
        return source.tracked + Array(run.itemIDs.indices.dropFirst(run.documentItemCount))
    }

    /// The page's description of the run: view, quantisation, shapes and boundaries.
    func meta(view: CGRect) -> String {
        func n(_ x: CGFloat) -> String { TrajectoryWriter.number(Float(x)) }
        // Each item: its parts, each [kind, x, y, angle, sizes or vertices…] around the item's centre of mass.
        let slots = slots
        let shapes = slots.map { i -> String in
            let shape = source.run.shapes[i], com = shape.centerOfMass
            let parts = shape.parts.map { part -> String in
                let place = "\(n(part.offset.x - com.x)),\(n(part.offset.y - com.y)),\(n(part.angle))"
                switch part.shape {
                case .rectangle(let w, let h): return "[\"r\",\(place),\(n(w)),\(n(h))]"
                case .ellipse(let w, let h): return "[\"e\",\(place),\(n(w)),\(n(h))]"
                case .polygon(let points): return "[\"p\",\(place)," + points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: ",") + "]"
                case .capsule, .roundedRectangle, .roundedPolygon:  // drawn as their outlines
                    let points = part.shape.outlines.first ?? []
                    return "[\"p\",\(place)," + points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: ",") + "]"
                case .group: return "[\"p\",\(place)]"
                }
            }
            return "[" + parts.joined(separator: ",") + "]"
        }
        let timed = source.run.timedBoundaryOutlines
        let outlines = timed.map { "[" + $0.points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: ",") + "]" }
        // The time each outline's behaviour is removed (s), or null: the page stops drawing it then.
        let ends = timed.map { $0.removedAt.map { TrajectoryWriter.number(Float($0)) } ?? "null" }
        let names = slots.map { TrajectoryWriter.jsonString(source.run.itemNames[$0]) }
        return """
            {"name":\(TrajectoryWriter.jsonString(source.run.document.name ?? "")),"frames":\(source.frames),"items":\(slots.count),\
            "stepsPerSecond":\(source.stepsPerSecond),"every":\(source.every),\
            "view":[\(n(view.minX)),\(n(view.minY)),\(n(view.width)),\(n(view.height))],\
            "origin":[\(n(origin.x)),\(n(origin.y))],"unit":\(n(unit)),\
            "shapes":[\(shapes.joined(separator: ","))],"outlines":[\(outlines.joined(separator: ","))],"outlineEnds":[\(ends.joined(separator: ","))],\
            "ids":[\(names.joined(separator: ","))]}
            """
    }

    func frame(step: Int, time: Double) throws {
        let run = source.run, slots = slots
        var bytes = [UInt8](repeating: 0, count: slots.count * 6)
        func put(_ k: Int, _ v: UInt16) {
            bytes[k] = UInt8(v & 0xFF)
            bytes[k + 1] = UInt8(v >> 8)
        }
        // Within ±32 767: −32 768 marks a removed item.
        func grid(_ v: CGFloat) -> UInt16 { UInt16(bitPattern: Int16(v.isFinite ? max(min(v, 32_767), -32_767) : 0)) }
        for (k, i) in slots.enumerated() {
            if run.isRemoved[i] {
                put(6 * k, UInt16(bitPattern: Self.removed))
                continue
            }
            let (c, angle) = source.world.pose(of: run.itemIDs[i])
            put(6 * k, grid(((c.x - origin.x) / unit).rounded()))
            put(6 * k + 2, grid(((c.y - origin.y) / unit).rounded()))
            let turn = (angle / (2 * .pi) * 65_536).rounded()
            put(6 * k + 4, UInt16(truncatingIfNeeded: Int64(turn.isFinite ? turn.truncatingRemainder(dividingBy: 65_536) : 0)))
        }
        try file.write(Data(bytes).base64EncodedString() + "\n")
    }

    /// The grid frames are stored on for a view: its unit (pt) and origin.
    static func grid(_ view: CGRect) -> (unit: CGFloat, origin: CGPoint) {
        (3 * max(view.width, view.height) / 65_000, CGPoint(x: view.midX, y: view.midY))
    }

    func checkpoint() throws -> SinkCheckpoint { SinkCheckpoint(files: [try file.checkpoint()], view: view) }

    func resume(_ state: SinkCheckpoint) throws {
        try state.resume([file])
        view = try state.recordedView()
        (unit, origin) = Self.grid(view)
    }

    func finish() throws {
        try file.write("</script>\n<script type=\"application/json\" id=\"meta\">" + meta(view: view) + "</script>\n")
        try file.write(PlaybackPage.tail)
        try file.commit()
    }
}
