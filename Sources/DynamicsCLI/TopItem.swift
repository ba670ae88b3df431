// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// The item that starts highest in a world (the smallest y; y points down), so that a run can report how
/// far the top of a stack sank.
struct TopItem {
    let id: ItemID?
    let startY: Double

    init(in world: DynamicWorld) {
        let top = world.itemIDs().lazy.map { ($0, Double(world.pose(of: $0).center.y)) }.min { $0.1 < $1.1 }
        id = top?.0
        startY = top?.1 ?? 0
    }

    /// The item and its starting y recorded (a checkpoint's).
    init(id: ItemID?, startY: Double) {
        self.id = id
        self.startY = startY
    }

    /// How far the item moved down since the start, in pt (0 for a world without items).
    func sink(in world: DynamicWorld) -> Double {
        guard let id, world.contains(id) else { return 0 }
        return Double(world.pose(of: id).center.y) - startY
    }
}
