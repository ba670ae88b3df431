// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation

/// `--output FILE.svg`: the final frame, or with `--frames T,…` one panel per listed time (s) side by side:
/// items with their shapes and angles, boundaries, attachments as lines between their anchors, and field
/// regions outlined (dashed).
final class PictureWriter: FrameSink {
    let file: AtomicFile
    let source: FrameSource
    private(set) var view: CGRect
    /// The steps to draw (nil: the last).
    let steps: [Int]?
    private var panels: [String] = []

    init(path: String, source: FrameSource, times: [Double]?) throws {
        file = try AtomicFile(path)
        self.source = source
        view = source.view()
        steps = times.map { $0.map { Int(($0 * source.stepsPerSecond).rounded()) } }
        if steps?.contains(0) == true { panels.append(panel(step: 0)) }
    }

    func frame(step: Int, time: Double) throws {}

    func afterStep(_ step: Int) throws {
        if let steps, steps.contains(step) { panels.append(panel(step: step)) }
    }

    func checkpoint() throws -> SinkCheckpoint {
        var state = SinkCheckpoint(files: [try file.checkpoint()], view: view)
        state.panels = panels
        return state
    }

    func resume(_ state: SinkCheckpoint) throws {
        try state.resume([file])
        view = try state.recordedView()
        panels = state.panels ?? []
    }

    func finish() throws {
        if steps == nil { panels.append(panel(step: source.run.steps)) }
        let gap = 0.05 * view.width, caption = 0.06 * view.height
        let width = CGFloat(panels.count) * view.width + CGFloat(max(panels.count - 1, 0)) * gap
        let height = view.height + caption
        var svg = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(n(width)) \(n(height))" width="\(n(min(1600, 400 * CGFloat(panels.count))))" \
            height="\(n(min(1600, 400 * CGFloat(panels.count)) * height / width))" font-family="sans-serif">
            <rect width="100%" height="100%" fill="#fafafa"/>

            """
        for (k, body) in panels.enumerated() {
            svg += "<g transform=\"translate(\(n(CGFloat(k) * (view.width + gap))),0)\">\n\(body)</g>\n"
        }
        try file.write(svg + "</svg>\n")
        try file.commit()
    }

    private func n(_ x: CGFloat) -> String { TrajectoryWriter.number(Float(x)) }

    /// One panel: the state now, drawn in the view's coordinates with a caption below.
    private func panel(step: Int) -> String {
        let world = source.world, run = source.run
        let stroke = n(max(view.width, view.height) / 400)
        var out = "<g transform=\"translate(\(n(-view.minX)),\(n(-view.minY)))\" stroke=\"#333\" stroke-width=\"\(stroke)\">\n"
        out += "<rect x=\"\(n(view.minX))\" y=\"\(n(view.minY))\" width=\"\(n(view.width))\" height=\"\(n(view.height))\" fill=\"#fff\" stroke=\"#ccc\"/>\n"
        for field in run.fields {
            let p = field.description.position
            for primitive in field.region.primitives {
                switch primitive {
                case .disc(let r):
                    out += "<circle cx=\"\(n(p.x))\" cy=\"\(n(p.y))\" r=\"\(n(r))\" fill=\"none\" stroke=\"#38c\" stroke-dasharray=\"\(stroke) \(stroke)\"/>\n"
                case .rectangle(let w, let h):
                    out += "<rect x=\"\(n(p.x - w / 2))\" y=\"\(n(p.y - h / 2))\" width=\"\(n(w))\" height=\"\(n(h))\" fill=\"none\" stroke=\"#38c\" stroke-dasharray=\"\(stroke) \(stroke)\"/>\n"
                default: break
                }
            }
        }
        for outline in run.boundaryOutlines {
            out += "<polyline fill=\"none\" stroke=\"#555\" points=\"" + outline.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ") + "\"/>\n"
        }
        // The tracked items, then those the timeline made and has not removed.
        let made = run.itemIDs.indices.dropFirst(run.documentItemCount).filter { !run.isRemoved[$0] }
        for (k, i) in (source.tracked + made).enumerated() {
            let (c, angle) = world.pose(of: run.itemIDs[i])
            let fill = "hsl(\((k * 47) % 360),55%,62%)"
            let transform = "translate(\(n(c.x)),\(n(c.y))) rotate(\(n(angle * 180 / .pi)))"
            let shape = run.shapes[i], com = shape.centerOfMass
            for part in shape.parts {
                let place = transform + " translate(\(n(part.offset.x - com.x)),\(n(part.offset.y - com.y))) rotate(\(n(part.angle * 180 / .pi)))"
                switch part.shape {
                case .rectangle(let w, let h):
                    out += "<rect transform=\"\(place)\" x=\"\(n(-w / 2))\" y=\"\(n(-h / 2))\" width=\"\(n(w))\" height=\"\(n(h))\" fill=\"\(fill)\"/>\n"
                case .ellipse(let w, let h):
                    out += "<ellipse transform=\"\(place)\" rx=\"\(n(w / 2))\" ry=\"\(n(h / 2))\" fill=\"\(fill)\"/>\n"
                case .polygon(let points):
                    out += "<polygon transform=\"\(place)\" fill=\"\(fill)\" points=\"" + points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ") + "\"/>\n"
                case .capsule, .roundedRectangle, .roundedPolygon: // their outlines
                    let points = part.shape.outlines.first ?? []
                    out += "<polygon transform=\"\(place)\" fill=\"\(fill)\" points=\"" + points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ") + "\"/>\n"
                case .group: break
                }
            }
        }
        for id in run.attachmentIDs {
            guard let (a, b) = world.anchors(of: id) else { continue }
            out += "<line x1=\"\(n(a.x))\" y1=\"\(n(a.y))\" x2=\"\(n(b.x))\" y2=\"\(n(b.y))\" stroke=\"#c33\"/>\n"
        }
        out += "</g>\n"
        let time = String(format: "t = %.2f s", Double(step) / source.stepsPerSecond)
        out += "<text x=\"\(n(view.width / 2))\" y=\"\(n(view.height + 0.045 * view.height))\" font-size=\"\(n(0.035 * view.height))\" text-anchor=\"middle\">\(time)</text>\n"
        return out
    }
}
