// SPDX-License-Identifier: Apache-2.0
import Foundation

extension DynamicWorld {
    /// Centre (pt) and angle (rad) of one item. Traps on a stale id (use ``contains(_:)-(ItemID)`` first).
    /// For many items read columns with ``withColumn(_:_:)`` instead.
    public func pose(of id: ItemID) -> (center: CGPoint, angle: CGFloat) {
        let r = row(id)
        return (CGPoint(x: value(.positionX, r), y: value(.positionY, r)), value(.angle, r))
    }

    /// Velocity (pt/s) of one item. Traps on a stale id.
    public func velocity(of id: ItemID) -> CGVector {
        let r = row(id)
        return CGVector(dx: value(.velocityX, r), dy: value(.velocityY, r))
    }

    /// Angular velocity (rad/s) of one item. Traps on a stale id.
    public func angularVelocity(of id: ItemID) -> CGFloat { value(.angularVelocity, row(id)) }

    /// Mass of one item (100 × 100 pt at density 1 = 1). Traps on a stale id.
    public func mass(of id: ItemID) -> CGFloat { value(.mass, row(id)) }

    /// Rotational inertia of one item about its centre of mass, mass·pt². Traps on a stale id.
    public func inertia(of id: ItemID) -> CGFloat { value(.inertia, row(id)) }

    /// Whether an item rests (is skipped by the step until woken). Traps on a stale id.
    public func isResting(_ id: ItemID) -> Bool { row(id) >= awakeItemCount }

    /// ½ Σ m v² + ½ Σ I ω² over all items, in mass·pt²/s² (BLAS dot products).
    public var kineticEnergy: Double { kernel.energy().kinetic }

    /// Σ m v over all items, mass·pt/s.
    public var momentum: CGVector {
        let e = kernel.energy()
        return CGVector(dx: e.momentumX, dy: e.momentumY)
    }

    /// The largest |vx| or |vy| among awake items, pt/s (BLAS isamax).
    public var maxAwakeSpeedComponent: CGFloat { CGFloat(kernel.maxAwakeSpeedComponent()) }

    /// A 64-bit FNV-1a hash of every item's id, position, angle and velocities, taken in id order so that
    /// it does not depend on dense order. Equal hashes mean bit-identical states.
    public func stateHash() -> UInt64 {
        let ids = itemIDs()
        let order = ids.indices.sorted { (ids[$0].index, ids[$0].generation) < (ids[$1].index, ids[$1].generation) }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ word: UInt32) {
            for shift in stride(from: 0, to: 32, by: 8) {
                hash ^= UInt64((word >> UInt32(shift)) & 0xff)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        let columns: [KernelColumn] = [.positionX, .positionY, .angle, .velocityX, .velocityY, .angularVelocity]
        let values = columns.map { c in kernel.withColumn(c) { span in (0..<span.count).map { span[$0] } } }
        for k in order {
            mix(ids[k].index)
            mix(ids[k].generation)
            for column in values { mix(column[k].bitPattern) }
        }
        return hash
    }

    private func row(_ id: ItemID) -> Int {
        let r = kernel.rows(of: [id])[0]
        require(r >= 0, "item \(id) is not in this DynamicWorld")
        return Int(r)
    }

    private func value(_ column: KernelColumn, _ row: Int) -> CGFloat {
        CGFloat(kernel.withColumn(column) { $0[row] })
    }
}
