// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Several items moving as one rigid compound body (UIKit's `UIDynamicItemGroup`).
///
/// Add the group, not its members, to behaviours. Its mass is the sum of the members' masses, its centre
/// the members' centre of mass, its inertia the sum of theirs about that centre. After each step the
/// animator writes every member's centre and rotation; the members keep their relative placement.
public final class DynamicItemGroup: DynamicItem {
    /// The members.
    public let items: [any DynamicItem]
    var bodyRotation: CGFloat = 0  // written by the animator after each step

    /// Creates a group of `items` (at least one; an item may belong to one group only).
    public init(items: [any DynamicItem]) {
        require(!items.isEmpty, "DynamicItemGroup needs at least one item")
        self.items = items
    }

    /// The members' centre of area (their centre of mass at uniform density), pt. Setting it moves every member.
    public var center: CGPoint {
        get {
            var (sx, sy, sa) = (0.0, 0.0, 0.0)
            for item in items {
                let a = Double(max(item.areaMoments.area, .leastNonzeroMagnitude))
                (sx, sy, sa) = (sx + a * item.center.x, sy + a * item.center.y, sa + a)
            }
            return CGPoint(x: sx / sa, y: sy / sa)
        }
        set {
            let old = center
            for item in items {
                item.center = CGPoint(x: item.center.x + newValue.x - old.x, y: item.center.y + newValue.y - old.y)
            }
        }
    }

    /// The bounding box of the members' centres and sizes, as a size at the origin, pt.
    public var bounds: CGRect {
        let boxes = items.map { CGRect(x: $0.center.x - $0.bounds.width / 2, y: $0.center.y - $0.bounds.height / 2,
                                       width: $0.bounds.width, height: $0.bounds.height) }
        let box = boxes.dropFirst().reduce(boxes[0]) { $0.union($1) }
        return CGRect(origin: .zero, size: box.size)
    }

    /// The group's rotation since it was made. Setting it rotates the members about the group's centre.
    public var transform: CGAffineTransform {
        get { CGAffineTransform(rotationAngle: bodyRotation) }
        set {
            let delta = atan2(newValue.b, newValue.a) - bodyRotation
            let c = center
            let (co, si) = (cos(delta), sin(delta))
            for item in items {
                let (dx, dy) = (item.center.x - c.x, item.center.y - c.y)
                item.center = CGPoint(x: c.x + co * dx - si * dy, y: c.y + si * dx + co * dy)
                item.transform = CGAffineTransform(rotationAngle: item.rotationAngle + delta)
            }
            bodyRotation += delta
        }
    }
}
