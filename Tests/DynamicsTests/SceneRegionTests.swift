// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// Named regions of a scene (beyond UIKit): which items enter and leave them, how many are in them and how many
/// entered, in a run, its events and sweep metrics. Oracle: free fall of semi-implicit Euler, 4 substeps of
/// 1/240 s a step at 1000 pt/s², whose fall after k steps is g·h²·4k(4k + 1)/2 = (2000/57 600)·k(4k + 1) pt.
@Suite struct SceneRegionTests {
    /// Five balls falling from y = 0 at x = 0, 100, … 400; an anchored sitter at (−500, 700); a band y ∈ [500, 1000]
    /// across them all, a circle of 60 pt about (200, 750) in the third ball's path, and a concave L.
    static let scene = """
        {"format": "dynamics-scene/1", "configuration": {"duration": 2},
         "items": [{"id": "sitter", "shape": {"type": "circle", "radius": 10}, "center": [-500, 700], "material": {"anchored": true}}],
         "generators": [{"type": "grid", "id": "ball", "shape": {"type": "circle", "radius": 10}, "count": 5,
                         "origin": [0, 0], "columns": 5, "spacing": [100, 100]}],
         "behaviors": [{"type": "gravity", "tags": ["ball"]}],
         "regions": [{"id": "band", "rectangle": {"x": -1000, "y": 500, "width": 3000, "height": 500}},
                     {"id": "ring", "circle": {"center": [200, 750], "radius": 60}},
                     {"id": "ell", "path": [[-50, -50], [150, -50], [150, 50], [50, 50], [50, 300], [-50, 300]]}]}
        """

    /// The fall after k steps (pt).
    static func fall(_ k: Int) -> Double { 2000.0 / 57_600 * Double(k) * Double(4 * k + 1) }

    @Test("balls enter the band at the step their fall first reaches 500 pt and leave it past 1000 pt; an item there from the start counts but never entered")
    func band() throws {
        #expect(Self.fall(59) < 500 && Self.fall(60) >= 500 && Self.fall(84) <= 1000 && Self.fall(85) > 1000)
        #expect(Self.fall(70) < 690 && Self.fall(71) >= 690 && Self.fall(76) <= 810 && Self.fall(77) > 810)
        let run = try SceneRun(try SceneDocument.parse(Data(Self.scene.utf8)))
        var events: [Int: [SceneRegionEvent]] = [:]
        for _ in 0..<120 {
            try run.step()
            if !run.regionEvents.isEmpty { events[run.steps] = run.regionEvents }
        }
        let balls = (1...5).map { $0 } // places: the sitter is 0
        #expect(events[60] == balls.map { SceneRegionEvent(region: "band", item: $0, entered: true) }, "\(events[60] ?? [])")
        #expect(events[85] == balls.map { SceneRegionEvent(region: "band", item: $0, entered: false) })
        #expect(events[71] == [SceneRegionEvent(region: "ring", item: 3, entered: true)], "the ball at x = 200 is place 3")
        #expect(events[77] == [SceneRegionEvent(region: "ring", item: 3, entered: false)])
        // The balls at x = 0 and 100 start in the L: the second leaves its arm (y ≤ 50) at step 19, the first its
        // stem (y ≤ 300) at step 47.
        #expect(Self.fall(18) <= 50 && Self.fall(19) > 50 && Self.fall(46) <= 300 && Self.fall(47) > 300)
        #expect(events[19] == [SceneRegionEvent(region: "ell", item: 2, entered: false)])
        #expect(events[47] == [SceneRegionEvent(region: "ell", item: 1, entered: false)])
        #expect(Set(events.keys) == [19, 47, 60, 71, 77, 85], "\(events.keys.sorted())")
        #expect(run.regionCount("band") == 1 && run.regionThroughput("band") == 5)
        #expect(run.regionCount("ring") == 0 && run.regionThroughput("ring") == 1)
        #expect(run.regionCount("ell") == 0 && run.regionThroughput("ell") == 0, "the first ball started in the L and left it without entering")
        #expect(run.regionCount("nowhere") == nil && run.regionThroughput("nowhere") == nil)
        // As sweep metrics, with a region the scene lacks: null.
        let measurement = SweepMeasurement(metrics: [.regionCount("band"), .regionThroughput("band"), .regionCount("nowhere")])
        #expect(try measurement.values(run) == [.number(1), .number(5), .null])
    }

