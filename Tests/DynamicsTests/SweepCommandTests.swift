// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// `dynamics sweep` run as a cluster runs it: shards in separate processes, chosen by flag or by a job
/// array's environment, killed and rerun, then merged.
@Suite struct SweepCommandTests {
    typealias CLI = CommandLineTests

    /// 12 variants of the pile-and-flick example: 3 frictions × 2 elasticities × 2 seeds, 1 s each.
    static let small = """
        format: dynamics-sweep/1
        name: small
        scene: pile-and-flick
        seconds: 1
        parameters:
          - {pointer: /generators/0/material/friction, values: [0.1, 0.5, 0.9]}
          - {pointer: /generators/1/material/elasticity, values: [0, 0.5]}
          - {pointer: /configuration/seed, random: {count: 2, seed: 3, min: 0, max: 1000, integer: true}}
        metrics: [stateHash, kineticEnergy, timeToRest, contactEvents, {highest: height}, {item: red, quantity: speed}, {boundingBox: ball}]
        """

    static func file(_ folder: URL, _ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    /// Merges `results` into CSV and JSON Lines and returns both.
    static func merged(_ results: URL) throws -> (csv: String, jsonl: String) {
        let csv = results.path + ".csv", jsonl = results.path + ".jsonl"
        let r = try CLI.dynamics(["sweep", "--merge", results.path, "--output", csv, "--output", jsonl, "--quiet"])
        #expect(r.status == 0, "merge: \(r.stderr)")
        return (try String(contentsOfFile: csv, encoding: .utf8), try String(contentsOfFile: jsonl, encoding: .utf8))
    }

    @Test("shards 0…N−1 (N = 1, 3, 7; by flag, Slurm's array and Kubernetes' index; 1 or 2 workers) merge to the same bytes")
    func shardsMergeAlike() throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sweep = try Self.file(folder, "small.yaml", Self.small)
        let whole = folder.appendingPathComponent("whole")
        var r = try CLI.dynamics(["sweep", sweep, "--output", whole.path, "--workers", "1", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let reference = try Self.merged(whole)
        #expect(reference.csv.split(separator: "\n").count == 13 && !reference.csv.contains("diverged"))
        #expect(reference.jsonl.split(separator: "\n").count == 12)
        // Three shards by flag, on 2 workers.
        let three = folder.appendingPathComponent("three")
        for i in 0..<3 {
            r = try CLI.dynamics(["sweep", sweep, "--output", three.path, "--shard", "\(i)/3", "--workers", "2", "--quiet"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        // Seven Slurm array tasks 10…16, on 1 worker.
        let seven = folder.appendingPathComponent("seven")
        for task in 10...16 {
            r = try CLI.dynamics(["sweep", sweep, "--output", seven.path, "--workers", "1", "--quiet"],
                                 environment: ["SLURM_ARRAY_TASK_ID": "\(task)", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_MAX": "16"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        // A Kubernetes Indexed Job of 4 completions.
        let indexed = folder.appendingPathComponent("indexed")
        for index in 0..<4 {
            r = try CLI.dynamics(["sweep", sweep, "--output", indexed.path, "--shards", "4", "--workers", "2", "--quiet"],
                                 environment: ["JOB_COMPLETION_INDEX": "\(index)"])
            #expect(r.status == 0, "\(r.stderr)")
        }
        for (name, results, files) in [("3 shards", three, 3), ("7 Slurm tasks", seven, 7), ("4 indexed completions", indexed, 4)] {
            let shardFiles = try FileManager.default.contentsOfDirectory(atPath: results.path).filter { $0.hasSuffix(".jsonl") }
            #expect(shardFiles.count == files, "\(name): \(shardFiles)")
            let table = try Self.merged(results)
            #expect(table.csv == reference.csv, "\(name): the merged CSV differs")
            #expect(table.jsonl == reference.jsonl, "\(name): the merged JSON Lines differ")
        }
        // A shard out of the array, and an index without --shards, are refused with a reason.
        r = try CLI.dynamics(["sweep", sweep, "--output", indexed.path], environment: ["JOB_COMPLETION_INDEX": "2"])
        #expect(r.status == 64 && r.stderr.contains("needs --shards N"), "\(r.stderr)")
        r = try CLI.dynamics(["sweep", sweep, "--output", indexed.path, "--shard", "3/3"])
        #expect(r.status == 64, "\(r.stderr)")
    }

    @Test("a shard killed mid-variant and rerun records every variant once; a cut-short line is dropped")
    func killedShardResumes() throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 10 variants of a 600-box pile for 1.5 s: about 0.3 s each on this machine.
        let sweep = try Self.file(folder, "slow.json", """
            {"format": "dynamics-sweep/1", "scene": "pile", "items": 600, "seconds": 1.5,
             "parameters": [{"pointer": "/items/0/material/friction", "range": {"from": 0, "to": 0.9, "step": 0.1}}],
             "metrics": ["stateHash", "kineticEnergy", {"highest": "height"}]}
            """)
        let results = folder.appendingPathComponent("results")
        let partial = results.appendingPathComponent("shard-0000-of-0001.jsonl.partial")
        let url = try #require(CLI.executable)
        let process = Process()
        process.executableURL = url
        process.arguments = ["sweep", sweep, "--output", results.path, "--workers", "1", "--quiet"]
        try process.run()
        // Kill it (SIGKILL: no handler runs) once two variants are recorded, while a third runs.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            // Through a file handle: String(contentsOf:) leaks its buffer for an empty file.
            let lines = FileHandle(forReadingAtPath: partial.path).flatMap { try? $0.readToEnd() }
                .map { String(decoding: $0, as: UTF8.self).split(separator: "\n").count } ?? 0
            if lines >= 2 { break }
            Thread.sleep(forTimeInterval: 0.005)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(!FileManager.default.fileExists(atPath: results.appendingPathComponent("shard-0000-of-0001.jsonl").path),
                "the shard finished before it was killed: the test proves nothing")
        let recorded = try String(contentsOf: partial, encoding: .utf8).split(separator: "\n").count
        #expect((2..<10).contains(recorded))
        // As if the kill had cut a row short.
        let handle = try FileHandle(forWritingTo: partial)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"index":7,"id":"00"#.utf8))
        try handle.close()
        var r = try CLI.dynamics(["sweep", "--merge", results.path, "--output", folder.appendingPathComponent("early.csv").path])
        #expect(r.status == 65 && r.stderr.contains("missing:") && r.stderr.contains("unfinished shard files"), "\(r.stderr)")
        r = try CLI.dynamics(["sweep", sweep, "--output", results.path, "--workers", "2", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let resumed = try Self.merged(results)
        let fresh = folder.appendingPathComponent("fresh")
        r = try CLI.dynamics(["sweep", sweep, "--output", fresh.path, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let reference = try Self.merged(fresh)
        #expect(resumed.jsonl == reference.jsonl && resumed.csv == reference.csv)
        #expect(resumed.jsonl.split(separator: "\n").map { $0.prefix(14) } == (0..<10).map { "{\"index\":\($0),\"id\"".prefix(14) })
        // Run again, the complete shard does nothing.
        r = try CLI.dynamics(["sweep", sweep, "--output", results.path])
        #expect(r.status == 0 && r.stderr.contains("complete already"), "\(r.stderr)")
    }

    @Test("an invalid variant gives an error row and the shard goes on; a folder of another sweep is refused")
    func faults() throws {
        let folder = try CLI.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sweep = try Self.file(folder, "faulty.yaml", """
            format: dynamics-sweep/1
            scene: falling-square
            seconds: 0.5
            parameters:
              - {pointer: /items/0/material/friction, values: [0.5, -1, "much", 0.2]}
            metrics: [stateHash, {item: square, quantity: position}]
            outputs: [svg, csv]
            """)
        let results = folder.appendingPathComponent("results")
        var r = try CLI.dynamics(["sweep", sweep, "--output", results.path, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let table = try Self.merged(results)
        let lines = table.csv.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[2].hasSuffix(",-1,,,,\"invalid scene: /items/0/material/friction: must be in 0…1000000, got -1\""), "\(lines[2])")
        #expect(lines[3].hasSuffix(",much,,,,\"invalid scene: /items/0/material/friction: must be a number, got a string\""), "\(lines[3])")
        #expect(lines[1].hasSuffix(",") && lines[4].hasSuffix(","), "the valid variants have no error")
        // The square falls 0.5 s from rest under 1000 pt/s²: 125 pt, both frictions alike (nothing touches).
        let y1 = try #require(Double(lines[1].split(separator: ",")[5])), y4 = try #require(Double(lines[4].split(separator: ",")[5]))
        #expect(abs(y1 - (100 + 125)) < 2 && y1 == y4, "\(y1), \(y4)")
        let variants = try FileManager.default.contentsOfDirectory(atPath: results.appendingPathComponent("variants").path).sorted()
        #expect(variants.count == 4 && variants.allSatisfy { $0.hasPrefix("000000-") || $0.hasPrefix("000003-") }, "\(variants)")
        // Another sweep into the same folder.
        let other = try Self.file(folder, "other.yaml", Self.small)
        r = try CLI.dynamics(["sweep", other, "--output", results.path])
        #expect(r.status == 73 && r.stderr.contains("holds the results of another sweep"), "\(r.stderr)")
        // A pointer that does not resolve in the base scene fails before anything runs.
        let typo = try Self.file(folder, "typo.yaml", Self.small.replacingOccurrences(of: "/generators/0/material", with: "/generators/5/material"))
        r = try CLI.dynamics(["sweep", typo, "--output", folder.appendingPathComponent("typo").path])
        #expect(r.status == 65 && r.stderr.contains("/parameters/0: pointer '/generators/5/material/friction': index 5 is past the end"),
                "\(r.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("typo").path))
        // --version names the version and the SIMD paths of the build.
        r = try CLI.dynamics(["--version"])
        #expect(r.status == 0 && r.stdout.hasPrefix("dynamics \(DynamicsBuild.version) (commit ")
            && r.stdout.contains("SIMD paths \(DynamicsBuild.simdPaths.joined(separator: ", "))"), "\(r.stdout)")
        #expect(DynamicsBuild.simdPaths.first == "scalar" && DynamicsBuild.simdPaths.contains(DynamicWorld.bestSIMDPath))
        // --example prints a sweep that reads.
        r = try CLI.dynamics(["sweep", "--example"])
        let example = try Sweep.parse(Data(r.stdout.utf8), yaml: true)
        #expect(r.status == 0 && example.variantCount == 36)
    }
}
