// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// The `dynamics` executable, run as a user runs it: exit statuses (sysexits), outputs parsed back, and no
/// output file left behind by a failed or interrupted run.
@Suite struct CommandLineTests {
    /// The built executable beside the test bundle (`swift test` builds every product).
    static let executable: URL? = {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidate = directory.appendingPathComponent("dynamics")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `dynamics` with `arguments` and `environment` added to this process's; `interruptAfter` sends
    /// SIGINT after that many seconds.
    static func dynamics(_ arguments: [String], environment: [String: String] = [:], interruptAfter: Double? = nil) throws -> Result {
        try dynamics(arguments, environment: environment, signal: SIGINT, after: interruptAfter)
    }

    /// Runs `dynamics` as above, sending `signal` after `after` seconds when given.
    static func dynamics(_ arguments: [String], environment: [String: String] = [:], signal: Int32, after: Double?) throws -> Result {
        let interruptAfter = after
        let url = try #require(executable, "the dynamics executable is not beside the tests (build it with swift build)")
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        if let interruptAfter {
            Thread.sleep(forTimeInterval: interruptAfter)
            kill(process.processIdentifier, signal)
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// A fresh folder for one test's files.
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("dynamics-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static let square = """
        {"format": "dynamics-scene/1", "name": "square", "bounds": {"x": 0, "y": 0, "width": 400, "height": 600},
         "configuration": {"duration": 1},
         "items": [{"id": "square", "shape": {"type": "rectangle", "width": 100, "height": 100}, "center": [200, 100]},
                   {"id": "ball", "shape": {"type": "circle", "radius": 20}, "center": [100, 300], "tags": ["round"]}],
         "behaviors": [{"type": "gravity"}, {"type": "collision", "boundsAsBoundary": true}]}
        """

    @Test("simulate writes CSV, JSON Lines, events and a summary that parse back and agree with the library")
    func outputs() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("square.json")
        try Self.square.write(to: scene, atomically: true, encoding: .utf8)
        let (csv, jsonl, events, summary) = (dir.appendingPathComponent("t.csv"), dir.appendingPathComponent("t.jsonl"),
                                             dir.appendingPathComponent("e.jsonl"), dir.appendingPathComponent("s.json"))
        let r = try Self.dynamics(["simulate", scene.path, "--workers", "1", "--every", "6", "--output", csv.path, "--output", jsonl.path,
                                   "--events", events.path, "--summary", summary.path, "--final-states", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        // 60 steps written every 6: frames 0, 6, …, 60 (11), two items each.
        let rows = try String(contentsOf: csv, encoding: .utf8).split(separator: "\n")
        #expect(rows.first == "step,time,id,x,y,angle,vx,vy,omega")
        #expect(rows.count == 1 + 11 * 2)
        let lines = try String(contentsOf: jsonl, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 11 * 2)
        for (row, line) in zip(rows.dropFirst(), lines) {
            let fields = row.split(separator: ",")
            let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["id"] as? String == String(fields[2]))
            #expect((object["x"] as? Double).map { Float($0) } == Float(fields[3]))
            #expect((object["vy"] as? Double).map { Float($0) } == Float(fields[7]))
        }
        // The last frame and the summary's hash against the same scene run in-process.
        let run = try SceneRun(try SceneDocument.parse(Data(Self.square.utf8)), configuration: {
            var c = DynamicsConfiguration()
            c.workerCount = 1
            return c
        }())
        for _ in 0..<60 { try run.step() }
        let last = rows[rows.count - 2].split(separator: ",")
        #expect(last[0] == "60" && last[2] == "square")
        #expect(Float(last[4]) == Float(run.world.pose(of: run.itemIDs[0]).center.y))
        let s = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: summary)) as? [String: Any])
        #expect(s["state_hash"] as? String == String(format: "%016llx", run.world.stateHash()))
        let finals = try #require(s["final_items"] as? [[String: Any]])
        #expect(finals.map { $0["id"] as? String } == ["square", "ball"])
        #expect((finals[0]["y"] as? Double).map { Float($0) } == Float(last[4]))
        // The square falls 200 pt (its bottom from 150 to 600) and lands: a contact with the unnamed bounds.
        let first = try #require(String(contentsOf: events, encoding: .utf8).split(separator: "\n").first)
        let event = try #require(JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        #expect(event["began"] as? Bool == true)
        #expect((event["b"] as? [String: Any])?.keys.contains("boundary") == true)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".partial") }
        #expect(leftovers.isEmpty)
    }

    @Test("--track keeps only the named items and tags")
    func track() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("square.json"), csv = dir.appendingPathComponent("t.csv")
        try Self.square.write(to: scene, atomically: true, encoding: .utf8)
        let r = try Self.dynamics(["simulate", scene.path, "--seconds", "0.1", "--track", "round", "--output", csv.path, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let ids = Set(try String(contentsOf: csv, encoding: .utf8).split(separator: "\n").dropFirst().map { $0.split(separator: ",")[2] })
        #expect(ids == ["ball"])
        let bad = try Self.dynamics(["simulate", scene.path, "--track", "nobody", "--output", csv.path])
        #expect(bad.status == 64 && bad.stderr.contains("nobody"))
    }

    @Test("an invalid scene exits 65 with its first problem on one line and leaves no output; validate lists all")
    func invalidScene() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("bad.json"), csv = dir.appendingPathComponent("t.csv")
        try #"{"format": "dynamics-scene/1", "items": [{"id": "a", "shape": {"type": "circle", "radius": -1}, "center": [0, 0], "material": {"frction": 1}}]}"#
            .write(to: scene, atomically: true, encoding: .utf8)
        let r = try Self.dynamics(["simulate", scene.path, "--output", csv.path])
        #expect(r.status == 65)
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(r.stderr.contains("/items/0/shape/radius: must be > 0, got -1"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["bad.json"])
        let v = try Self.dynamics(["validate", scene.path])
        #expect(v.status == 65)
        #expect(v.stdout.contains("/items/0/shape/radius") && v.stdout.contains("did you mean 'friction'"))
        let missing = try Self.dynamics(["simulate", dir.appendingPathComponent("none.json").path])
        #expect(missing.status == 66)
        let valid = dir.appendingPathComponent("ok.json")
        try Self.square.write(to: valid, atomically: true, encoding: .utf8)
        #expect(try Self.dynamics(["validate", valid.path]).status == 0)
    }

    @Test("a run whose state overflows exits 65 naming the summary field, and leaves no output")
    func divergedRun() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("diverge.json")
        // A spring field of strength 10⁹ on a ball of mass 0.13: ω = √(100 · 10⁹ / 0.13) ≈ 9·10⁵ rad/s, so ω·h is
        // thousands per substep and the explicit step multiplies the offset by about (ω·h)² each substep: the
        // state overflows in a few steps and the kinetic energy is NaN.
        let diverging = #"{"format": "dynamics-scene/1", "configuration": {"duration": 10}, "items": [{"id": "ball", "shape": {"type": "circle", "radius": 20}, "center": [100, 300]}], "behaviors": [{"type": "field", "kind": "spring", "position": [0, 0], "strength": STRENGTH}]}"#
        try diverging.replacingOccurrences(of: "STRENGTH", with: "1e9").write(to: scene, atomically: true, encoding: .utf8)
        let outputs = ["t.csv", "e.jsonl", "s.json"].map { dir.appendingPathComponent($0).path }
        let r = try Self.dynamics(["simulate", scene.path, "--output", outputs[0], "--events", outputs[1], "--summary", outputs[2]])
        #expect(r.status == 65)
        #expect(r.stderr.hasPrefix("dynamics: the simulation diverged: summary field kinetic_energy is ") &&
                r.stderr.hasSuffix(", not a finite number; no output written\n") && r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["diverge.json"])
        // At strength 1 (ω ≈ 28 rad/s) the same run stays finite and writes its summary.
        try diverging.replacingOccurrences(of: "STRENGTH", with: "1").write(to: scene, atomically: true, encoding: .utf8)
        let finite = try Self.dynamics(["simulate", scene.path, "--seconds", "1", "--summary", outputs[2], "--quiet"])
        #expect(finite.status == 0, "\(finite.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: outputs[2]))) as? [String: Any]
        #expect((summary?["kinetic_energy"] as? Double).map { $0.isFinite && $0 > 0 } == true)
    }

    @Test("bad arguments exit 64 naming the flag and its range", arguments: [
        (["simulate", "default", "--seconds", "1e300"], "--seconds"), (["simulate", "chain", "--seconds", "1e17"], "--seconds"),
        (["bench", "--steps", "99999999999999999"], "--steps"), (["simulate", "integration", "--items", "3000000000"], "--items"),
        (["simulate", "default", "--seconds", "1e-9"], "--seconds"), (["simulate", "default", "--items", "-5"], "--items"),
        (["simulate", "default", "--workers", "-1"], "--workers"), (["simulate", "default", "--items", "0"], "--items"),
        (["bench", "--scene", "integration", "--items", "100000000"], "GiB"), (["simulate", "default", "--output", "x.png"], "--output"),
        (["simulate", "default", "--substeps", "1000"], "--substeps must be 1…64"),
        (["simulate", "default", "--contact-frequency", "nan"], "--contact-frequency"),
        (["simulate", "default", "--solver-iterations", "0"], "--solver-iterations must be 1…8"),
        (["simulate", "default", "--every", "0"], "--every"), (["simulate", "default", "--frames", "abc", "--output", "x.svg"], "--frames"),
        (["spring", "--duration", "-1", "--damping-ratio", "0.4"], "--duration"), (["spring", "--stiffness", "100"], "--damping"),
        (["spring", "--frequency", "10", "--damping-ratio", "0.5", "--samples", "1"], "--samples"),
    ])
    func badArguments(arguments: [String], flag: String) throws {
        let r = try Self.dynamics(arguments)
        #expect(r.status == 64, "\(arguments): \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").first?.contains(flag) == true, "\(r.stderr)")
    }

    @Test("every exported built-in simulates to the built-in's state hash", arguments: Scene.builtIn.map(\.name))
    func exportRoundTrip(name: String) throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let export = try Self.dynamics(["scenes", "--export", name, "--items", name.contains("pyramid") ? "110" : "50"])
        #expect(export.status == 0)
        let file = dir.appendingPathComponent("\(name).json")
        try export.stdout.write(to: file, atomically: true, encoding: .utf8)
        func hash(_ scene: String, _ extra: [String]) throws -> String? {
            let r = try Self.dynamics(["simulate", scene, "--seconds", "0.5", "--workers", "2", "--json"] + extra)
            return (try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["state_hash"] as? String
        }
        let fromFile = try hash(file.path, []), builtIn = try hash(name, ["--items", name.contains("pyramid") ? "110" : "50"])
        #expect(fromFile != nil && fromFile == builtIn, "\(name)")
    }

    @Test("SIGINT stops a run with status 130 and leaves no output file")
    func interrupt() throws {
        let dir = try Self.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let csv = dir.appendingPathComponent("t.csv")
        let r = try Self.dynamics(["simulate", "default", "--items", "2000", "--seconds", "600", "--output", csv.path, "--quiet"],
                                  interruptAfter: 1.5)
        #expect(r.status == 130, "\(r.stderr)")
        #expect(r.stderr.contains("interrupted"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }
}

/// The binary outputs: NumPy's .npz read back with a reader of its own (stored zip entries, .npy headers)
/// against the CSV of the same run, and the SVG picture parsed as XML.
@Suite struct PictureAndArrayOutputTests {
    /// The arrays of a stored .npz: name → (header dictionary text, raw data).
    static func readNPZ(_ data: Data) throws -> [String: (header: String, body: Data)] {
        let bytes = [UInt8](data)
        func u16(_ i: Int) -> Int { Int(bytes[i]) | Int(bytes[i + 1]) << 8 }
        func u32(_ i: Int) -> Int { u16(i) | u16(i + 2) << 16 }
        var out: [String: (String, Data)] = [:]
        var p = 0
        while p + 30 <= bytes.count, u32(p) == 0x0403_4B50 {
            let size = u32(p + 22), nameLength = u16(p + 26), extra = u16(p + 28)
            let name = String(decoding: bytes[(p + 30)..<(p + 30 + nameLength)], as: UTF8.self)
            let start = p + 30 + nameLength + extra
            let entry = Array(bytes[start..<(start + size)])
            #expect(Array(entry[0..<6]) == [0x93] + Array("NUMPY".utf8))
            let headerLength = Int(entry[8]) | Int(entry[9]) << 8
            #expect((10 + headerLength) % 64 == 0)
            out[name] = (String(decoding: entry[10..<(10 + headerLength)], as: UTF8.self), Data(entry[(10 + headerLength)...]))
            p = start + size
        }
        return out
    }

    @Test(".npz arrays hold the CSV's values, frames × items, float32")
    func numpyArchive() throws {
        let dir = try CommandLineTests.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("square.json")
        try CommandLineTests.square.write(to: scene, atomically: true, encoding: .utf8)
        let (npz, csv) = (dir.appendingPathComponent("t.npz"), dir.appendingPathComponent("t.csv"))
        let r = try CommandLineTests.dynamics(["simulate", scene.path, "--every", "7", "--output", npz.path, "--output", csv.path, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let arrays = try Self.readNPZ(try Data(contentsOf: npz))
        #expect(Set(arrays.keys) == ["step.npy", "time.npy", "id.npy", "x.npy", "y.npy", "angle.npy", "vx.npy", "vy.npy", "omega.npy"])
        // 60 steps every 7: frames 0, 7, …, 56 and 60 (10), two items.
        let x = try #require(arrays["x.npy"])
        #expect(x.header.contains("'descr': '<f4'") && x.header.contains("'shape': (10, 2)"))
        let rows = try String(contentsOf: csv, encoding: .utf8).split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
        #expect(rows.count == 20)
        for column in ["x", "y", "angle", "vx", "vy", "omega"] {
            let body = try #require(arrays["\(column).npy"]).body
            let values = body.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
            let index = ["x": 3, "y": 4, "angle": 5, "vx": 6, "vy": 7, "omega": 8][column]!
            #expect(values == rows.map { Float($0[index])! }, "\(column)")
        }
        let steps = try #require(arrays["step.npy"]).body.withUnsafeBytes { Array($0.bindMemory(to: Int64.self)) }
        #expect(steps == [0, 7, 14, 21, 28, 35, 42, 49, 56, 60])
        let ids = try #require(arrays["id.npy"])
        #expect(ids.header.contains("'descr': '<U6'"))
    }

    @Test("spring prints UIKit's spring curve as the library computes it and plots it")
    func spring() throws {
        let dir = try CommandLineTests.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let svg = dir.appendingPathComponent("spring.svg")
        let r = try CommandLineTests.dynamics(["spring", "--duration", "0.5", "--damping-ratio", "0.4", "--velocity", "2",
                                               "--samples", "11", "--svg", svg.path])
        #expect(r.status == 0, "\(r.stderr)")
        let curve = SpringTimingCurve(duration: 0.5, dampingRatio: 0.4, initialVelocity: 2)
        let rows = r.stdout.split(separator: "\n").dropFirst(2).map { $0.split(separator: "\t").compactMap { Double($0) } }
        #expect(rows.count == 11)
        for row in rows where row.count == 3 {
            #expect(abs(row[1] - curve.progress(at: row[0])) < 1e-6 && abs(row[2] - curve.velocity(at: row[0])) < 1e-6, "\(row)")
        }
        #expect(abs((rows.last?[1] ?? 0) - 1) <= 0.001 + 1e-6, "settled at the end of the duration")
        let parser = XMLParser(data: try Data(contentsOf: svg))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    }

    @Test(".svg pictures are well-formed XML with a panel per --frames time")
    func picture() throws {
        let dir = try CommandLineTests.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let svg = dir.appendingPathComponent("bridge.svg")
        let r = try CommandLineTests.dynamics(["simulate", "bridge", "--items", "20", "--seconds", "1", "--frames", "0,0.5,1",
                                               "--output", svg.path, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try String(contentsOf: svg, encoding: .utf8)
        let parser = XMLParser(data: Data(text.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
        #expect(text.components(separatedBy: "<text ").count - 1 == 3)
        // 20 planks, 2 boxes and 2 posts per panel, and 21 pins drawn as lines.
        #expect(text.components(separatedBy: "<rect transform").count - 1 == 3 * 24)
        #expect(text.components(separatedBy: "<line ").count - 1 == 3 * 21)
    }
}

/// The malformed scenes of SceneFileTests, each as a file given to the executable: exit status 65, the
/// expected problem on stderr's one line, and no output file.
@Suite struct MalformedFileTests {
    @Test("each malformed scene file exits 65 with its problem and writes nothing", arguments: SceneFileTests.malformed.indices)
    func malformedFile(k: Int) throws {
        let (text, path, fragment) = SceneFileTests.malformed[k]
        let dir = try CommandLineTests.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let scene = dir.appendingPathComponent("scene-\(k).json"), csv = dir.appendingPathComponent("out.csv")
        try text.write(to: scene, atomically: true, encoding: .utf8)
        let r = try CommandLineTests.dynamics(["simulate", scene.path, "--output", csv.path, "--summary", dir.appendingPathComponent("s.json").path])
        #expect(r.status == 65, "\(r.stderr)")
        let line = r.stderr.split(separator: "\n")
        #expect(line.count == 1 && line[0].contains(fragment), "expected …\(fragment)… (at \(path)), got \(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["scene-\(k).json"])
    }
}
