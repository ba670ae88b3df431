// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

extension SceneRun {
    /// The boundaries of the scene's collision behaviours in force as polylines in reference coordinates
    /// (pt), for drawing: the reference bounds less their insets, segments, paths, and arcs flattened to 5°
    /// steps. A closed outline repeats its first point at the end. A collision behaviour the timeline has
    /// removed is left out.
    public var boundaryOutlines: [[CGPoint]] {
        document.behaviors.flatMap { behavior -> [[CGPoint]] in
            guard case .collision(let c) = behavior.kind else { return [] }
            if let id = behavior.id, collisionIndex[id] == nil { return [] }  // removed by the timeline
            return c.outlines(bounds: document.bounds)
        }
    }

    /// Every collision behaviour's boundary outlines (as ``boundaryOutlines``), each with the time (s) at
    /// which the timeline removes its behaviour, or nil when it stays: for a playback that draws each
    /// boundary while it exists.
    public var timedBoundaryOutlines: [(points: [CGPoint], removedAt: Double?)] {
        var removal: [String: Double] = [:]
        for event in document.timeline {
            if case .remove(let id) = event.action, removal[id] == nil { removal[id] = event.time }
        }
        return document.behaviors.flatMap { behavior -> [(points: [CGPoint], removedAt: Double?)] in
            guard case .collision(let c) = behavior.kind else { return [] }
            let removedAt = behavior.id.flatMap { removal[$0] }
            return c.outlines(bounds: document.bounds).map { (points: $0, removedAt: removedAt) }
        }
    }
}

extension SceneCollision {
    /// This behaviour's boundaries as polylines (pt): the bounds less the insets (when it turns them into
    /// a boundary), segments, paths, and arcs flattened to 5° steps. A closed outline repeats its first point.
    public func outlines(bounds: CGRect?) -> [[CGPoint]] {
        var outlines: [[CGPoint]] = []
        if boundsAsBoundary, let b = bounds {
            let r = CGRect(x: b.minX + insets.left, y: b.minY + insets.top,
                           width: b.width - insets.left - insets.right, height: b.height - insets.top - insets.bottom)
            outlines.append([CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY), CGPoint(x: r.maxX, y: r.maxY),
                             CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.minX, y: r.minY)])
        }
        for boundary in boundaries {
            switch boundary.shape {
            case .segment(let from, let to): outlines.append([from, to])
            case .path(let points, let closed): outlines.append(closed ? points + [points[0]] : points)
            case .arc(let center, let radius, let start, let end, let clockwise):
                // UIKit's convention: clockwise on screen (y down) is increasing angle.
                var sweep = end - start
                if clockwise { while sweep < 0 { sweep += 2 * .pi } } else { while sweep > 0 { sweep -= 2 * .pi } }
                let steps = max(2, Int((abs(sweep) / (.pi / 36)).rounded(.up)))
                outlines.append((0...steps).map { k in
                    let a = start + sweep * CGFloat(k) / CGFloat(steps)
                    return CGPoint(x: center.x + radius * cos(a), y: center.y + radius * sin(a))
                })
            }
        }
        return outlines
    }
}

extension SceneRun {
    /// The attachments in force, as world ids (for drawing them with `DynamicWorld/anchors(of:)`).
    public var attachmentIDs: [AttachmentID] { live.compactMap(\.attachment) }

    /// The fields in force, with their current properties.
    public var fields: [SceneField] {
        live.compactMap { entry in
            if case .field(let f) = entry.behavior.kind { return f }
            return nil
        }
    }
}

extension SceneRegion {
    /// The discs and rectangles the region is made of (for outlining it), whatever combines them.
    public var primitives: [SceneRegion] {
        switch self {
        case .infinite: []
        case .disc, .rectangle: [self]
        case .inverse(let a): a.primitives
        case .union(let a, let b), .intersection(let a, let b), .difference(let a, let b): a.primitives + b.primitives
        }
    }
}
