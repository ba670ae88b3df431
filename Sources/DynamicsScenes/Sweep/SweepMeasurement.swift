// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// Measures one variant's run for a sweep's metrics: watches every step (contacts that begin, when the
/// final rest began, divergence) and reads the rest at the end.
public struct SweepMeasurement {
    let metrics: [SweepMetric]
    let countsContacts: Bool
    /// Contacts that began so far.
    public private(set) var contactsBegun = 0
    /// When the final rest began (s): every item has rested from this step on. Nil while any item is
    /// awake, so a run that rested, was woken and ends awake has none.
    public private(set) var restedAt: Double?

    /// A measurement of `metrics`.
    public init(metrics: [SweepMetric]) {
        self.metrics = metrics
        countsContacts = metrics.contains(.contactEvents)
    }

    /// Records what the step just taken shows; throws when the run diverged (a non-finite kinetic energy,
    /// checked every 30 steps and at the end).
    public mutating func observe(_ run: SceneRun) throws(SweepDivergence) {
        let world = run.world
        if countsContacts { contactsBegun += world.contactEvents.lazy.filter(\.began).count }
        if world.itemCount > 0, world.awakeItemCount == 0 {
            if restedAt == nil { restedAt = run.time }
        } else {
            restedAt = nil
        }
        if run.steps % 30 == 0, !world.kineticEnergy.isFinite { throw SweepDivergence(step: run.steps, time: run.time) }
    }

    /// The metrics' values at the end of the run, column by column (``SweepMetric/columns``).
    public func values(_ run: SceneRun) throws(SweepDivergence) -> [SceneValue] {
        let world = run.world
        guard world.kineticEnergy.isFinite else { throw SweepDivergence(step: run.steps, time: run.time) }
        let bottom = run.document.bounds.map { Double($0.maxY) } ?? 0
        func number(_ x: Double) -> SceneValue { x.isFinite ? .number(x) : .null }
        func quantity(_ i: Int, _ q: SweepMetric.Quantity) -> [SceneValue] {
            let id = run.itemIDs[i], c = world.pose(of: id).center
            switch q {
            case .position: return [number(Double(c.x)), number(Double(c.y))]
            case .speed:
                let v = world.velocity(of: id)
                return [number(Double(hypot(v.dx, v.dy)))]
            case .height: return [number(bottom - Double(c.y))]
            }
        }
        var out: [SceneValue] = []
        for metric in metrics {
            switch metric {
            case .stateHash: out.append(.string(String(format: "%016llx", world.stateHash())))
            case .kineticEnergy: out.append(number(world.kineticEnergy))
            case .timeToRest: out.append(restedAt.map { .number($0) } ?? .null)
            case .contactEvents: out.append(.number(Double(contactsBegun)))
            case .item(let name, let q):
                if let i = run.itemNames.indices.first(where: { run.itemNames[$0] == name && !run.isRemoved[$0] }) {
                    out += quantity(i, q)
                }
                else { out += Array(repeating: .null, count: metric.columns.count) }
            case .highest(let q):
                // The smallest centre y; the first such item in creation order on a tie.
                var best: Int?, bestY = CGFloat.infinity
                for i in run.itemIDs.indices where !run.isRemoved[i] {
                    let y = world.pose(of: run.itemIDs[i]).center.y
                    if best == nil || y < bestY { (best, bestY) = (i, y) }
                }
                if let best { out += [.string(run.itemNames[best])] + quantity(best, q) }
                else { out += Array(repeating: .null, count: metric.columns.count) }
            case .boundingBox(let tag):
                let members = run.indices(of: SceneTargets(tags: [tag]))
                guard !members.isEmpty else {
                    out += Array(repeating: .null, count: 4)
                    continue
                }
                let centres = members.map { world.pose(of: run.itemIDs[$0]).center }
                out += [centres.map(\.x).min()!, centres.map(\.y).min()!, centres.map(\.x).max()!, centres.map(\.y).max()!]
                    .map { number(Double($0)) }
            case .regionCount(let region): out.append(run.regionCount(region).map { .number(Double($0)) } ?? .null)
            case .regionThroughput(let region): out.append(run.regionThroughput(region).map { .number(Double($0)) } ?? .null)
            }
        }
        return out
    }
}
