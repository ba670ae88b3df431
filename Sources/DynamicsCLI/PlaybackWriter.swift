// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation

/// `--output FILE.html`: one self-contained page that plays the run back on a canvas (no server, no
/// network, no external script). Frames are stored compactly and streamed to the file as the run goes:
/// per item and frame, x and y as 16-bit integers on a grid over three times the view (about 1/20 000 of
/// it) and the angle in 1/65 536 turns, base64-encoded, 6 bytes per item and frame.
final class PlaybackWriter: FrameSink {
    let file: AtomicFile
    let source: FrameSource
    let ids: [ItemID]
    let origin: CGPoint
    let unit: CGFloat

    init(path: String, source: FrameSource) throws {
        file = try AtomicFile(path)
        self.source = source
        ids = source.ids
        let view = source.view()
        let extent = 3 * max(view.width, view.height)
        unit = extent / 65_000
        origin = CGPoint(x: view.midX, y: view.midY)
        try file.write(PlaybackPage.head(title: source.run.document.name ?? "dynamics"))
        try file.write("<script type=\"application/json\" id=\"meta\">" + meta(view: view) + "</script>\n")
        try file.write("<script type=\"application/octet-stream\" id=\"frames\">")
    }

    /// The page's description of the run: view, quantisation, shapes and boundaries.
    func meta(view: CGRect) -> String {
        func n(_ x: CGFloat) -> String { TrajectoryWriter.number(Float(x)) }
        // Each item: its parts, each [kind, x, y, angle, sizes or vertices…] around the item's centre of mass.
        let shapes = source.tracked.map { i -> String in
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
        let names = source.names.map(TrajectoryWriter.jsonString)
        return """
            {"name":\(TrajectoryWriter.jsonString(source.run.document.name ?? "")),"frames":\(source.frames),"items":\(ids.count),\
            "stepsPerSecond":\(source.stepsPerSecond),"every":\(source.every),\
            "view":[\(n(view.minX)),\(n(view.minY)),\(n(view.width)),\(n(view.height))],\
            "origin":[\(n(origin.x)),\(n(origin.y))],"unit":\(n(unit)),\
            "shapes":[\(shapes.joined(separator: ","))],"outlines":[\(outlines.joined(separator: ","))],"outlineEnds":[\(ends.joined(separator: ","))],\
            "ids":[\(names.joined(separator: ","))]}
            """
    }

    func frame(step: Int, time: Double) throws {
        var bytes = [UInt8](repeating: 0, count: ids.count * 6)
        func put(_ k: Int, _ v: UInt16) {
            bytes[k] = UInt8(v & 0xFF)
            bytes[k + 1] = UInt8(v >> 8)
        }
        for (k, id) in ids.enumerated() {
            let (c, angle) = source.world.pose(of: id)
            let x = ((c.x - origin.x) / unit).rounded(), y = ((c.y - origin.y) / unit).rounded()
            put(6 * k, UInt16(bitPattern: Int16(clamping: Int(x.isFinite ? max(min(x, 40_000), -40_000) : 0))))
            put(6 * k + 2, UInt16(bitPattern: Int16(clamping: Int(y.isFinite ? max(min(y, 40_000), -40_000) : 0))))
            let turn = (angle / (2 * .pi) * 65_536).rounded()
            put(6 * k + 4, UInt16(truncatingIfNeeded: Int64(turn.isFinite ? turn.truncatingRemainder(dividingBy: 65_536) : 0)))
        }
        // Six bytes per item: a whole number of base64 groups, so frames concatenate.
        try file.write(Data(bytes).base64EncodedString() + "\n")
    }

    func finish() throws {
        try file.write("</script>\n" + PlaybackPage.tail)
        try file.commit()
    }
}
