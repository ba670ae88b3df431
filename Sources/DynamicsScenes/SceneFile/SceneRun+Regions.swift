// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

extension SceneRun {
    /// Beyond UIKit: how many items (not removed) are in the named region now, or nil when the document has no
    /// region of that id.
    public func regionCount(_ id: String) -> Int? {
        guard let r = document.regions.firstIndex(where: { $0.id == id }) else { return nil }
        return regionInside[r].indices.lazy.filter { self.regionInside[r][$0] && !self.isRemoved[$0] }.count
    }

    /// Beyond UIKit: how many times an item entered the named region since the start (an item in it at the start
    /// has not entered it), or nil when the document has no region of that id.
    public func regionThroughput(_ id: String) -> Int? {
        document.regions.firstIndex { $0.id == id }.map { regionEntries[$0] }
    }

    /// Which items are in each region at the start: no events, no entries.
    func startRegions() {
        regionEntries = Array(repeating: 0, count: document.regions.count)
        regionInside = document.regions.map { region in itemIDs.map { region.contains(world.pose(of: $0).center) } }
    }

    /// After a step: which items are in each region now, and the events of those that came or went. An item the
    /// timeline made counts from its first step (in a region then, it entered it); a removed item leaves no event
    /// and is no longer counted.
    func updateRegions() {
        regionEvents.removeAll(keepingCapacity: true)
        let centres = itemIDs.indices.map { isRemoved[$0] ? nil : Optional(world.pose(of: itemIDs[$0]).center) }
        for (r, region) in document.regions.enumerated() {
            var inside = regionInside[r]
            if inside.count < itemIDs.count { inside += Array(repeating: false, count: itemIDs.count - inside.count) }
            for i in itemIDs.indices {
                guard let c = centres[i] else {
                    inside[i] = false
                    continue
                }
                let now = region.contains(c)
                if now != inside[i] {
                    regionEvents.append(SceneRegionEvent(region: region.id, item: i, entered: now))
                    if now { regionEntries[r] += 1 }
                    inside[i] = now
                }
            }
            regionInside[r] = inside
        }
    }
}
