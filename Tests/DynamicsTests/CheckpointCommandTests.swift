// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// `dynamics simulate --checkpoint`, `--pause-at` and `--resume`, run as a user runs them: a run stopped and
/// continued (once or twice, by a pause or by SIGTERM) writes every output byte for byte as the run never
/// stopped, and bad checkpoints and arguments give a one-line reason and a sysexits status.
@Suite struct CheckpointCommandTests {
    typealias CLI = CommandLineTests

    /// Every kind of output of a run of `scene` (a built-in with timeline or a file), with the arguments to make them.
    static func outputs(in dir: URL) -> (arguments: [String], files: [String]) {
        let files = ["t.csv", "t.jsonl", "t.html", "t.svg", "t.npz", "e.jsonl"]
        var arguments: [String] = []
        for f in files.dropLast() { arguments += ["--output", dir.appendingPathComponent(f).path] }
        arguments += ["--frames", "0,0.5,1", "--events", dir.appendingPathComponent("e.jsonl").path, "--quiet",
                      "--summary", dir.appendingPathComponent("s.json").path]
        return (arguments, files)
    }

    @Test("a run paused twice and resumed writes every output byte for byte as the run never stopped", arguments: [
        ["junkyard", "--items", "150", "--seconds", "1"], ["rain", "--items", "1500", "--seconds", "1"],
        ["cart-drops", "--seconds", "1"],
    ])
    func pausedAndResumed(scene: [String]) throws {
        let whole = try CLI.folder(), parts = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: whole); try? FileManager.default.removeItem(at: parts) }
        let (first, files) = Self.outputs(in: whole)
        let a = try CLI.dynamics(["simulate"] + scene + ["--workers", "1"] + first + ["--json"])
        #expect(a.status == 0, "\(a.stderr)")
        let checkpoint = parts.appendingPathComponent("run.ckpt").path
        let (second, _) = Self.outputs(in: parts)
        let b = try CLI.dynamics(["simulate"] + scene + ["--workers", "1"] + second + ["--checkpoint", checkpoint, "--pause-at", "0.3"])
        #expect(b.status == 130 && b.stderr.contains("paused after 18 of 60 steps"), "\(b.stderr)")
        #expect(FileManager.default.fileExists(atPath: checkpoint))
        for f in files { #expect(!FileManager.default.fileExists(atPath: parts.appendingPathComponent(f).path), "\(f) before the end") }
        let c = try CLI.dynamics(["simulate", "--resume", checkpoint, "--pause-at", "0.75"])
        #expect(c.status == 130 && c.stderr.contains("paused after 45 of 60 steps"), "\(c.stderr)")
        let d = try CLI.dynamics(["simulate", "--resume", checkpoint, "--json", "--quiet"])
        #expect(d.status == 0, "\(d.stderr)")
        func hash(_ json: String) -> String? {
            (try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])?["state_hash"] as? String
        }
        #expect(hash(d.stdout) != nil && hash(d.stdout) == hash(a.stdout))
        for f in files {
            let x = try Data(contentsOf: whole.appendingPathComponent(f)), y = try Data(contentsOf: parts.appendingPathComponent(f))
            #expect(x == y, "\(scene[0]): \(f) differs (\(x.count) and \(y.count) bytes)")
        }
        #expect(!FileManager.default.fileExists(atPath: checkpoint), "a completed run removes its checkpoint")
        let left = try FileManager.default.contentsOfDirectory(atPath: parts.path).filter { $0.hasSuffix(".partial") }
        #expect(left.isEmpty, "partial files left: \(left)")
    }

    @Test("SIGTERM writes a checkpoint and keeps the partial outputs; the run resumed from it ends as the run never stopped")
    func terminated() throws {
        let whole = try CLI.folder(), parts = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: whole); try? FileManager.default.removeItem(at: parts) }
        let scene = ["pile", "--items", "1500", "--seconds", "4", "--workers", "1"]
        let files = ["t.csv", "t.html", "e.jsonl"]
        func arguments(_ dir: URL) -> [String] {
            ["--output", dir.appendingPathComponent("t.csv").path, "--output", dir.appendingPathComponent("t.html").path,
             "--events", dir.appendingPathComponent("e.jsonl").path, "--quiet"]
        }
        let a = try CLI.dynamics(["simulate"] + scene + arguments(whole))
        #expect(a.status == 0, "\(a.stderr)")
        let checkpoint = parts.appendingPathComponent("run.ckpt").path
        // SIGTERM at any moment of the run (the run may also end first: then there is nothing to resume).
        let b = try CLI.dynamics(["simulate"] + scene + arguments(parts) + ["--checkpoint", checkpoint, "--checkpoint-every", "0.2"],
                                 signal: SIGTERM, after: 1.0)
        if b.status == 130 {
            #expect(b.stderr.contains("interrupted after") && b.stderr.contains("checkpoint"), "\(b.stderr)")
            let c = try CLI.dynamics(["simulate", "--resume", checkpoint, "--quiet"])
            #expect(c.status == 0, "\(c.stderr)")
        } else {
            #expect(b.status == 0, "\(b.stderr)")
        }
        for f in files {
            #expect(try Data(contentsOf: whole.appendingPathComponent(f)) == Data(contentsOf: parts.appendingPathComponent(f)), "\(f)")
        }
    }

    @Test("a sweep that starts its variants from a checkpoint of its base gives the rows of a sweep that runs each from the start")
    func sweepFromACheckpoint() throws {
        let dir = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        // The region scene, with a push at 1 s that the variants set: settled once to 0.9 s, then each variant.
        var base = try SceneDocument.parse(Data(SceneRegionTests.scene.utf8))
        base.timeline = [SceneEvent(time: 1, .velocity(targets: SceneTargets(tags: ["ball"]), linear: CGVector(dx: 0, dy: 0), angular: 0))]
        let scene = try SweepCommandTests.file(dir, "scene.json", base.json)
        let checkpoint = dir.appendingPathComponent("settled.ckpt").path
        let settle = try CLI.dynamics(["simulate", scene, "--workers", "1", "--checkpoint", checkpoint, "--pause-at", "0.9", "--quiet"])
        #expect(settle.status == 130, "\(settle.stderr)")
        func sweep(_ name: String, start: Bool, pointer: String = "/timeline/0/velocity/linear/0") throws -> String {
            try SweepCommandTests.file(dir, name, """
                format: dynamics-sweep/1
                scene: scene.json
                seconds: 2
                \(start ? "start: settled.ckpt" : "")
                parameters:
                  - {pointer: \(pointer), values: [-200, 0, 150, 400]}
                metrics: [stateHash, kineticEnergy, {count: band}, {throughput: band}]
                """)
        }
        var tables: [String] = []
        for (name, start) in [("fresh", false), ("started", true)] {
            let results = dir.appendingPathComponent(name)
            let r = try CLI.dynamics(["sweep", try sweep(name + ".yaml", start: start), "--output", results.path, "--workers", "1", "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
            tables.append(try SweepCommandTests.merged(results).csv)
        }
        #expect(tables[0] == tables[1], "\(tables[0])\n---\n\(tables[1])")
        #expect(tables[0].split(separator: "\n").count == 5)
        // A parameter that changes what the settled run already did: each variant's row says so.
        let bad = dir.appendingPathComponent("bad")
        let r = try CLI.dynamics(["sweep", try sweep("bad.yaml", start: true, pointer: "/generators/0/spacing/0"), "--output", bad.path,
                                  "--workers", "1", "--quiet"])
        let rows = try SweepCommandTests.merged(bad).jsonl
        #expect(rows.contains("the scene differs from the checkpoint's at /generators/0/spacing/0"), "\(r.stderr) \(rows)")
    }

    @Test("bad checkpoints and arguments give a one-line reason and a sysexits status")
    func refusals() throws {
        let dir = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: dir) }
        let checkpoint = dir.appendingPathComponent("run.ckpt")
        let p = try CLI.dynamics(["simulate", "pile", "--items", "50", "--seconds", "1", "--checkpoint", checkpoint.path, "--pause-at", "0.5",
                                  "--quiet"])
        #expect(p.status == 130)
        let bytes = try Data(contentsOf: checkpoint)
        func resume(_ data: Data) throws -> CommandLineTests.Result {
            let path = dir.appendingPathComponent("bad.ckpt")
            try data.write(to: path)
            return try CLI.dynamics(["simulate", "--resume", path.path])
        }
        let truncated = try resume(bytes.prefix(bytes.count / 2))
        #expect(truncated.status == 65 && truncated.stderr.contains("invalid checkpoint"), "\(truncated.stderr)")
        var damaged = bytes
        damaged[bytes.count / 2] ^= 1
        let d = try resume(damaged)
        #expect(d.status == 65 && d.stderr.contains("damaged"), "\(d.stderr)")
        let foreign = try resume(Data("{\"items\": []}".utf8))
        #expect(foreign.status == 65 && foreign.stderr.contains("not a dynamics simulate checkpoint"), "\(foreign.stderr)")
        let missing = try CLI.dynamics(["simulate", "--resume", dir.appendingPathComponent("none").path])
        #expect(missing.status == 66, "\(missing.stderr)")
        let extra = try CLI.dynamics(["simulate", "pile", "--resume", checkpoint.path])
        #expect(extra.status == 64 && extra.stderr.contains("--resume takes the run's arguments"), "\(extra.stderr)")
        let noFile = try CLI.dynamics(["simulate", "pile", "--pause-at", "1"])
        #expect(noFile.status == 64 && noFile.stderr.contains("--checkpoint"), "\(noFile.stderr)")
        for r in [truncated, d, foreign, missing, extra] {
            #expect(r.stderr.split(separator: "\n").count == 1, "one line: \(r.stderr)")
        }
        // The good checkpoint still continues.
        let good = try CLI.dynamics(["simulate", "--resume", checkpoint.path, "--quiet"])
        #expect(good.status == 0, "\(good.stderr)")
    }
}
