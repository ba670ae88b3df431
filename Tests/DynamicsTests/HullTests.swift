// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// `CollisionShape.hull(of:)` (Beyond UIKit) against brute force: a directed segment between two points is a
/// hull edge exactly when every other point lies on its left or on it.
@Suite struct HullTests {
    /// The corners of the hull by brute force, in no order: the starts of the edges with every other point on
    /// their left by more than the tolerance or within it of the segment's line (and between its ends).
    static func bruteCorners(_ points: [CGPoint]) -> Set<[Double]> {
        var corners = Set<[Double]>()
        for a in points {
            for b in points where a != b {
                let length = hypot(b.x - a.x, b.y - a.y)
                let allLeft = points.allSatisfy { p in
                    ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) / length > -1e-9
                }
                if allLeft { corners.insert([Double(a.x), Double(a.y)]) }
            }
        }
        return corners
    }

    @Test("random point sets: every corner is an input, the hull is convex and counterclockwise, and contains every point")
    func randomSets() throws {
        var rng = SeededGenerator(seed: 41)
        for trial in 0..<500 {
            let n = 3 + Int(rng.next() % 14)
            let points = (0..<n).map { _ in CGPoint(x: (rng.unit() - 0.5) * 400, y: (rng.unit() - 0.5) * 400) }
            let shape: CollisionShape
            do { shape = try CollisionShape.hull(of: points) } catch {
                // Only nearly collinear sets may fail: their brute-force hull has no triangle wider than 0.5 pt.
                let area = points.indices.flatMap { i in points.indices.map { j in (i, j) } }.map { i, j -> Double in
                    points.indices.map { k in
                        Double(abs((points[j].x - points[i].x) * (points[k].y - points[i].y) -
                                   (points[j].y - points[i].y) * (points[k].x - points[i].x)))
                    }.max()!
                }.max()!
                #expect(area < 1e-3 * 400 * 400, "trial \(trial): \(error) for a set of area \(area)")
                continue
            }
            guard case .polygon(let hull) = shape else { Issue.record("not a polygon"); continue }
            #expect(hull.count >= 3 && hull.count <= n)
            for c in hull { #expect(points.contains(c), "trial \(trial): corner \(c) is not an input") }
            for k in hull.indices {
                let a = hull[k], b = hull[(k + 1) % hull.count], c = hull[(k + 2) % hull.count]
                let turn = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
                #expect(turn > 0, "trial \(trial): not convex and counterclockwise at \(b)")
                // Every point is inside or, where a corner within the tolerance of a line was dropped, at most
                // the tolerance outside; every corner is farther than the tolerance from its neighbours' chord.
                for p in points {
                    let side = ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) / hypot(b.x - a.x, b.y - a.y)
                    #expect(side > -CollisionShape.hullTolerance, "trial \(trial): \(p) lies outside the edge \(a)–\(b)")
                }
                let chord = abs((c.x - a.x) * (b.y - a.y) - (c.y - a.y) * (b.x - a.x)) / hypot(c.x - a.x, c.y - a.y)
                #expect(chord >= CollisionShape.hullTolerance, "trial \(trial): \(b) is \(chord) pt from its neighbours' line")
            }
            // The corners are brute force's, but for those dropped within the tolerance of a line (each of which
            // the side test above found within the tolerance of an edge).
            let brute = Self.bruteCorners(points)
            #expect(Set(hull.map { [Double($0.x), Double($0.y)] }).isSubset(of: brute), "trial \(trial)")
        }
    }

    @Test("duplicates, points inside and corners on a line are dropped; bad sets throw naming points")
    func welding() throws {
        let square = [CGPoint(x: -10, y: -10), CGPoint(x: 10, y: -10), CGPoint(x: 10, y: 10), CGPoint(x: -10, y: 10)]
        let noisy = square + [CGPoint(x: 0, y: 0), CGPoint(x: 10.2, y: 10.1), CGPoint(x: 0, y: -10.2), CGPoint(x: 3, y: 4)]
        guard case .polygon(let hull) = try CollisionShape.hull(of: noisy) else { Issue.record("not a polygon"); return }
        #expect(hull.count == 4, "\(hull)")
        for (field, points) in [("points (3 to 16)", Array(square.prefix(2))), ("points (3 to 16)", Array(repeating: square[0], count: 17)),
                                ("points (all on one line)", [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0.1), CGPoint(x: 20, y: 0)]),
                                ("points", [CGPoint(x: 0, y: 0), CGPoint(x: 1, y: CGFloat.nan), CGPoint(x: 2, y: 2)])] {
            do {
                _ = try CollisionShape.hull(of: points)
                Issue.record("\(points) was accepted")
            } catch {
                #expect("\(error)".contains(field), "\(error)")
            }
        }
    }

    @Test("a scene file's hull shape reads as its polygon; a collinear one is a problem at its path")
    func sceneFile() throws {
        let scene = """
            {"format": "dynamics-scene/1", "items": [{"id": "rock", "center": [0, 0], "shape": {"type": "hull",
             "points": [[0, 0], [40, 0], [20, 10], [40, 30], [0, 30], [10, 10]]}}]}
            """
        let document = try SceneDocument.parse(Data(scene.utf8))
        #expect(SceneDocument.read(Data(document.json.utf8), yaml: false).0 == document)
        #expect(document.json.contains("\"polygon\"") && !document.json.contains("[20, 10]"))
        let bad = #"{"format": "dynamics-scene/1", "items": [{"id": "a", "center": [0, 0], "shape": {"type": "hull", "points": [[0, 0], [1, 0], [2, 0]]}}]}"#
        let problems = SceneDocument.read(Data(bad.utf8), yaml: false).1
        #expect(problems.contains { $0.path == "/items/0/shape/points" && $0.message.contains("no convex hull") }, "\(problems)")
    }
}
