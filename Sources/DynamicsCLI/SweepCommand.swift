// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Dynamics
import DynamicsScenes
import Foundation

struct SweepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sweep",
        abstract: "Run a parameter sweep (a scene's variants), in shards, and merge the shards' results.",
        discussion: """
            dynamics sweep SWEEP --output DIR [--shard I/N | --shards N] [--workers W] runs this process's \
            share of the sweep's variants (variant k belongs to shard k mod N) and appends each variant's \
            row to DIR/shard-I-of-N.jsonl.partial, flushed after every variant; the file is renamed to \
            shard-I-of-N.jsonl when the shard completes. Run again, a shard skips the variants it has \
            recorded. Without --shard, the shard comes from the job array: SLURM_ARRAY_TASK_ID with \
            SLURM_ARRAY_TASK_COUNT (or _MIN and _MAX), or JOB_COMPLETION_INDEX with --shards N; otherwise \
            the whole sweep runs. dynamics sweep --merge DIR --output TABLE.csv|TABLE.jsonl writes one table \
            in variant order and exits 65 when variants are missing. dynamics sweep --example prints a small \
            sweep to start from. dynamics sweep SWEEP --emit slurm|kubernetes --shards N [--workers W] prints a \
            ready-to-run recipe: a script that submits the Slurm job array and the merge, or the Kubernetes \
            Indexed Job and the merge Job. A variant whose scene is invalid or whose run diverges is recorded as an \
            error row; the shard then says how many failed and the first error, and exits 65 when every \
            variant it ran failed (with --strict, when any did). Exit status: 0 done, 64 usage, 65 invalid \
            sweep, failed variants or missing variants, 66 cannot open, 73/74 cannot write, 130 interrupted \
            (rerun to finish).
            """
    )

    @Argument(help: "A sweep file (.json, .yaml, .yml).", completion: .file(extensions: ["json", "yaml", "yml"]))
    var sweep: String?

    @Option(name: .long, help: "The results folder (with a sweep), or the merged table's files .csv and .jsonl (with --merge; repeatable).")
    var output: [String] = []

    @Option(help: "This process's shard, I/N (0 ≤ I < N).")
    var shard: String?

    @Option(parsing: .unconditional, help: "How many shards, with JOB_COMPLETION_INDEX (Kubernetes Indexed Jobs) or to check a Slurm array's size.")
    var shards: Int?

    @Option(help: "Merge the shard files of this results folder into --output tables.", completion: .directory)
    var merge: String?

    @Option(help: ArgumentHelp("With --merge: wait up to this many seconds for missing variants (polling every 10 s), so that the merge can start with the shards.",
                               valueName: "seconds"))
    var wait: Double?

    @Option(help: ArgumentHelp("Print a ready-to-run recipe for the sweep on a cluster and exit: slurm (a script that submits the shards' job array and the merge) or kubernetes (an Indexed Job and the merge Job). Needs --shards; takes --workers (default 1) and --output (default results).",
                               valueName: "cluster"),
            completion: .list(SweepRecipe.Target.allCases.map(\.rawValue)))
    var emit: String?

    @Option(help: "With --emit kubernetes: the container image (the Containerfile's build).")
    var image: String = "dynamics:\(DynamicsBuild.version)"

    @Option(help: "With --emit kubernetes: the persistent volume claim holding the sweep and its results, mounted at /data.")
    var volumeClaim: String = "sweep-data"

    @Flag(help: "Print a small runnable sweep (YAML) and exit.")
    var example = false

    @Flag(help: "Print the sweep's variants (index, id, parameter values) as CSV and exit.")
    var list = false

    @OptionGroup var threads: ThreadOptions

    @Flag(help: "Exit 65 when any variant failed (its error row is still written); without it a shard exits 65 only when every variant it ran failed.")
    var strict = false

    @Flag(help: "No progress or notices on the terminal (failures are still reported).")
    var quiet = false

    func validate() throws {
        if let shards, !(1...1_000_000).contains(shards) { throw ValidationError("--shards must be 1…1000000, got \(shards)") }
        if let shard, SweepShard.parse(shard) == nil { throw ValidationError("--shard must be I/N with 0 ≤ I < N, got '\(shard)'") }
        if example || list { return }
        if let wait {
            guard merge != nil else { throw ValidationError("--wait goes with --merge") }
            guard wait.isFinite, wait >= 0, wait <= 1e7 else { throw ValidationError("--wait must be 0…10000000 s, got \(wait)") }
        }
        if let emit {
            guard SweepRecipe.Target(rawValue: emit) != nil else { throw ValidationError("--emit must be slurm or kubernetes, got '\(emit)'") }
            guard sweep != nil, merge == nil else { throw ValidationError("--emit takes a sweep file") }
            guard shards != nil else { throw ValidationError("--emit \(emit) needs --shards N, the number of shards to run") }
            guard output.count <= 1 else { throw ValidationError("--emit takes at most one --output, the results folder") }
            return
        }
        if let merge {
            if sweep != nil { throw ValidationError("--merge takes a results folder, not a sweep file") }
            if output.isEmpty { throw ValidationError("--merge \(merge) needs --output TABLE.csv or TABLE.jsonl") }
            for path in output where !["csv", "jsonl"].contains(URL(fileURLWithPath: path).pathExtension.lowercased()) {
                throw ValidationError("--output \(path): a merged table is .csv or .jsonl")
            }
            return
        }
        guard sweep != nil else { throw ValidationError("give a sweep file, --merge DIR or --example") }
        guard output.count == 1 else { throw ValidationError("give one --output DIR, the results folder") }
    }

    func run() throws {
        try reportingFailures {
            if example {
                print(Self.exampleText, terminator: "")
            } else if let merge {
                try mergeTables(merge)
            } else {
                let loaded = try LoadedSweep(path: sweep!)
                if let emit, let target = SweepRecipe.Target(rawValue: emit) {
                    let counts = try threads.workerCounts() ?? [1]
                    guard counts.count == 1 else { throw CLIError(.usage, "--workers takes one value with --emit") }
                    let recipe = SweepRecipe(sweepPath: sweep!, name: loaded.name, shards: shards ?? 1, workers: counts[0],
                                             results: output.first ?? "results", image: image, claim: volumeClaim)
                    print(target == .slurm ? recipe.slurm : recipe.kubernetes, terminator: "")
                } else if list {
                    try listVariants(loaded)
                } else {
                    let shard = try chosenShard()
                    try SweepRunner(loaded: loaded, directory: URL(fileURLWithPath: output[0]), shard: shard,
                                    threads: threads, strict: strict, quiet: quiet).run()
                }
            }
        }
    }

    /// --shard, else the job array's environment, else the whole sweep.
    private func chosenShard() throws -> SweepShard {
        if let shard, let parsed = SweepShard.parse(shard) {
            if let shards, shards != parsed.count { throw CLIError(.usage, "--shard \(shard) disagrees with --shards \(shards)") }
            return parsed
        }
        do {
            if let fromJob = try SweepShard.fromEnvironment(ProcessInfo.processInfo.environment, shards: shards) { return fromJob }
        } catch {
            throw CLIError(.usage, error.description)
        }
        if let shards, shards != 1 { throw CLIError(.usage, "--shards \(shards) without JOB_COMPLETION_INDEX or a Slurm array; pass --shard I/\(shards)") }
        return SweepShard(index: 0, count: 1)!
    }

    private func listVariants(_ loaded: LoadedSweep) throws {
        let s = loaded.sweep
        var out = (["index", "id"] + s.parameters.map(\.pointer)).map { SweepRow.csvField(.string($0)) }.joined(separator: ",") + "\n"
        for k in 0..<s.variantCount {
            let v = s.variant(k)
            out += ([String(k), v.id] + v.values.map(SweepRow.csvField)).joined(separator: ",") + "\n"
        }
        print(out, terminator: "")
    }

    private func mergeTables(_ directory: String) throws {
        Interrupt.install()
        let table = try waitForTable(directory)
        if !table.conflicts.isEmpty {
            throw CLIError(.data, "\(directory): variants recorded twice with different results: \(Self.listed(table.conflicts)) (shards of different runs mixed?)")
        }
        for path in output {
            let file = try AtomicFile(path)
            try file.write(URL(fileURLWithPath: path).pathExtension.lowercased() == "csv" ? table.csv : table.jsonLines)
            try file.commit()
        }
        let note = "\(table.rows.count) of \(table.manifest.variants) variants, \(table.rows.filter { $0.error != nil }.count) with errors"
        if !table.duplicates.isEmpty {
            FileHandle.standardError.write(Data("dynamics: recorded more than once (identical rows, kept once): \(Self.listed(table.duplicates))\n".utf8))
        }
        guard table.missing.isEmpty else {
            let partial = table.partialFiles.isEmpty ? "" : "; unfinished shard files: \(table.partialFiles.joined(separator: ", "))"
            throw CLIError(.data, "wrote \(output.joined(separator: ", ")) with \(note); missing: \(Self.listed(table.missing))\(partial)")
        }
        let failed = table.rows.filter { $0.error != nil }
        if strict, let first = failed.first {
            throw CLIError(.data, "wrote \(output.joined(separator: ", ")) with \(note); --strict: variant \(first.index) failed: \(first.error ?? "")")
        }
        if !quiet { FileHandle.standardError.write(Data("dynamics: merged \(note) into \(output.joined(separator: ", "))\n".utf8)) }
    }

    /// The results folder merged; with --wait, once no variant is missing or the time is up (polling every
    /// 10 s, or until it has a manifest).
    private func waitForTable(_ directory: String) throws -> SweepTable {
        let deadline = ContinuousClock.now + .milliseconds(Int64((wait ?? 0) * 1000))
        var lastNote: Int?
        while true {
            let table: SweepTable?
            do {
                table = try SweepTable.merge(directory: URL(fileURLWithPath: directory))
            } catch {
                if wait == nil || ContinuousClock.now >= deadline { throw CLIError(.noInput, error.description) }
                table = nil
            }
            if let table, table.missing.isEmpty || ContinuousClock.now >= deadline { return table }
            if Interrupt.requested { throw CLIError(.interrupted, "interrupted while waiting for \(directory)") }
            let missing = table?.missing.count ?? -1
            if !quiet, missing != lastNote {
                lastNote = missing
                let what = table.map { "\(missing) of \($0.manifest.variants) variants" } ?? "the sweep's first results"
                FileHandle.standardError.write(Data("dynamics: waiting for \(what) in \(directory)\n".utf8))
            }
            let left = deadline - ContinuousClock.now
            Thread.sleep(forTimeInterval: min(10, max(0.05, SweepRunner.seconds(left))))
        }
    }

    /// At most 20 indices, then how many more.
    static func listed(_ indices: [Int]) -> String {
        indices.prefix(20).map(String.init).joined(separator: ", ") + (indices.count > 20 ? " and \(indices.count - 20) more" : "")
    }

    /// `dynamics sweep --example`.
    static let exampleText = """
        # A small sweep: the pile-and-flick example scene (boxes and balls dropped into a box) over the
        # boxes' friction, the balls' elasticity and four random seeds of the balls' sizes and places:
        # 3 × 3 × 4 = 36 variants of 3 simulated seconds, a few seconds on one core.
        #   dynamics sweep example.yaml --output results
        #   dynamics sweep --merge results --output table.csv
        format: dynamics-sweep/1
        name: pile-friction-elasticity
        scene: pile-and-flick
        seconds: 3
        combine: grid
        parameters:
          - pointer: /generators/0/material/friction
            values: [0.1, 0.5, 0.9]
          - pointer: /generators/1/material/elasticity
            range: {from: 0, to: 0.6, step: 0.3}
          - pointer: /configuration/seed
            random: {count: 4, seed: 1, min: 0, max: 1000000, integer: true}
        metrics:
          - stateHash
          - kineticEnergy
          - timeToRest
          - contactEvents
          - {highest: height}
          - {item: red, quantity: position}
          - {boundingBox: box}

        """
}
