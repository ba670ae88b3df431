// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing
import Yams

/// The README's cluster recipes as written: the Kubernetes manifests and the Containerfile parse and name the
/// same binary, image and command, and the manifest's command, run once per completion index, merges to an
/// unsharded run's table. (`make test-slurm` runs the Slurm scripts on a real cluster.)
@Suite struct ClusterRecipeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The code block after `<!-- file: NAME -->` in the README.
    static func block(_ name: String) throws -> String {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let marker = try #require(readme.range(of: "<!-- file: \(name) -->"), "README.md marks no \(name)")
        let rest = readme[marker.upperBound...]
        let open = try #require(rest.range(of: "```"))
        let body = rest[open.upperBound...].drop { $0 != "\n" }.dropFirst()
        let close = try #require(body.range(of: "\n```"))
        return String(body[..<close.lowerBound]) + "\n"
    }

    struct Container {
        var image: String
        var command: [String]
    }

    /// A Job manifest's kind, spec and its one container.
    static func job(_ text: String) throws -> (spec: [String: Any], container: Container) {
        let document = try #require(try Yams.load(yaml: text) as? [String: Any])
        #expect(document["apiVersion"] as? String == "batch/v1" && document["kind"] as? String == "Job")
        let spec = try #require(document["spec"] as? [String: Any])
        let template = try #require((spec["template"] as? [String: Any])?["spec"] as? [String: Any])
        let containers = try #require(template["containers"] as? [[String: Any]])
        #expect(containers.count == 1)
        let volumes = try #require(template["volumes"] as? [[String: Any]])
        #expect(volumes.contains { ($0["persistentVolumeClaim"] as? [String: Any])?["claimName"] as? String == "sweep-data" })
        return (spec, Container(image: try #require(containers[0]["image"] as? String),
                                command: try #require(containers[0]["command"] as? [String])))
    }

    @Test("the Indexed Job, the merge Job and the Containerfile name one image, the dynamics binary and its sweep commands")
    func manifests() throws {
        let (spec, sweep) = try Self.job(try Self.block("sweep-job.yaml"))
        let (_, merge) = try Self.job(try Self.block("merge-job.yaml"))
        #expect(spec["completionMode"] as? String == "Indexed")
        let completions = try #require(spec["completions"] as? Int)
        #expect((spec["parallelism"] as? Int).map { $0 >= 1 && $0 <= completions } == true)
        #expect(sweep.image == "registry.example.com/dynamics:\(DynamicsBuild.version)" && merge.image == sweep.image)
        #expect(Array(sweep.command.prefix(2)) == ["dynamics", "sweep"] && Array(merge.command.prefix(3)) == ["dynamics", "sweep", "--merge"])
        let shards = try #require(sweep.command.firstIndex(of: "--shards").map { Int(sweep.command[$0 + 1]) } ?? nil)
        #expect(shards == completions, "--shards must equal completions")
        let output = try #require(sweep.command.firstIndex(of: "--output").map { sweep.command[$0 + 1] })
        #expect(merge.command[3] == output, "the merge reads the shards' folder")
        // The image puts the dist build's bin on PATH: `dynamics` is the make dist binary.
        let containerfile = try String(contentsOf: Self.root.appendingPathComponent("Containerfile"), encoding: .utf8)
        let lines = containerfile.split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.first?.hasPrefix("FROM debian:") == true && lines.first?.hasSuffix("-slim") == true)
        #expect(lines.contains("COPY .build/dist/dynamics/ /opt/dynamics/") && lines.contains("ENV PATH=/opt/dynamics/bin:$PATH"))
        #expect(containerfile.contains("-t \(sweep.image.replacingOccurrences(of: ":\(DynamicsBuild.version)", with: ""))"))
        let makefile = try String(contentsOf: Self.root.appendingPathComponent("Makefile"), encoding: .utf8)
        #expect(makefile.contains("cp -R $(DIST_DIR)/$$name $(DIST_DIR)/dynamics"), "make dist leaves the build unpacked where the Containerfile copies it from")
        // The Slurm scripts: an array of shards, and the merge of the same folder.
        let sbatch = try Self.block("sweep.sbatch"), mergeScript = try Self.block("merge.sbatch")
        #expect(sbatch.contains("#SBATCH --array=0-99") && sbatch.contains("dynamics sweep sweep.yaml --output results"))
        #expect(mergeScript.contains("dynamics sweep --merge results --output table.csv"))
    }

    @Test("the Indexed Job's command, run once per completion index, and the merge Job's give the unsharded table")
    func indexedJobRuns() throws {
        let folder = try CommandLineTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try SweepCommandTests.small.write(to: folder.appendingPathComponent("sweep.yaml"), atomically: true, encoding: .utf8)
        let (spec, sweep) = try Self.job(try Self.block("sweep-job.yaml"))
        let (_, merge) = try Self.job(try Self.block("merge-job.yaml"))
        let local = { (command: [String]) in Array(command.dropFirst()).map { $0.replacingOccurrences(of: "/data", with: folder.path) } }
        for index in 0..<(spec["completions"] as? Int ?? 0) {
            let r = try CommandLineTests.dynamics(local(sweep.command) + ["--quiet"], environment: ["JOB_COMPLETION_INDEX": "\(index)"])
            #expect(r.status == 0, "completion \(index): \(r.stderr)")
        }
        var r = try CommandLineTests.dynamics(local(merge.command) + ["--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        r = try CommandLineTests.dynamics(["sweep", folder.appendingPathComponent("sweep.yaml").path, "--output", folder.appendingPathComponent("whole").path, "--quiet"])
        #expect(r.status == 0, "\(r.stderr)")
        let whole = try SweepCommandTests.merged(folder.appendingPathComponent("whole"))
        #expect(try String(contentsOf: folder.appendingPathComponent("table.csv"), encoding: .utf8) == whole.csv)
    }
}
