// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// The sweep file, its variants, shards, rows and merge, without running the command line.
@Suite struct SweepTests {
    static let text = """
        {"format": "dynamics-sweep/1", "scene": "pile", "items": 20,
         "parameters": [{"pointer": "/items/0/material/friction", "values": [0.1, 0.2]},
                        {"pointer": "/configuration/seed", "range": {"from": 1, "to": 2, "step": 0.5}}],
         "metrics": ["stateHash", {"highest": "position"}]}
        """

    @Test("JSON Pointers set values in objects and arrays, with ~1 and ~0 escapes and '-' to append; bad steps are named")
    func pointers() throws {
        let base = SceneValue.object(["a": .array([.number(1), .object(["x/y": .number(2), "m~n": .null])])])
        #expect(try base.setting("/a/1/x~1y", to: .number(5)).value(at: "/a/1/x~1y") == .number(5))
        #expect(try base.setting("/a/1/m~0n", to: .bool(true)).value(at: "/a/1/m~0n") == .bool(true))
        #expect(try base.setting("/a/-", to: .string("z")).value(at: "/a/2") == .string("z"))
        #expect(try base.setting("/b", to: .number(1)).value(at: "/b") == .number(1))
        #expect(throws: SweepPointerError.self) { try base.setting("/a/7", to: .null) }
        #expect(throws: SweepPointerError.self) { try base.setting("/c/d", to: .null) }
        #expect(throws: SweepPointerError.self) { try base.setting("/a/0/x", to: .null) }
        #expect(throws: SweepPointerError.self) { try base.setting("a", to: .null) }
        do {
            _ = try base.setting("/a/7", to: .null)
        } catch {
            #expect(error.description == "pointer '/a/7': index 7 is past the end of an array of 2 at step 2")
        }
    }

    @Test("ranges are from + k·step with the end included; random samples repeat for a seed and stay in bounds")
    func values() {
        #expect(SweepParameter.range(from: 0, to: 1, step: 0.25) == [0, 0.25, 0.5, 0.75, 1])
        #expect(SweepParameter.range(from: 0, to: 0.3, step: 0.1) == [0, 0.1, 0.2, 0.30000000000000004])
        #expect(SweepParameter.range(from: 1, to: 0, step: 0.1) == nil)
        #expect(SweepParameter.range(from: 0, to: 1, step: 0) == nil)
        let a = SweepParameter.random(count: 1000, seed: 9, min: -2, max: 3, integer: false)
        #expect(a == SweepParameter.random(count: 1000, seed: 9, min: -2, max: 3, integer: false))
        #expect(a != SweepParameter.random(count: 1000, seed: 10, min: -2, max: 3, integer: false))
        #expect(a.allSatisfy { $0 >= -2 && $0 < 3 })
        let mean = a.reduce(0, +) / 1000
        #expect(abs(mean - 0.5) < 0.2, "mean \(mean) of U(-2, 3)")  // σ of the mean: 1.44 / √1000 = 0.046
        let k = SweepParameter.random(count: 600, seed: 1, min: 1, max: 6, integer: true)
        #expect(Set(k) == [1, 2, 3, 4, 5, 6])
        // SplitMix64 from seed 0: its first output is 0xE220A8397B1DCDAF (the reference sequence).
        let first: UInt64 = 0xE220_A839_7B1D_CDAF
        #expect(SweepParameter.random(count: 1, seed: 0, min: 0, max: 0x1p64, integer: false)[0] == Double(first >> 11) * 0x1p-53 * 0x1p64)
    }

