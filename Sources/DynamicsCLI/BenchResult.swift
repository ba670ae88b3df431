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
    /// The configured substeps per step, and the mean the timed steps took (more while a chain turned fast,
    /// when `adaptiveSubsteps`).
    let substeps: Int
    let substepsMean: Double
    let adaptiveSubsteps: Bool
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
    /// Serial parts (medians over the steps, ms): the step's time outside parallel jobs, when one thread
    /// works and the others wait, and the same for three of its stages.
    var serialMsMedian = 0.0, broadphaseSerialMsMedian = 0.0, narrowphaseSerialMsMedian = 0.0
    var contactSolveSerialMsMedian = 0.0
    /// Parallel jobs per step (median).
    var jobsPerStep = 0.0
    /// The machine and build.
    var cpuModel = "", cores = 0, version = "", commit = "", blas = ""

    /// Sets the serial parts, in the order of their fields: step, broadphase, narrowphase, contact solver
    /// (ms), then jobs per step.
    mutating func setSerialParts(_ values: [Double]) {
        serialMsMedian = values[0]
        broadphaseSerialMsMedian = values[1]
        narrowphaseSerialMsMedian = values[2]
        contactSolveSerialMsMedian = values[3]
        jobsPerStep = values[4]
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(self)) ?? Data(), as: UTF8.self)
    }

    /// "4 substeps", with the mean the steps took when it differs ("4 substeps (mean 9.3)").
    var substepsText: String {
        Double(substeps) == substepsMean ? "\(substeps) substeps" : "\(substeps) substeps (mean \(String(format: "%.1f", substepsMean)))"
    }

    var text: String {
        """
        \(scene) (\(shape)), \(items) items, \(workers) worker(s), \(steps) steps, \(simd)/\(integrator), \
        \(substepsText), \(String(format: "%g", contactFrequency)) Hz contacts, \(solverIterations) iteration(s)
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
