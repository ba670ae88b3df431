// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// `dynamics sweep SWEEP --emit slurm|kubernetes`: the files that run a sweep's shards on a cluster and
/// merge them, ready to run as printed.
struct SweepRecipe {
    /// Where the recipe runs.
    enum Target: String, CaseIterable {
        case slurm, kubernetes
    }

    /// The sweep file as the command line named it.
    let sweepPath: String
    /// The sweep's name (for job names).
    let name: String
    /// Shards (array tasks, completions).
    let shards: Int
    /// Worker threads per shard.
    let workers: Int
    /// The results folder.
    let results: String
    /// The container image (Kubernetes).
    let image: String
    /// The persistent volume claim holding the sweep and the results (Kubernetes).
    let claim: String

    /// The command line that made the recipe, for its header.
    var origin: String { "dynamics \(DynamicsBuild.version) (dynamics sweep --emit)" }

    /// A job name: lower case letters, digits and '-', at most 40 characters (Slurm and Kubernetes accept it).
    var jobName: String {
        let cleaned = name.lowercased().map { $0.isLetter && $0.isASCII || $0.isNumber ? $0 : "-" }
        let trimmed = String(cleaned).trimmingCharacters(in: CharacterSet(charactersIn: "-"))
        return String((trimmed.isEmpty ? "sweep" : trimmed).prefix(40))
    }

    /// A bash script for a Slurm login node: submits the shards as a job array and the merge as a job that
    /// starts once every array task has succeeded, and prints both job ids.
    var slurm: String {
        let sweep = Self.shellQuoted(sweepPath), out = Self.shellQuoted(results)
        return """
            #!/bin/bash
            # Runs the sweep \(sweepPath) on Slurm: a job array of \(shards) shards, then the merge of their rows into
            # table.csv and table.jsonl once every shard has succeeded. Made by \(origin).
            # Save it and run it on a login node, from the folder that holds the sweep, on a file system every
            # node shares:  bash \(jobName)-slurm.sh
            # Each array task runs one shard (dynamics reads SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT); a
            # task that is run again skips the variants it has recorded. `dynamics` must be on PATH on the nodes
            # (the make dist archive needs no Swift there).
            set -euo pipefail
            array=$(sbatch --parsable <<'SBATCH'
            #!/bin/bash
            #SBATCH --job-name=\(jobName)
            #SBATCH --array=0-\(shards - 1)
            #SBATCH --cpus-per-task=\(workers)
            #SBATCH --output=\(jobName)-%A_%a.log
            dynamics sweep \(sweep) --output \(out) --shards \(shards) --workers "${SLURM_CPUS_PER_TASK:-\(workers)}"
            SBATCH
            )
            merge=$(sbatch --parsable --dependency=afterok:"${array%%;*}" <<'SBATCH'
            #!/bin/bash
            #SBATCH --job-name=\(jobName)-merge
            #SBATCH --output=\(jobName)-merge-%j.log
            dynamics sweep --merge \(out) --output table.csv --output table.jsonl
            SBATCH
            )
            echo "submitted job array ${array%%;*} (\(shards) shards) and merge job ${merge%%;*}"

            """
    }

    /// Two Kubernetes Jobs in one YAML stream: an Indexed Job of `shards` completions, and the merge, which
    /// waits (up to a day) until every variant is recorded. Apply it with `kubectl apply -f`.
    var kubernetes: String {
        let sweep = "/data/" + URL(fileURLWithPath: sweepPath).lastPathComponent
        let out = results.hasPrefix("/") ? results : "/data/" + results
        func list(_ words: [String]) -> String { "[" + words.map(Self.yamlQuoted).joined(separator: ", ") + "]" }
        let volumes = """
                      volumeMounts:
                        - {name: data, mountPath: /data}
                  volumes:
                    - name: data
                      persistentVolumeClaim: {claimName: \(Self.yamlQuoted(claim))}
            """
        return """
            # Runs the sweep \(sweepPath) on Kubernetes: an Indexed Job of \(shards) shards and a Job that merges their
            # rows into \(out).csv and .jsonl once every variant is recorded. Made by \(origin).
            # Put the sweep (and any scene file it names) on the volume claim '\(claim)' as \(sweep), save
            # this as \(jobName)-jobs.yaml, then:  kubectl apply -f \(jobName)-jobs.yaml
            # The image is the Containerfile's (make dist && podman build -t \(image) .). A retried shard skips
            # the variants it has recorded.
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: \(jobName)
            spec:
              completionMode: Indexed
              completions: \(shards)
              parallelism: \(min(shards, 20))
              backoffLimit: \(max(shards, 6))
              template:
                spec:
                  restartPolicy: OnFailure
                  containers:
                    - name: shard
                      image: \(Self.yamlQuoted(image))
                      command: \(list(["dynamics", "sweep", sweep, "--output", out, "--shards", "\(shards)", "--workers", "\(workers)"]))
                      resources:
                        requests: {cpu: "\(workers)", memory: 512Mi}
            \(volumes)
            ---
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: \(jobName)-merge
            spec:
              backoffLimit: 2
              template:
                spec:
                  restartPolicy: OnFailure
                  containers:
                    - name: merge
                      image: \(Self.yamlQuoted(image))
                      command: \(list(["dynamics", "sweep", "--merge", out, "--output", out + ".csv", "--output", out + ".jsonl", "--wait", "86400"]))
            \(volumes)

            """
    }

    /// `word` for a POSIX shell: as it is when it is plain, else in single quotes.
    static func shellQuoted(_ word: String) -> String {
        if !word.isEmpty, word.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_./=:@%+,".contains($0)) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// `word` as a YAML flow scalar: plain when it is safe, else double-quoted.
    static func yamlQuoted(_ word: String) -> String {
        if !word.isEmpty, word.first!.isLetter || word.first == "/" || word.first == "-" && word.count > 1 && word.dropFirst().first!.isLetter,
           word.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_./:@".contains($0)) }) { return word }
        return "\"" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
