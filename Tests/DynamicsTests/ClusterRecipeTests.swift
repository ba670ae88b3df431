// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing
import Yams

/// The cluster recipes `dynamics sweep --emit` prints: the Kubernetes Jobs and the Containerfile name the same
/// binary and command, the Indexed Job's command run once per completion index and the merge Job's (started
/// with them, waiting) give an unsharded run's table, and the Slurm script submits an array and a dependent
/// merge. (`make test-slurm` runs the Slurm script on a real cluster.)
@Suite struct ClusterRecipeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Container {
        var image: String
        var command: [String]
    }

    /// A Job manifest's spec and its one container.
    static func job(_ document: [String: Any]) throws -> (name: String, spec: [String: Any], container: Container) {
        #expect(document["apiVersion"] as? String == "batch/v1" && document["kind"] as? String == "Job")
        let name = try #require((document["metadata"] as? [String: Any])?["name"] as? String)
        let spec = try #require(document["spec"] as? [String: Any])
        let template = try #require((spec["template"] as? [String: Any])?["spec"] as? [String: Any])
        let containers = try #require(template["containers"] as? [[String: Any]])
        #expect(containers.count == 1)
        let volumes = try #require(template["volumes"] as? [[String: Any]])
        #expect(volumes.contains { ($0["persistentVolumeClaim"] as? [String: Any])?["claimName"] as? String == "sweep-data" })
        return (name, spec, Container(image: try #require(containers[0]["image"] as? String),
                                      command: try #require(containers[0]["command"] as? [String])))
    }

    /// The Jobs `--emit kubernetes` prints for `sweep` (a path) with `shards` completions.
    static func kubernetes(_ sweep: String, shards: Int) throws -> [(name: String, spec: [String: Any], container: Container)] {
        let r = try CommandLineTests.dynamics(["sweep", sweep, "--emit", "kubernetes", "--shards", "\(shards)", "--workers", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let documents = try Yams.load_all(yaml: r.stdout).map { try #require($0 as? [String: Any]) }
        #expect(documents.count == 2)
        return try documents.map(job)
    }

    @Test("the Indexed Job, the merge Job and the Containerfile name one image, the dynamics binary and its sweep commands")
    func manifests() throws {
        let folder = try CommandLineTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try SweepCommandTests.file(folder, "study.yaml", SweepCommandTests.small)
        let jobs = try Self.kubernetes(path, shards: 100)
        let (sweep, merge) = (jobs[0], jobs[1])
        #expect(sweep.name == "small" && merge.name == "small-merge", "named after the sweep")
        #expect(sweep.spec["completionMode"] as? String == "Indexed")
        let completions = try #require(sweep.spec["completions"] as? Int)
        #expect(completions == 100)
        #expect((sweep.spec["parallelism"] as? Int).map { $0 >= 1 && $0 <= completions } == true)
        #expect(sweep.container.image == "dynamics:\(DynamicsBuild.version)" && merge.container.image == sweep.container.image)
        #expect(sweep.container.command == ["dynamics", "sweep", "/data/study.yaml", "--output", "/data/results", "--shards", "100",
                                            "--workers", "2"])
        #expect(merge.container.command == ["dynamics", "sweep", "--merge", "/data/results", "--output", "/data/results.csv",
                                            "--output", "/data/results.jsonl", "--wait", "86400"])
        // The image puts the dist build's bin on PATH: `dynamics` is the make dist binary.
        let containerfile = try String(contentsOf: Self.root.appendingPathComponent("Containerfile"), encoding: .utf8)
        let lines = containerfile.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.first?.hasPrefix("FROM debian:") == true && lines.first?.hasSuffix("-slim") == true)
        #expect(lines.contains("COPY .build/dist/dynamics/ /opt/dynamics/") && lines.contains("ENV PATH=/opt/dynamics/bin:$PATH"))
        #expect(containerfile.contains("-t dynamics:\(DynamicsBuild.version)"))
        let makefile = try String(contentsOf: Self.root.appendingPathComponent("Makefile"), encoding: .utf8)
        #expect(makefile.contains("cp -R $(DIST_DIR)/$$name $(DIST_DIR)/dynamics"), "make dist leaves the build unpacked where the Containerfile copies it from")
        // Another image and claim, and arguments that need quoting, come out as given.
        let r = try CommandLineTests.dynamics(["sweep", path, "--emit", "kubernetes", "--shards", "3", "--image", "reg.example:5000/dyn:1",
                                               "--volume-claim", "my-claim", "--output", "/data/out dir"])
        let documents = try Yams.load_all(yaml: r.stdout).compactMap { $0 as? [String: Any] }
        let text = r.stdout
        #expect(documents.count == 2 && text.contains("claimName: my-claim") && text.contains("image: reg.example:5000/dyn:1"), "\(text)")
        let command = (((documents.first?["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"] as? [String: Any])
            .flatMap { ($0["containers"] as? [[String: Any]])?.first?["command"] as? [String] }
        #expect(command?.contains("/data/out dir") == true, "\(text)")
    }

    @Test("the Indexed Job's command, run once per completion index, and the merge Job's, waiting from the start, give the unsharded table")
    func indexedJobRuns() throws {
        let folder = try CommandLineTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try SweepCommandTests.file(folder, "sweep.yaml", SweepCommandTests.small)
        let jobs = try Self.kubernetes(path, shards: 4)
        let (sweep, merge) = (jobs[0], jobs[1])
        let local = { (command: [String]) in Array(command.dropFirst()).map { $0.replacingOccurrences(of: "/data", with: folder.path) } }
        // The merge starts first, as `kubectl apply` starts both Jobs: it waits for the shards.
        let executable = try #require(CommandLineTests.executable)
        let waiting = Process()
        waiting.executableURL = executable
        waiting.arguments = local(merge.container.command).map { $0 == "86400" ? "120" : $0 }
        let err = Pipe()
        waiting.standardError = err
        // The first shard writes the results folder's manifest; the merge waits for it too.
        try waiting.run()
        Thread.sleep(forTimeInterval: 0.3)
        for index in 0..<(sweep.spec["completions"] as? Int ?? 0) {
            let r = try CommandLineTests.dynamics(local(sweep.container.command) + ["--quiet"], environment: ["JOB_COMPLETION_INDEX": "\(index)"])
            #expect(r.status == 0, "completion \(index): \(r.stderr)")
        }
        let log = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        waiting.waitUntilExit()
        #expect(waiting.terminationStatus == 0, "\(log)")
        #expect(log.contains("waiting for") && log.contains("merged 12 of 12 variants"), "\(log)")
        let r = try CommandLineTests.dynamics(["sweep", path, "--output", folder.appendingPathComponent("whole").path, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let whole = try SweepCommandTests.merged(folder.appendingPathComponent("whole"))
        #expect(try String(contentsOf: folder.appendingPathComponent("results.csv"), encoding: .utf8) == whole.csv)
        #expect(try String(contentsOf: folder.appendingPathComponent("results.jsonl"), encoding: .utf8) == whole.jsonl)
    }

    @Test("--wait gives up after its time, exiting 65 with the variants still missing")
    func waitTimesOut() throws {
        let folder = try CommandLineTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try SweepCommandTests.file(folder, "sweep.yaml", SweepCommandTests.small)
        let results = folder.appendingPathComponent("results").path
        var r = try CommandLineTests.dynamics(["sweep", path, "--output", results, "--shard", "0/2", "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        r = try CommandLineTests.dynamics(["sweep", "--merge", results, "--output", results + ".csv", "--wait", "0.5"])
        #expect(r.status == 65 && r.stderr.contains("missing: 1, 3, 5"), "\(r.stderr)")
    }

    @Test("the Slurm script submits a job array of the shards and the merge, after the array succeeds")
    func slurmScript() throws {
        let folder = try CommandLineTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = try SweepCommandTests.file(folder, "sweep.yaml", SweepCommandTests.small)
        let r = try CommandLineTests.dynamics(["sweep", path, "--emit", "slurm", "--shards", "100", "--workers", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let script = r.stdout
        #expect(script.hasPrefix("#!/bin/bash\n") && script.contains("set -euo pipefail"))
        #expect(script.contains("#SBATCH --array=0-99") && script.contains("#SBATCH --cpus-per-task=2"))
        #expect(script.contains("dynamics sweep \(path) --output results --shards 100 --workers \"${SLURM_CPUS_PER_TASK:-2}\""))
        #expect(script.contains("sbatch --parsable --dependency=afterok:\"${array%%;*}\""))
        #expect(script.contains("dynamics sweep --merge results --output table.csv --output table.jsonl"))
        // bash reads it: run with a stand-in sbatch that records its arguments and script.
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("sbatch.log").path
        let fake = bin.appendingPathComponent("sbatch")
        try "#!/bin/sh\necho \"ARGS $*\" >> \(log)\ncat >> \(log)\nn=$(grep -c '^ARGS' \(log))\necho \"$((41 + n));cluster\"\n"
            .write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let scriptFile = try SweepCommandTests.file(folder, "submit.sh", script)
        let bash = Process()
        bash.executableURL = URL(fileURLWithPath: "/bin/bash")
        bash.arguments = [scriptFile]
        bash.environment = ["PATH": bin.path + ":/usr/bin:/bin"]
        let out = Pipe()
        bash.standardOutput = out
        try bash.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        bash.waitUntilExit()
        #expect(bash.terminationStatus == 0 && printed == "submitted job array 42 (100 shards) and merge job 43\n", "\(printed)")
        let recorded = try String(contentsOfFile: log, encoding: .utf8)
        #expect(recorded.contains("ARGS --parsable --dependency=afterok:42") && recorded.contains("#SBATCH --array=0-99"), "\(recorded)")
    }
}
