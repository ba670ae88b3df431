// SPDX-License-Identifier: Apache-2.0
import Foundation
import Yams

extension Sweep {
    /// The most variants a sweep may have.
    public static let maximumVariants = 10_000_000

    /// Reads a sweep file: JSON, or YAML when the name ends in `.yaml` or `.yml`. Throws a
    /// ``SceneFileError`` listing every problem, each with the JSON Pointer of the value in the sweep file.
    public static func load(contentsOf url: URL) throws(SceneFileError) -> Sweep {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw SceneFileError(kind: .cannotOpen, problems: [SceneProblem(path: "", message: "cannot open \(url.path): \(error.localizedDescription)")])
        }
        return try parse(data, yaml: ["yaml", "yml"].contains(url.pathExtension.lowercased()))
    }

    /// Reads a sweep from its text (JSON, or YAML when `yaml`).
    public static func parse(_ data: Data, yaml: Bool = false) throws(SceneFileError) -> Sweep {
        if data.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) {
            throw SceneFileError(kind: .data, problems: [SceneProblem(path: "", message: "the file is empty")])
        }
        let value: SceneValue
        do {
            if yaml {
                value = try YAMLDecoder().decode(SceneValue.self, from: String(decoding: data, as: UTF8.self),
                                                 userInfo: [SceneValueBudget.key: SceneValueBudget(max(data.count, 64))])
            } else {
                let decoder = JSONDecoder()
                decoder.userInfo[SceneValueBudget.key] = SceneValueBudget(max(data.count, 64))
                value = try decoder.decode(SceneValue.self, from: data)
            }
        } catch {
            throw SceneFileError(kind: .data, problems: [SceneProblem(path: "", message: "not valid \(yaml ? "YAML" : "JSON")")])
        }
        var problems: [SceneProblem] = []
        let sweep = read(value, problems: &problems)
        guard let sweep, problems.isEmpty else { throw SceneFileError(kind: .data, problems: problems) }
        return sweep
    }

    /// A sweep from its value; problems collects what is wrong (nil when the scene is missing).
    static func read(_ value: SceneValue, problems: inout [SceneProblem]) -> Sweep? {
        func fail(_ path: String, _ message: String) { problems.append(SceneProblem(path: path, message: message)) }
        guard case .object(let top) = value else {
            fail("", "a sweep is an object, got \(value.kindName)")
            return nil
        }
        let known: Set = ["format", "name", "description", "scene", "items", "seconds", "fixed", "parameters", "combine", "metrics",
                          "outputs", "every", "start"]
        for key in top.keys.sorted() where !known.contains(key) { fail("/\(key)", "unknown key (\(known.sorted().joined(separator: ", ")))") }
        if top["format"] != .string("dynamics-sweep/1") {
            fail("/format", "must be \"dynamics-sweep/1\", got \(top["format"].map(\.compact) ?? "nothing")")
        }
        let scene: SweepScene
        switch top["scene"] {
        case .string(let s) where !s.isEmpty:
            let ext = URL(fileURLWithPath: s).pathExtension.lowercased()
            scene = ["json", "yaml", "yml"].contains(ext) || s.contains("/") ? .file(s) : .named(s)
        case .object(let fields) where fields["format"] != nil:
            scene = .inline(.object(fields))
        case let other:
            fail("/scene", "must be a scene's name, a scene file's path or a scene object, got \(other.map(\.compact) ?? "nothing")")
            return nil
        }
        var sweep = Sweep(scene: scene)
        if case .string(let s)? = top["name"] { sweep.name = s } else if let v = top["name"] { fail("/name", "must be a string, got \(v.compact)") }
        if case .string(let s)? = top["description"] { sweep.description = s }
        else if let v = top["description"] { fail("/description", "must be a string, got \(v.compact)") }
        if let v = top["items"] {
            if case .number(let x) = v, x == x.rounded(), x >= 1, x <= 1e9 { sweep.items = Int(x) }
            else { fail("/items", "must be a whole number 1…1000000000, got \(v.compact)") }
            if case .named = scene {} else { fail("/items", "applies to a built-in scene; a scene file lists its items") }
        }
        if let v = top["seconds"] {
            if case .number(let x) = v, x > 0, x <= 1e6 { sweep.seconds = x } else { fail("/seconds", "must be > 0 and ≤ 1000000, got \(v.compact)") }
        }
        if let v = top["every"] {
            if case .number(let x) = v, x == x.rounded(), x >= 1, x <= 1e9 { sweep.every = Int(x) }
            else { fail("/every", "must be a whole number ≥ 1, got \(v.compact)") }
        }
        if let v = top["start"] {
            if case .string(let s) = v, !s.isEmpty { sweep.start = s } else { fail("/start", "must be a checkpoint file's path, got \(v.compact)") }
        }
        if let v = top["combine"] {
            if case .string(let s) = v, let c = Combination(rawValue: s) { sweep.combination = c }
            else { fail("/combine", "must be \"grid\" or \"zip\", got \(v.compact)") }
        }
        if let v = top["fixed"] {
            guard case .array(let list) = v else {
                fail("/fixed", "must be a list of {pointer, value}, got \(v.kindName)")
                return nil
            }
            for (k, entry) in list.enumerated() {
                guard case .object(let f) = entry, case .string(let pointer)? = f["pointer"], pointer.hasPrefix("/"), let value = f["value"],
                      f.count == 2
                else {
                    fail("/fixed/\(k)", "must be {pointer: \"/…\", value: …}, got \(entry.compact)")
                    continue
                }
                sweep.fixed.append(SweepAssignment(pointer: pointer, value: value))
            }
        }
        switch top["parameters"] {
        case .array(let list)?:
            for (k, entry) in list.enumerated() {
                if let p = readParameter(entry, at: "/parameters/\(k)", fail: fail) { sweep.parameters.append(p) }
            }
        case nil: break
        case let other?: fail("/parameters", "must be a list of parameters, got \(other.kindName)")
        }
        if Set(sweep.parameters.map(\.pointer)).count != sweep.parameters.count { fail("/parameters", "two parameters have the same pointer") }
        if sweep.combination == .zip, Set(sweep.parameters.map(\.values.count)).count > 1 {
            fail("/combine", "zip needs parameters with as many values each, got \(sweep.parameters.map(\.values.count))")
        }
        if sweep.variantCount > maximumVariants {
            let sizes = sweep.parameters.map { String($0.values.count) }.joined(separator: " × ")
            fail("/parameters", "\(sizes) values make more than \(maximumVariants) variants")
        }
        if let v = top["metrics"] {
            guard case .array(let list) = v else {
                fail("/metrics", "must be a list, got \(v.kindName)")
                return nil
            }
            sweep.metrics = []
            for (k, entry) in list.enumerated() {
                if let m = readMetric(entry, at: "/metrics/\(k)", fail: fail) { sweep.metrics.append(m) }
            }
            let columns = sweep.metrics.flatMap(\.columns)
            if Set(columns).count != columns.count { fail("/metrics", "two metrics give the same column") }
        }
        if let v = top["outputs"] {
            let allowed = ["csv", "jsonl", "npz", "svg", "html"]
            if case .array(let list) = v, list.allSatisfy({ if case .string(let s) = $0 { allowed.contains(s) } else { false } }) {
                sweep.outputs = list.compactMap { if case .string(let s) = $0 { s } else { nil } }
            } else {
                fail("/outputs", "must be a list of \(allowed.joined(separator: ", ")), got \(v.compact)")
            }
        }
        return sweep
    }

    private static func readParameter(_ entry: SceneValue, at path: String, fail: (String, String) -> Void) -> SweepParameter? {
        guard case .object(let f) = entry else {
            fail(path, "must be an object {pointer, values | range | random}, got \(entry.kindName)")
            return nil
        }
        guard case .string(let pointer)? = f["pointer"], pointer.hasPrefix("/") else {
            fail("\(path)/pointer", "must be a JSON Pointer starting with '/', got \(f["pointer"].map(\.compact) ?? "nothing")")
            return nil
        }
        let kinds = ["values", "range", "random"].filter { f[$0] != nil }
        for key in f.keys.sorted() where !(["pointer"] + ["values", "range", "random"]).contains(key) { fail("\(path)/\(key)", "unknown key") }
        guard kinds.count == 1 else {
            fail(path, "needs exactly one of values, range and random, got \(kinds.isEmpty ? "none" : kinds.joined(separator: " and "))")
            return nil
        }
        func number(_ o: [String: SceneValue], _ key: String, _ p: String) -> Double? {
            if case .number(let x)? = o[key], x.isFinite { return x }
            fail("\(p)/\(key)", "must be a number, got \(o[key].map(\.compact) ?? "nothing")")
            return nil
        }
        switch kinds[0] {
        case "values":
            guard case .array(let values)? = f["values"], !values.isEmpty else {
                fail("\(path)/values", "must be a non-empty list, got \(f["values"]!.compact)")
                return nil
            }
            return SweepParameter(pointer: pointer, values: values)
        case "range":
            guard case .object(let r)? = f["range"] else {
                fail("\(path)/range", "must be {from, to, step}")
                return nil
            }
            guard let from = number(r, "from", "\(path)/range"), let to = number(r, "to", "\(path)/range"),
                  let step = number(r, "step", "\(path)/range") else { return nil }
            guard let values = SweepParameter.range(from: from, to: to, step: step, limit: maximumVariants) else {
                fail("\(path)/range", "needs step > 0 and to ≥ from, with at most \(maximumVariants) values; got from \(from), to \(to), step \(step)")
                return nil
            }
            return SweepParameter(pointer: pointer, values: values.map { .number($0) })
        default:
            guard case .object(let r)? = f["random"] else {
                fail("\(path)/random", "must be {count, min, max, seed, integer}")
                return nil
            }
            guard let count = number(r, "count", "\(path)/random"), let lo = number(r, "min", "\(path)/random"),
                  let hi = number(r, "max", "\(path)/random") else { return nil }
            var seed = 0.0, integer = false
            if r["seed"] != nil { guard let s = number(r, "seed", "\(path)/random") else { return nil }; seed = s }
            if let v = r["integer"] {
                guard case .bool(let b) = v else {
                    fail("\(path)/random/integer", "must be true or false, got \(v.compact)")
                    return nil
                }
                integer = b
            }
            guard count == count.rounded(), count >= 1, count <= Double(maximumVariants) else {
                fail("\(path)/random/count", "must be a whole number 1…\(maximumVariants), got \(count)")
                return nil
            }
            guard seed == seed.rounded(), seed >= 0, seed < 0x1p63 else {
                fail("\(path)/random/seed", "must be a whole number ≥ 0, got \(seed)")
                return nil
            }
            guard hi >= lo, !integer || hi.rounded(.down) >= lo.rounded(.up) else {
                fail("\(path)/random", "needs max ≥ min\(integer ? " with a whole number between them" : ""), got min \(lo), max \(hi)")
                return nil
            }
            let values = SweepParameter.random(count: Int(count), seed: UInt64(seed), min: lo, max: hi, integer: integer)
            return SweepParameter(pointer: pointer, values: values.map { .number($0) })
        }
    }

    private static func readMetric(_ entry: SceneValue, at path: String, fail: (String, String) -> Void) -> SweepMetric? {
        let quantities = SweepMetric.Quantity.allCases.map(\.rawValue).joined(separator: ", ")
        switch entry {
        case .string("stateHash"): return .stateHash
        case .string("kineticEnergy"): return .kineticEnergy
        case .string("timeToRest"): return .timeToRest
        case .string("contactEvents"): return .contactEvents
        case .object(let f) where f.count == 2 && f["item"] != nil:
            if case .string(let id)? = f["item"], case .string(let q)? = f["quantity"], let quantity = SweepMetric.Quantity(rawValue: q) {
                return .item(id, quantity)
            }
            fail(path, "must be {item: ID, quantity: \(quantities)}, got \(entry.compact)")
        case .object(let f) where f.count == 1 && f["highest"] != nil:
            if case .string(let q)? = f["highest"], let quantity = SweepMetric.Quantity(rawValue: q) { return .highest(quantity) }
            fail(path, "must be {highest: \(quantities)}, got \(entry.compact)")
        case .object(let f) where f.count == 1 && f["boundingBox"] != nil:
            if case .string(let tag)? = f["boundingBox"] { return .boundingBox(tag: tag) }
            fail(path, "must be {boundingBox: TAG}, got \(entry.compact)")
        case .object(let f) where f.count == 1 && (f["count"] != nil || f["throughput"] != nil):
            let key = f["count"] != nil ? "count" : "throughput"
            if case .string(let region)? = f[key], !region.isEmpty {
                return key == "count" ? .regionCount(region) : .regionThroughput(region)
            }
            fail(path, "must be {\(key): REGION} with a region's id, got \(entry.compact)")
        default:
            fail(path, "unknown metric \(entry.compact) (stateHash, kineticEnergy, timeToRest, contactEvents, {item: ID, quantity: Q}, {highest: Q}, {boundingBox: TAG}, {count: REGION}, {throughput: REGION})")
        }
        return nil
    }
}
