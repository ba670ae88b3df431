// SPDX-License-Identifier: Apache-2.0
import Foundation

extension ItemDescription.Shape {
    /// The mass properties of a convex polygon item (vertices in pt around its centre, either winding) at
    /// `density`, as the animator gives an item with `.path` collision bounds: mass = density · area / 10 000
    /// and inertia = density · (polar moment about the centroid) / 10 000, sized by the vertices' bounding box.
    /// Give the item the same vertices as its ``CollisionShape/polygon(_:)``.
    public static func polygon(_ vertices: [CGPoint], density: CGFloat) -> Self {
        let (area, polar) = DynamicBody.polygonMoments(vertices)
        let xs = vertices.map(\.x), ys = vertices.map(\.y)
        return .compound(mass: density * area / 10_000, inertia: density * polar / 10_000,
                         width: (xs.max() ?? 0) - (xs.min() ?? 0), height: (ys.max() ?? 0) - (ys.min() ?? 0))
    }
}
