// SPDX-License-Identifier: Apache-2.0
/// Where the last step's time went, measured by the kernel (wall-clock nanoseconds).
public struct StepProfile: Hashable, Sendable {
    /// The whole kernel step, ns.
    public var stepNanoseconds: Double
    /// Integration, snap springs and rest detection over the awake blocks (the parallel part), ns.
    public var solveNanoseconds: Double
    /// Moving items that came to rest out of the awake range (serial), ns.
    public var partitionNanoseconds: Double
    /// Broadphase, ns (0 without collision shapes).
    public var broadphaseNanoseconds: Double
    /// Narrowphase: manifolds, warm-start matching and events, ns.
    public var narrowphaseNanoseconds: Double
    /// The contact solver with the integration it drives, ns.
    public var contactSolveNanoseconds: Double
    /// The step's serial part: its time outside parallel jobs, when one thread works and the others wait, ns.
    public var stepSerialNanoseconds: Double
    /// The broadphase's serial part, ns.
    public var broadphaseSerialNanoseconds: Double
    /// The narrowphase's serial part, ns.
    public var narrowphaseSerialNanoseconds: Double
    /// The contact solver's serial part (colouring, joint chains, bookkeeping), ns.
    public var contactSolveSerialNanoseconds: Double
    /// Parallel jobs the step ran; each ends when its last worker is done.
    public var jobs: Int
    /// Items still awake after the step.
    public var awakeItems: Int
    /// All items.
    public var items: Int
    /// Substeps the step took: ``DynamicsConfiguration/substeps``, or two or four times that while a chain
    /// turned fast (``DynamicsConfiguration/adaptiveSubsteps``).
    public var substeps: Int
    /// Workers that took part.
    public var workers: Int
    /// Blocks of work (4 096 items each).
    public var blocks: Int
}
