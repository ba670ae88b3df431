// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// Beyond UIKit: items and the attachments among them that the timeline makes at a time, as often as it
/// likes (a ragdoll, a group of ragdolls, a cart on its wheels). A `make` event places a copy, an
/// instance, with its origin at a point; a `remove` event naming the instance takes its items away.
///
/// An instance's items are named `INSTANCE/ID` and tagged with the template's id, the instance's name,
/// the template's ``tags`` and their own: behaviours hold them as they hold the scene's own items, by
/// tag or, for a behaviour that names no targets, always.
public struct SceneTemplate: Hashable, Sendable {
    /// Unique among the scene's templates.
    public var id: String
    /// The items, with centres relative to the instance's origin (pt) and ids unique in the template.
    /// Their `resting` is not used: a made item starts awake. A template has at least one item or generator.
    public var items: [SceneItem]
    /// Items made in bulk with the listed ones, placed relative to the origin as the scene's generators are
    /// (a random layout from the scene's seed, so every instance has the same layout), named `ID-N` and tagged
    /// with the generator's id and tags.
    public var generators: [SceneGenerator] = []
    /// Attachments among the items (ids as in ``items``; an anchor is relative to the origin, pt).
    public var attachments: [SceneAttachment] = []
    /// Tags every item of every instance gets.
    public var tags: [String] = []

    /// The listed items, then the generators' (each with its generator's material, angle and tags), relative
    /// to the origin.
    public func allItems(seed: UInt64) throws(ScenePlacementError) -> [SceneItem] {
        var all = items
        for (g, placed) in zip(generators, try SceneDocument.place(generators, after: items, seed: seed)) {
            for (k, p) in placed.enumerated() {
                var item = SceneItem(id: "\(g.id)-\(k)", shape: p.shape, center: p.center)
                item.angle = g.angle
                item.material = g.material
                item.tags = [g.id] + g.tags
                all.append(item)
            }
        }
        return all
    }

    /// A template of these items and no attachments.
    public init(id: String, items: [SceneItem]) {
        self.id = id
        self.items = items
    }
}
