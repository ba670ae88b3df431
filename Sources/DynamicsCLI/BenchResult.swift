// SPDX-License-Identifier: Apache-2.0
import Foundation

/// One line of `dynamics bench --json` (the field names of the benchmark scenes,
/// Sources/DynamicsScenes/DynamicsScenes.docc/BenchmarkScenes.md).
struct BenchResult: Encodable {
    let engine = "dynamics"
    let scene, shape: String
    let items, workers, steps: Int
    let msPerStepMedian, msPerStepMean, cpuMsPerStep: Double
    let stateHash: String
    let solveMsMedian, partitionMsMedian: Double
    let broadphaseMsMedian, narrowphaseMsMedian, contactSolveMsMedian: Double
    let contacts: Int
    let simd, integrator: String
    let substeps: Int
    let contactFrequency: Double
    let solverIterations, awakeItems: Int
    /// How far the item that started highest sank by the end, pt (the top of a stack).
    let topItemSink: Double
    /// With --until-rest: simulated seconds until every item rested (from the scene's start).
    let restSeconds: Double?
    /// With --until-rest: the median ms/step of the steps before every item rested.
    let msPerStepAwakeMedian: Double?
    /// Runs of --steps timed steps (--repeat); the medians above are the median over the runs of each
    /// run's median, and this is the smallest run median.
    var repeats = 1
    var msPerStepMin: Double
    /// Median ms/step with 1 worker over this one, for the same scene and items (when both ran).
    var speedUp: Double?
    /// Resident bytes the world added (after its steps, less before it was made), per item.
    var bytesPerItem: Double
    /// The process's resident memory after the timed steps, with the world alive, bytes.
    var residentBytes: Int
    /// The process's peak resident memory so far, bytes (in a sweep, of every run until this one).
    var peakResidentBytes: Int
    /// The machine and build.
    var cpuModel = "", cores = 0, version = "", commit = "", blas = ""

    var json: String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    var text: String {
        """
        \(scene) (\(shape)), \(items) items, \(workers) worker(s), \(steps) steps, \(simd)/\(integrator), \
        \(substeps) substeps, \(String(format: "%g", contactFrequency)) Hz contacts, \(solverIterations) iteration(s)
        ms/step  median \(String(format: "%.4f", msPerStepMedian))  mean \(String(format: "%.4f", msPerStepMean))  \
        cpu \(String(format: "%.4f", cpuMsPerStep))
        stages   solve \(String(format: "%.4f", solveMsMedian))  partition \(String(format: "%.4f", partitionMsMedian))  \
        broadphase \(String(format: "%.4f", broadphaseMsMedian))  narrowphase \(String(format: "%.4f", narrowphaseMsMedian))  \
        contact solve \(String(format: "%.4f", contactSolveMsMedian))  (\(contacts) contacts)
        state    \(stateHash)  (top item sank \(String(format: "%.2f", topItemSink)) pt)
        """ + (restSeconds.map { seconds in
            "\nrest     every item rested after \(String(format: "%.3f", seconds)) s; awake steps median " +
                String(format: "%.4f", msPerStepAwakeMedian ?? 0) + " ms, the timed steps above are at rest"
        } ?? "")
    }
}