    @Test("a grid varies the first parameter slowest, zip pairs values; ids depend on the values alone")
    func variants() throws {
        var sweep = try Sweep.parse(Data(Self.text.utf8))
        #expect(sweep.variantCount == 6)
        let grid = (0..<6).map { sweep.variant($0).values }
        #expect(grid == [[.number(0.1), .number(1)], [.number(0.1), .number(1.5)], [.number(0.1), .number(2)],
                         [.number(0.2), .number(1)], [.number(0.2), .number(1.5)], [.number(0.2), .number(2)]])
        let ids = (0..<6).map { sweep.variant($0).id }
        #expect(Set(ids).count == 6 && ids.allSatisfy { $0.count == 16 })
        #expect(ids == (0..<6).map { try! Sweep.parse(Data(Self.text.utf8)).variant($0).id }, "the same file gives the same ids")
        sweep.parameters[1].values = [.number(7), .number(8)]
        sweep.combination = .zip
        #expect(sweep.variantCount == 2 && sweep.variant(1).values == [.number(0.2), .number(8)])
        // The id of the values (0.2, 2) does not depend on where they sit in the enumeration.
        sweep.parameters[0].values = [.number(0.2)]
        sweep.parameters[1].values = [.number(2)]
        #expect(sweep.variant(0).id == ids[5])
    }

    @Test("shards interleave and cover every variant once; job arrays' variables give the shard")
    func shards() throws {
        for n in [1, 3, 7] {
            let shards = (0..<n).map { SweepShard(index: $0, count: n)! }
            for k in 0..<50 { #expect(shards.filter { $0.owns(k) }.count == 1) }
        }
        #expect(SweepShard.parse("2/5") == SweepShard(index: 2, count: 5))
        #expect(SweepShard.parse("5/5") == nil && SweepShard.parse("a/5") == nil && SweepShard.parse("1") == nil)
        #expect(try SweepShard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"], shards: nil)
            == SweepShard(index: 3, count: 4))
        #expect(try SweepShard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "12", "SLURM_ARRAY_TASK_MIN": "10", "SLURM_ARRAY_TASK_MAX": "13"], shards: nil)
            == SweepShard(index: 2, count: 4))
        #expect(try SweepShard.fromEnvironment(["JOB_COMPLETION_INDEX": "6"], shards: 7) == SweepShard(index: 6, count: 7))
        #expect(try SweepShard.fromEnvironment([:], shards: nil) == nil)
        #expect(throws: SweepShardError.self) { try SweepShard.fromEnvironment(["JOB_COMPLETION_INDEX": "6"], shards: nil) }
        #expect(throws: SweepShardError.self) { try SweepShard.fromEnvironment(["JOB_COMPLETION_INDEX": "7"], shards: 7) }
        #expect(throws: SweepShardError.self) { try SweepShard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "x"], shards: nil) }
        #expect(throws: SweepShardError.self) {
            try SweepShard.fromEnvironment(["SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"], shards: 5)
        }
    }

    @Test("a sweep file's mistakes are reported with the field's pointer and the value")
    func problems() {
        func problems(_ text: String) -> [String] {
            do {
                _ = try Sweep.parse(Data(text.utf8))
                return []
            } catch {
                return error.problems.map { "\($0.path): \($0.message)" }
            }
        }
        let head = #"{"format": "dynamics-sweep/1", "scene": "pile", "#
        #expect(problems(head + #""seconds": -1}"#) == ["/seconds: must be > 0 and ≤ 1000000, got -1"])
        #expect(problems(head + #""parameters": [{"pointer": "x", "values": [1]}]}"#)
            == [#"/parameters/0/pointer: must be a JSON Pointer starting with '/', got "x""#])
        #expect(problems(head + #""parameters": [{"pointer": "/a", "range": {"from": 0, "to": 1, "step": -1}}]}"#)
            == ["/parameters/0/range: needs step > 0 and to ≥ from, with at most 10000000 values; got from 0.0, to 1.0, step -1.0"])
        #expect(problems(head + #""parameters": [{"pointer": "/a", "values": [1], "random": {}}]}"#)
            == ["/parameters/0: needs exactly one of values, range and random, got values and random"])
        #expect(problems(head + #""combine": "zip", "parameters": [{"pointer": "/a", "values": [1]}, {"pointer": "/b", "values": [1, 2]}]}"#)
            == ["/combine: zip needs parameters with as many values each, got [1, 2]"])
        #expect(problems(head + #""metrics": [{"item": "a", "quantity": "mass"}]}"#)
            == [#"/metrics/0: must be {item: ID, quantity: position, speed, height}, got {"item": "a", "quantity": "mass"}"#])
        #expect(problems(#"{"format": "dynamics-sweep/2", "scene": "pile"}"#) == [#"/format: must be "dynamics-sweep/1", got "dynamics-sweep/2""#])
        #expect(problems(head + #""colour": 1}"#).first?.hasPrefix("/colour: unknown key") == true)
        #expect(problems(" \n") == [": the file is empty"])
        let big = #"{"pointer": "/a", "range": {"from": 1, "to": 10000, "step": 1}}"#
        #expect(problems(head + #""parameters": [\#(big), \#(big.replacingOccurrences(of: "/a", with: "/b"))]}"#)
            == ["/parameters: 10000 × 10000 values make more than 10000000 variants"])
    }

    @Test("rows read back as written, merged tables order by index and list missing, duplicated and conflicting rows")
    func rowsAndMerge() throws {
        let sweep = try Sweep.parse(Data(Self.text.utf8))
        let manifest = SweepManifest(sweep, base: .object([:]), name: "t")
        #expect(SweepManifest.read(Data(manifest.text.utf8)) == manifest)
        let rows = (0..<6).map { k in
            k == 4 ? SweepRow(index: k, id: sweep.variant(k).id, parameters: sweep.variant(k).values, metrics: [], error: "invalid scene: \"x\", y")
                : SweepRow(index: k, id: sweep.variant(k).id, parameters: sweep.variant(k).values,
                           metrics: [.string("00ff"), .string("box-\(k)"), .number(Double(k) + 0.5), .null])
        }
        for row in rows { #expect(SweepRow.read(row.line(manifest).dropLast(), manifest) == row) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("sweep-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try manifest.text.write(to: folder.appendingPathComponent("sweep.json"), atomically: true, encoding: .utf8)
        // Shard 1 of 2 complete; shard 0 of 2 stopped after variant 2, mid-line; variant 3 again from a 3-shard run.
        try (rows[1].line(manifest) + rows[3].line(manifest) + rows[5].line(manifest))
            .write(to: folder.appendingPathComponent("shard-0001-of-0002.jsonl"), atomically: true, encoding: .utf8)
        try (rows[0].line(manifest) + rows[2].line(manifest) + "{\"index\":4,\"id")
            .write(to: folder.appendingPathComponent("shard-0000-of-0002.jsonl.partial"), atomically: true, encoding: .utf8)
        try rows[3].line(manifest).write(to: folder.appendingPathComponent("shard-0000-of-0003.jsonl"), atomically: true, encoding: .utf8)
        var table = try SweepTable.merge(directory: folder)
        #expect(table.rows == [rows[0], rows[1], rows[2], rows[3], rows[5]])
        #expect(table.missing == [4] && table.duplicates == [3] && table.conflicts.isEmpty)
        #expect(table.partialFiles == ["shard-0000-of-0002.jsonl.partial"])
        let csv = table.csv.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(csv[0] == "index,id,/items/0/material/friction,/configuration/seed,stateHash,highest.id,highest.x,highest.y,error")
        #expect(csv[1] == "0,\(rows[0].id),0.1,1,00ff,box-0,0.5,,")
        #expect(table.jsonLines == [0, 1, 2, 3, 5].map { rows[$0].line(manifest) }.joined())
        // The missing row arrives; a different row for variant 5 is a conflict.
        try (rows[4].line(manifest) + SweepRow(index: 5, id: rows[5].id, parameters: rows[5].parameters, metrics: [.string("1"), .null, .null, .null]).line(manifest))
            .write(to: folder.appendingPathComponent("shard-0000-of-0002.jsonl.partial"), atomically: true, encoding: .utf8)
        table = try SweepTable.merge(directory: folder)
        #expect(table.missing == [0, 2] && table.conflicts == [5])
        #expect(table.csv.contains("4,\(rows[4].id),0.2,1.5,,,,,\"invalid scene: \"\"x\"\", y\"\n"))
        #expect(throws: SweepTableError.self) { try SweepTable.merge(directory: folder.appendingPathComponent("none")) }
    }
}
