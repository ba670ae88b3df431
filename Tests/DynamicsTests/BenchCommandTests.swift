// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `dynamics bench` as a scaling tool: lists of scenes, items and workers, repeats, the table, JSON lines
/// and the plot. (Timings are not checked: these machines are shared; the fields and their relations are.)
@Suite struct BenchCommandTests {
    typealias CLI = CommandLineTests

    @Test("a sweep of 2 scenes × 2 sizes × 2 worker counts prints one JSON line each, with repeats, speed-ups and memory")
    func jsonLines() throws {
        let r = try CLI.dynamics(["bench", "--scene", "pile,integration", "--items", "100,400", "--workers", "1,2", "--steps", "5",
                                  "--repeat", "2", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines.count == 8)
        let objects = try lines.map { try #require(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        #expect(objects.map { $0["scene"] as? String } == ["pile", "pile", "pile", "pile", "integration", "integration", "integration", "integration"])
        #expect(objects.map { $0["workers"] as? Int } == [1, 2, 1, 2, 1, 2, 1, 2])
        for o in objects {
            let median = try #require(o["ms_per_step_median"] as? Double), least = try #require(o["ms_per_step_min"] as? Double)
            #expect(o["repeats"] as? Int == 2 && least <= median && least > 0)
            #expect((o["bytes_per_item"] as? Double).map { $0 >= 0 } == true && (o["peak_resident_bytes"] as? Int ?? 0) > 1 << 20)
            #expect((o["resident_bytes"] as? Int).map { $0 > 1 << 20 && $0 <= o["peak_resident_bytes"] as! Int } == true)
            #expect(o["cores"] as? Int == ProcessInfo.processInfo.activeProcessorCount && o["version"] as? String == DynamicsBuild.version)
            let speedUp = try #require(o["speed_up"] as? Double)
            if o["workers"] as? Int == 1 { #expect(speedUp == 1) }
            // Serial parts lie within what they are parts of (each step's, so their medians too), and every
            // step runs its blocks (and a pile's stages) as jobs.
            let serial = try #require(o["serial_ms_median"] as? Double)
            #expect(serial >= -1e-6 && serial <= median + 1e-9 && (o["jobs_per_step"] as? Double ?? 0) >= 1)
            for stage in ["broadphase", "narrowphase", "contact_solve"] {
                let part = try #require(o["\(stage)_serial_ms_median"] as? Double), whole = try #require(o["\(stage)_ms_median"] as? Double)
                #expect(part >= -1e-6 && part <= whole + 1e-9, "\(stage): serial \(part) of \(whole) ms")
            }
        }
        // The speed-up is the 1-worker median over this one, and the state does not depend on the workers.
        for k in stride(from: 0, to: 8, by: 2) {
            let one = objects[k]["ms_per_step_median"] as! Double, two = objects[k + 1]["ms_per_step_median"] as! Double
            #expect(abs((objects[k + 1]["speed_up"] as! Double) - one / two) < 1e-9)
            #expect(objects[k]["state_hash"] as? String == objects[k + 1]["state_hash"] as? String)
        }
    }

    @Test("bench reports the substeps the steps took: more than configured while a chain whips, unless fixed")
    func substepsTaken() throws {
        // 30 links released horizontally: their tail whips within the first 2 s.
        for (flags, adaptive) in [([String](), true), (["--fixed-substeps"], false)] {
            let r = try CLI.dynamics(["bench", "--scene", "chain", "--items", "30", "--steps", "120", "--workers", "1", "--json"] + flags)
            #expect(r.status == 0, "\(r.stderr)")
            let o = try #require(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            let mean = try #require(o["substeps_mean"] as? Double)
            #expect(o["substeps"] as? Int == 4 && o["adaptive_substeps"] as? Bool == adaptive)
            #expect(adaptive ? mean > 4 && mean <= 16 : mean == 4, "\(flags): \(mean) substeps on average")
        }
    }

    @Test("the table has a row per combination after the machine's line; the plot draws a panel per scene and a line per worker count")
    func tableAndPlot() throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plot = folder.appendingPathComponent("scaling.svg").path
        let r = try CLI.dynamics(["bench", "--scene", "pile,integration", "--items", "100,300,1000", "--workers", "1,2", "--steps", "3",
                                  "--plot", plot])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n")
        #expect(lines[0].contains("\(ProcessInfo.processInfo.activeProcessorCount) cores") && lines[0].contains("dynamics \(DynamicsBuild.version)"))
        #expect(lines[2].hasPrefix("scene") && lines[2].contains("speed-up") && lines.count == 3 + 12)
        // Well-formed XML (XMLParser: FoundationXML's XMLDocument leaks libxml2 nodes under LeakSanitizer),
        // then the elements this writer emits, one per line.
        let svg = try String(contentsOf: URL(fileURLWithPath: plot), encoding: .utf8)
        let parser = XMLParser(data: Data(svg.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        let polylines = svg.split(separator: "\n").filter { $0.hasPrefix("<polyline") }
        #expect(polylines.count == 4, "2 scenes × 2 worker counts")
        for line in polylines {
            let points = try #require(line.split(separator: "points=\"").last?.split(separator: "\"").first).split(separator: " ")
            #expect(points.count == 3)
            // More items to the right.
            let xs = points.map { Double($0.split(separator: ",")[0])! }
            #expect(xs == xs.sorted() && Set(xs).count == 3)
        }
        for label in [">pile<", ">integration<", ">1 worker<", ">2 workers<", ">items<", ">ms per step<", ">1k<"] {
            #expect(svg.contains(label), "no \(label) in the plot")
        }
        // Bad lists are refused with the flag's name.
        let bad = try CLI.dynamics(["bench", "--items", "10,x"])
        #expect(bad.status == 64 && bad.stderr.contains("--items"), "\(bad.stderr)")
        let badWorkers = try CLI.dynamics(["bench", "--workers", "1,99"])
        #expect(badWorkers.status != 0 && badWorkers.stderr.contains("--workers"), "\(badWorkers.stderr)")
    }
}