    @Test("a concave path holds the points inside its L and not those in its notch; circles and rectangles include their edges")
    func outlines() {
        let ell = SceneNamedRegion(id: "ell", shape: .path([CGPoint(x: -50, y: -50), CGPoint(x: 150, y: -50), CGPoint(x: 150, y: 50),
                                                            CGPoint(x: 50, y: 50), CGPoint(x: 50, y: 300), CGPoint(x: -50, y: 300)]))
        #expect(ell.contains(CGPoint(x: 0, y: 0)) && ell.contains(CGPoint(x: 100, y: 0)) && ell.contains(CGPoint(x: 0, y: 250)))
        #expect(!ell.contains(CGPoint(x: 100, y: 100)) && !ell.contains(CGPoint(x: 200, y: 0)) && !ell.contains(CGPoint(x: 0, y: 301)))
        let ring = SceneNamedRegion(id: "r", shape: .circle(center: CGPoint(x: 10, y: 10), radius: 5))
        #expect(ring.contains(CGPoint(x: 15, y: 10)) && !ring.contains(CGPoint(x: 15.01, y: 10)) && !ring.contains(CGPoint(x: 14, y: 14)))
        let box = SceneNamedRegion(id: "b", shape: .rectangle(CGRect(x: 0, y: 0, width: 10, height: 20)))
        #expect(box.contains(CGPoint(x: 10, y: 20)) && !box.contains(CGPoint(x: 10, y: 20.01)))
    }

    @Test("regions read back from the file they write")
    func readsBack() throws {
        let document = try SceneDocument.parse(Data(Self.scene.utf8))
        #expect(document.regions.map(\.id) == ["band", "ring", "ell"])
        #expect(try SceneDocument.parse(Data(document.json.utf8)) == document)
    }

    static let malformed: [(String, String)] = [
        (#"[{"id": "a"}]"#, "/regions/0: needs one of rectangle, circle, path"),
        (#"[{"id": "a", "circle": {"center": [0, 0], "radius": 1}, "path": [[0, 0], [1, 0], [0, 1]]}]"#,
         "/regions/0: has circle and path: a region has one outline"),
        (#"[{"id": "a", "path": [[0, 0], [1, 0]]}]"#, "/regions/0/path: must have 3 or more points, got 2"),
        (#"[{"id": "a", "circle": {"center": [0, 0], "radius": 0}}]"#, "/regions/0/circle/radius: must be > 0, got 0"),
        (#"[{"id": "a", "rectangle": {"x": 0, "y": 0, "width": 1, "height": 1}}, {"id": "a", "circle": {"center": [0, 0], "radius": 1}}]"#,
         "/regions/1/id: 'a' names another region already"),
        (#"[{"rectangle": {"x": 0, "y": 0, "width": 1, "height": 1}}]"#, "/regions/0: missing key 'id'"),
    ]

    @Test("a bad region reports its path", arguments: malformed.indices)
    func malformedRegions(_ k: Int) {
        let (regions, expected) = Self.malformed[k]
        let text = #"{"format": "dynamics-scene/1", "regions": "# + regions + "}"
        let (document, problems) = SceneDocument.read(Data(text.utf8), yaml: false)
        #expect(document == nil, "\(regions) was accepted")
        let errors = problems.filter { $0.severity == .error }.map { "\($0.path): \($0.message)" }
        #expect(errors.first == expected, "\(errors)")
    }

    @Test("simulate --events writes each entry and exit as a line naming the region and the item")
    func eventLines() throws {
        let folder = try CommandLineTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scene = folder.appendingPathComponent("regions.json"), events = folder.appendingPathComponent("events.jsonl")
        try Self.scene.write(to: scene, atomically: true, encoding: .utf8)
        let result = try CommandLineTests.dynamics(["simulate", scene.path, "--seconds", "1.5", "--events", events.path, "--quiet"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try String(contentsOf: events, encoding: .utf8).split(separator: "\n").filter { $0.contains("\"region\"") }
        #expect(lines.count == 2 + 5 + 2 + 5, "\(lines.count) region lines")
        #expect(lines.first == #"{"step":19,"time":0.316667,"region":"ell","item":"ball-1","entered":false}"#)
        #expect(lines.contains(#"{"step":71,"time":1.183333,"region":"ring","item":"ball-2","entered":true}"#))
    }

    @Test("sweep files take {count: REGION} and {throughput: REGION}, with one column each")
    func sweepMetrics() throws {
        let sweep = try Sweep.parse(Data(#"{"format": "dynamics-sweep/1", "scene": "pile", "metrics": [{"count": "funnel"}, {"throughput": "funnel"}]}"#.utf8))
        #expect(sweep.metrics == [.regionCount("funnel"), .regionThroughput("funnel")])
        #expect(sweep.metrics.flatMap(\.columns) == ["funnel.count", "funnel.throughput"])
    }
}
