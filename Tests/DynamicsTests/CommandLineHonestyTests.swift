// SPDX-License-Identifier: Apache-2.0
import Foundation
import Testing

/// The command line never fails silently: failed variants change the exit status, times outside a run are
/// refused, `--quiet` never hides the output asked for, help offers only what a command takes, and the
/// shell completes scene names, files and `--simd` values.
@Suite struct CommandLineHonestyTests {
    typealias CLI = CommandLineTests

    /// A scene file whose push is written with `angle` and `magnitude` (the reader's normal form has a
    /// `vector` instead).
    static let pushScene = """
        format: dynamics-scene/1
        name: pushed
        bounds: {x: 0, y: 0, width: 2000, height: 600}
        configuration: {duration: 1}
        items:
          - {id: box, shape: {type: rectangle, width: 50, height: 50}, center: [100, 300]}
        behaviors:
          - {type: push, id: shove, mode: continuous, items: [box], angle: 0, magnitude: 1}
        """

    static func sweep(scene: String = "pushed.yaml", _ parameters: String, seconds: Double = 1) -> String {
        """
        format: dynamics-sweep/1
        scene: \(scene)
        seconds: \(seconds)
        parameters:
        \(parameters)
        metrics: [{item: box, quantity: position}, timeToRest]
        """
    }

