// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A ready-made ``DynamicItem`` for code that has no object of its own: a centre, a size and a rotation.
///
/// ```swift
/// let square = DynamicBody(center: CGPoint(x: 100, y: 100), size: CGSize(width: 100, height: 100))
/// ```
public final class DynamicBody: DynamicItem {
    /// Centre, pt.
    public var center: CGPoint
    /// Bounds at the origin; the size is the collision size, pt.
    public var bounds: CGRect
    /// Transform; the animator writes a pure rotation.
    public var transform: CGAffineTransform
    /// Collision shape kind.
    public var collisionBoundsType: DynamicItemCollisionBoundsType
    /// Collision path for `.path`, relative to the centre.
    public var collisionBoundingPath: BezierPath

    /// Creates a body of `size` (pt) at `center` (pt), rotated by `rotation` radians.
    public init(center: CGPoint, size: CGSize, rotation: CGFloat = 0,
                collisionBoundsType: DynamicItemCollisionBoundsType = .rectangle, collisionBoundingPath: BezierPath? = nil)
    {
        self.center = center
        self.bounds = CGRect(origin: .zero, size: size)
        self.transform = CGAffineTransform(rotationAngle: rotation)
        self.collisionBoundsType = collisionBoundsType
        self.collisionBoundingPath = collisionBoundingPath
            ?? BezierPath(rect: CGRect(x: -size.width / 2, y: -size.height / 2, width: size.width, height: size.height))
    }

    /// Creates an unrotated body filling `frame` (pt), as `UIView(frame:)`: its centre is the frame's
    /// centre and its size the frame's size.
    public convenience init(frame: CGRect) {
        self.init(center: CGPoint(x: frame.midX, y: frame.midY), size: frame.size)
    }

    /// The rectangle the body covers, pt, as UIKit's `frame` under an identity transform: from ``center``
    /// and ``bounds``, the transform ignored. Setting it moves ``center`` and resizes ``bounds`` (a negative
    /// width or height is taken as the standardised rectangle, as `CGRect` does).
    public var frame: CGRect {
        get {
            CGRect(x: center.x - bounds.width / 2, y: center.y - bounds.height / 2, width: bounds.width,
                   height: bounds.height)
        }
        set {
            let r = newValue.standardized
            center = CGPoint(x: r.midX, y: r.midY)
            bounds.size = r.size
        }
    }

    /// The rotation, radians (positive from +x toward +y).
    public var rotation: CGFloat { atan2(transform.b, transform.a) }

    /// The size, pt.
    public var size: CGSize {
        get { bounds.size }
        set { bounds.size = newValue }
    }
}
