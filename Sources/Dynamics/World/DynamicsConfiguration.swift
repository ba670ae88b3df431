// SPDX-License-Identifier: Apache-2.0
import Foundation

/// How a ``DynamicWorld`` (and the ``DynamicAnimator`` over it) steps.
///
/// ```swift
/// var configuration = DynamicsConfiguration()
/// configuration.workerCount = 1
/// configuration.simd = .scalar          // force the scalar reference path
/// let animator = DynamicAnimator(referenceBounds: bounds, configuration: configuration)
/// ```
public struct DynamicsConfiguration: Hashable, Sendable {
    /// Fixed steps per second of simulated time (60). One step lasts 1 / stepsPerSecond s.
    public var stepsPerSecond: Double = 60
    /// Solver substeps per step (4).
    public var substeps: Int = 4
    /// Whether steps take two or four times ``substeps`` (at most 64) while a chain of rigid attachments
    /// whips (true).
    ///
    /// A link turning at ω rad/s opens its joints by about h²ω²r / 2 within a substep of h seconds (r: the
    /// anchor's distance from the item's centre, in pt), and holding a chain together against that opening
    /// costs it energy. While the opening would pass 0.05 pt at ``substeps`` in a chain without ranges,
    /// steps take twice as many, or four times, and go back down one level after each second of slower
    /// turning. Steps in which an attachment's anchor point moved keep ``substeps``. Stiffnesses follow
    /// ``substeps`` either way. ``StepProfile/substeps`` reports the count a step took. Turn it off for a
    /// fixed cost per step.
    public var adaptiveSubsteps: Bool = true
    /// Threads a step may use, 1…64 (default: the active processors, at most 64). Results do not depend on it.
    public var workerCount: Int = min(ProcessInfo.processInfo.activeProcessorCount, 64)
    /// Seed for everything random (noise fields). The same seed gives the same run.
    public var seed: UInt64 = 0
    /// The widest SIMD instruction set the kernel may use; `.automatic` picks the best the CPU has.
    public var simd: SIMDLevel = .automatic
    /// How velocities and positions are integrated (``Integrator/fused`` is fastest, see the benchmarks).
    public var integrator: Integrator = .fused
    /// Whether items come to rest and are skipped. Items rest by islands (items joined by touching contacts or
    /// attachments): an island rests once every member has been below 5 pt/s, and below 2°/s or 5 pt/s at the
    /// corners of its bounds, for 0.5 s, and wakes as a whole (see ``DynamicWorld/islandCount``).
    public var restDetection: Bool = true
    /// Contact stiffness as a spring frequency in Hz (30, as Box2D v3).
    ///
    /// Contacts are soft: a contact carrying a load overlaps a little, by about load / (m · (2π · f)²), so
    /// the overlaps add up toward the bottom of a tall stack. Stiffer contacts overlap less. At most a quarter
    /// of the substep rate is used (60 Hz at the default 60 steps/s with 4 substeps); contacts against
    /// anchored items and boundaries are twice as stiff. Raise ``substeps`` to raise the cap, and
    /// ``solverIterations`` to keep stiff contacts converging: the 5 050-box pyramid sinks 74 pt at the
    /// defaults and 5 pt with 8 substeps, 120 Hz and 2 iterations. Attachments are not affected.
    public var contactFrequency: Double = 30
    /// Passes of the contact and attachment solver per substep, 1…8 (1).
    ///
    /// Each pass runs over every constraint twice, once pushing overlapping items apart and once relaxing
    /// that push. More passes cost time in proportion and let stiff contacts converge in tall stacks.
    public var solverIterations: Int = 1
    /// Where the world's kernel memory comes from (nil: the C library). Fixed when the world is made.
    package var allocationHook: AllocationHook?

    /// The default configuration.
    public init() {}

    /// The length of one step in seconds.
    public var stepDuration: TimeInterval { 1 / stepsPerSecond }

    /// Throws when a field is out of range.
    public func validate() throws(DynamicsError) {
        guard stepsPerSecond.isFinite, stepsPerSecond > 0, Float(1 / stepsPerSecond).isNormal,
              Float(1 / stepsPerSecond / Double(max(substeps, 1))).isNormal
        else {
            throw .invalidValue(field: "stepsPerSecond", value: stepsPerSecond, index: nil)
        }
        guard (1...64).contains(substeps) else {
            throw .invalidValue(field: "substeps", value: Double(substeps), index: nil)
        }
        guard (1...64).contains(workerCount) else {
            throw .invalidValue(field: "workerCount", value: Double(workerCount), index: nil)
        }
        guard contactFrequency.isFinite, contactFrequency > 0, Float(contactFrequency).isNormal else {
            throw .invalidValue(field: "contactFrequency", value: contactFrequency, index: nil)
        }
        guard (1...8).contains(solverIterations) else {
            throw .invalidValue(field: "solverIterations", value: Double(solverIterations), index: nil)
        }
    }
}

/// SIMD instruction sets of the kernel's wide paths, in increasing width.
public enum SIMDLevel: String, CaseIterable, Hashable, Sendable {
    /// The best the CPU supports.
    case automatic
    /// The scalar reference path (no SIMD).
    case scalar
    /// SSE2, 4 lanes (x86-64 baseline).
    case sse2
    /// NEON, 4 lanes (arm64).
    case neon
    /// AVX2, 8 lanes.
    case avx2
    /// AVX-512F, 16 lanes.
    case avx512

    /// Reads a level from a name such as `avx2` (as in the `DYNAMICS_SIMD` environment variable).
    public init?(name: String) { self.init(rawValue: name.lowercased()) }

    /// The level named by the environment variable `DYNAMICS_SIMD`, or nil when unset or unknown.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> SIMDLevel?
    {
        environment["DYNAMICS_SIMD"].flatMap(SIMDLevel.init(name:))
    }
}

/// How the kernel integrates velocities and positions.
public enum Integrator: String, CaseIterable, Hashable, Sendable {
    /// One SIMD pass per block that keeps each vector of items in registers for all substeps.
    case fused
    /// SIMD force accumulation and damping with BLAS `saxpy` for v ← v + h·a and q ← q + h·v.
    case blas
    /// The scalar reference loops.
    case scalar
}