    @Test("a sweep's pointers name the scene file as written: /behaviors/0/magnitude of a push given by angle and magnitude")
    func pointersApplyAsWritten() throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try SweepCommandTests.file(folder, "pushed.yaml", Self.pushScene)
        let sweep = try SweepCommandTests.file(folder, "s.yaml", Self.sweep("  - {pointer: /behaviors/0/magnitude, values: [1, 2, 4, 8]}"))
        let results = folder.appendingPathComponent("r")
        let r = try CLI.dynamics(["sweep", sweep, "--output", results.path, "--workers", "1"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(!r.stderr.contains("failed"), "\(r.stderr)")
        let rows = try SweepCommandTests.merged(results).csv.split(separator: "\n").dropFirst()
        // x = 100 + ½ · (100 F / m) · t² with m = 0.25 (50 × 50 pt at density 1): 300, 500, 900, 1 700 pt after 1 s
        // (semi-implicit Euler over 240 substeps moves a little further: (1 + 1/240) of it).
        let xs = rows.map { row in Double(row.split(separator: ",", omittingEmptySubsequences: false)[3])! }
        #expect(xs.count == 4)
        for (x, force) in zip(xs, [1.0, 2, 4, 8]) {
            let expected = 100 + 0.5 * 100 * force / 0.25 * (1 + 1.0 / 240)
            #expect(abs(x - expected) < 0.002 * expected, "force \(force): x = \(x), expected \(expected)")
        }
    }

    @Test("a shard whose every variant failed exits 65 with the count and the first error; --strict fails on any")
    func failedVariants() throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try SweepCommandTests.file(folder, "pushed.yaml", Self.pushScene)
        // A size of -1 is refused by the scene reader: an error row for that variant.
        let allBad = try SweepCommandTests.file(folder, "bad.yaml", Self.sweep("  - {pointer: /items/0/shape/width, values: [-1, -2]}"))
        var results = folder.appendingPathComponent("bad")
        var r = try CLI.dynamics(["sweep", allBad, "--output", results.path, "--workers", "1"])
        #expect(r.status == 65, "\(r.stderr)")
        #expect(r.stderr.contains("2 of 2 variants failed") && r.stderr.contains("first, variant 0") && r.stderr.contains("width"),
                "\(r.stderr)")
        // The rows are written all the same, and the shard is complete.
        #expect(FileManager.default.fileExists(atPath: results.appendingPathComponent("shard-0000-of-0001.jsonl").path))
        // One bad variant of two: a notice and exit 0, or 65 with --strict.
        let oneBad = try SweepCommandTests.file(folder, "one.yaml", Self.sweep("  - {pointer: /items/0/shape/width, values: [50, -1]}"))
        results = folder.appendingPathComponent("one")
        r = try CLI.dynamics(["sweep", oneBad, "--output", results.path, "--workers", "1", "--quiet"])
        #expect(r.status == 0 && r.stderr.contains("1 of 2 variants failed") && r.stderr.contains("first, variant 1"), "\(r.stderr)")
        results = folder.appendingPathComponent("strict")
        r = try CLI.dynamics(["sweep", oneBad, "--output", results.path, "--workers", "1", "--strict"])
        #expect(r.status == 65 && r.stderr.contains("1 of 2 variants failed"), "\(r.stderr)")
        r = try CLI.dynamics(["sweep", "--merge", results.path, "--output", results.path + ".csv", "--strict"])
        #expect(r.status == 65 && r.stderr.contains("variant 1 failed"), "\(r.stderr)")
        #expect(FileManager.default.fileExists(atPath: results.path + ".csv"), "--strict still writes the table")
    }

    @Test("timeToRest is when the final rest began: empty for a run that rested, was woken and ends awake")
    func timeToRestIsTheFinalRest() throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A box on the floor rests within a second; a flick at `time` wakes it, and friction stops it again.
        _ = try SweepCommandTests.file(folder, "rest.yaml", """
            format: dynamics-scene/1
            bounds: {x: 0, y: 0, width: 4000, height: 600}
            items:
              - {id: box, shape: {type: rectangle, width: 50, height: 50}, center: [100, 574], material: {friction: 0.5}}
            behaviors:
              - {type: gravity}
              - {type: collision, boundsAsBoundary: true}
              - {type: push, id: flick, mode: instantaneous, items: [box], vector: [1, 0], active: false}
            timeline:
              - {time: 2, set: {behavior: flick, property: active, value: true}}
            """)
        let sweep = try SweepCommandTests.file(folder, "s.yaml", Self.sweep(scene: "rest.yaml", "  - {pointer: /timeline/0/time, values: [100, 2, 5.9]}", seconds: 6))
        let results = folder.appendingPathComponent("r")
        let r = try CLI.dynamics(["sweep", sweep, "--output", results.path, "--workers", "1", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try SweepCommandTests.merged(results).csv.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        // Columns: index, id, the time, box.x, box.y, timeToRest, error.
        let rest = rows.filter { !$0.isEmpty }.map { String($0.split(separator: ",", omittingEmptySubsequences: false)[5]) }
        #expect(rest.count == 3)
        guard rest.count == 3, let never = Double(rest[0]), let again = Double(rest[1]) else {
            Issue.record("rows: \(rows)")
            return
        }
        #expect(never > 0 && never < 2, "unflicked: rested at \(never) s")
        #expect(again > 2 && again < 6, "flicked at 2 s: the final rest began at \(again) s")
        #expect(rest[2] == "", "flicked at 5.9 s, awake at the end: \(rest[2])")
    }

    @Test("--frames times outside the run exit 64 naming the flag and the run's duration")
    func framesOutsideTheRun() throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let svg = folder.appendingPathComponent("strip.svg").path
        for frames in ["7", "0,9"] {
            let r = try CLI.dynamics(["simulate", "bridge", "--items", "10", "--seconds", "5", "--output", svg, "--frames", frames])
            #expect(r.status == 64 && r.stderr.contains("--frames") && r.stderr.contains("lasts 5 s"), "\(frames): \(r.stderr)")
            #expect(!FileManager.default.fileExists(atPath: svg))
        }
        let r = try CLI.dynamics(["simulate", "bridge", "--items", "10", "--seconds", "1", "--frames", "0.5"])
        #expect(r.status == 64 && r.stderr.contains("--frames"), "--frames without an .svg output: \(r.stderr)")
    }

    @Test("--json --quiet prints the JSON; each output written is named on stderr, unless --quiet")
    func quietKeepsTheOutput() throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let csv = folder.appendingPathComponent("run.csv").path
        var r = try CLI.dynamics(["simulate", "bridge", "--items", "10", "--seconds", "0.5", "--json", "--quiet", "--output", csv])
        #expect(r.status == 0)
        let summary = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any]
        #expect(summary?["steps"] as? Int == 30, "\(r.stdout)")
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        r = try CLI.dynamics(["simulate", "bridge", "--items", "10", "--seconds", "0.5", "--output", csv])
        let bytes = try FileManager.default.attributesOfItem(atPath: csv)[.size] as? Int ?? 0
        let size = bytes < 1000 ? "\(bytes) bytes" : String(format: "%.1f kB", Double(bytes) / 1000)
        #expect(r.stderr.contains("dynamics: wrote \(csv) (\(size))"), "\(r.stderr)")
    }

    @Test("sweep --help offers only the options sweep takes, and no help repeats its default")
    func help() throws {
        let sweep = try CLI.dynamics(["sweep", "--help"])
        for refused in ["--substeps", "--fixed-substeps", "--contact-frequency", "--solver-iterations", "--no-rest", "--integrator"] {
            #expect(!sweep.stdout.contains(refused), "sweep --help offers \(refused)")
        }
        #expect(sweep.stdout.contains("--workers") && sweep.stdout.contains("--strict"))
        for command in ["simulate", "bench", "sweep", "spring", "validate", "scenes"] {
            let text = try CLI.dynamics([command, "--help"]).stdout.replacingOccurrences(of: "\n", with: " ")
                .replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
            #expect(text.range(of: #"\(default [^)]*\)\.? \(default:"#, options: .regularExpression) == nil, "\(command): \(text)")
        }
    }

    @Test("the shell completes scene names and files, and --simd values")
    func completion() throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["mine.yaml", "other.json", "notes.txt"] { _ = try SweepCommandTests.file(folder, name, "") }
        var r = try CLI.dynamics(["---completion", "simulate", "--", "positional@0", "2", "2", "dynamics", "simulate", "py"])
        #expect(r.stdout.split(separator: "\n") == ["pyramid"], "\(r.stdout)")
        let prefix = folder.path + "/"
        r = try CLI.dynamics(["---completion", "simulate", "--", "positional@0", "2", "\(prefix.count)", "dynamics", "simulate", prefix])
        #expect(r.stdout.split(separator: "\n").map(String.init) == [prefix + "mine.yaml", prefix + "other.json"], "\(r.stdout)")
        for shell in ["bash", "zsh", "fish"] {
            let script = try CLI.dynamics(["--generate-completion-script", shell]).stdout
            #expect(script.contains("avx512") && script.contains("avx2"), "\(shell): no --simd values")
            #expect(script.contains("---completion simulate"), "\(shell): no scene completion")
        }
    }
}
