// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A quantity measured at the end of every variant's run (the sweep file's `metrics`).
///
/// Heights are measured up from the bottom of the scene's bounds (its `maxY`; y points down), or from
/// y = 0 when the scene has no bounds: height = bottom − centre y, in pt.
public enum SweepMetric: Hashable, Sendable {
    /// The world's state hash at the end (16 hex digits): equal hashes, equal runs.
    case stateHash
    /// Kinetic energy at the end, mass·pt²/s².
    case kineticEnergy
    /// The first time (s) at which every item rested, or null when they never all did.
    case timeToRest
    /// Contacts that began during the run.
    case contactEvents
    /// The final position (x, y, pt), speed (pt/s) or height (pt) of the item with this id.
    case item(String, Quantity)
    /// The same of the item whose centre is highest at the end (smallest y), with its id.
    case highest(Quantity)
    /// The bounding box of the centres of the items with this tag at the end (min x, min y, max x, max y, pt).
    case boundingBox(tag: String)
    /// Beyond UIKit: how many items are in the scene's named region at the end (``SceneRun/regionCount(_:)``);
    /// null when the scene has no such region.
    case regionCount(String)
    /// Beyond UIKit: how many times items entered the named region over the run
    /// (``SceneRun/regionThroughput(_:)``); null when the scene has no such region.
    case regionThroughput(String)

    /// What is measured of one item.
    public enum Quantity: String, Hashable, Sendable, CaseIterable {
        /// x and y, pt.
        case position
        /// |v|, pt/s.
        case speed
        /// Bottom of the bounds − centre y, pt.
        case height
    }

    /// The names of this metric's columns in results and merged tables.
    public var columns: [String] {
        switch self {
        case .stateHash: ["stateHash"]
        case .kineticEnergy: ["kineticEnergy"]
        case .timeToRest: ["timeToRest"]
        case .contactEvents: ["contactEvents"]
        case .item(let id, let q): q == .position ? ["\(id).x", "\(id).y"] : ["\(id).\(q.rawValue)"]
        case .highest(let q): ["highest.id"] + (q == .position ? ["highest.x", "highest.y"] : ["highest.\(q.rawValue)"])
        case .boundingBox(let tag): ["\(tag).minX", "\(tag).minY", "\(tag).maxX", "\(tag).maxY"]
        case .regionCount(let region): ["\(region).count"]
        case .regionThroughput(let region): ["\(region).throughput"]
        }
    }
}
