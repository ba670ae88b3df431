// SPDX-License-Identifier: Apache-2.0
import Foundation

#if !canImport(CoreGraphics)
/// A 2-D affine transform, as on Apple platforms (Foundation on Linux lacks it).
///
/// A point (x, y) maps to (a·x + c·y + tx, b·x + d·y + ty). Dynamics writes a pure rotation
/// (`CGAffineTransform(rotationAngle:)`, radians, positive from +x toward +y) to each item.
public struct CGAffineTransform: Hashable, Sendable {
    /// Matrix entries.
    public var a, b, c, d: CGFloat
    /// Translation in points.
    public var tx, ty: CGFloat
    /// Creates a transform from its six entries.
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        (self.a, self.b, self.c, self.d, self.tx, self.ty) = (a, b, c, d, tx, ty)
    }
    /// The identity transform.
    public init() { self.init(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }
    /// The identity transform.
    public static let identity = CGAffineTransform()
    /// A rotation by `angle` radians (positive from +x toward +y, clockwise on a y-down screen).
    public init(rotationAngle angle: CGFloat) {
        let (s, co) = (sin(angle), cos(angle))
        self.init(a: co, b: s, c: -s, d: co, tx: 0, ty: 0)
    }
    /// A scale by `sx` and `sy` (unitless).
    public init(scaleX sx: CGFloat, y sy: CGFloat) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    /// A translation by `tx` and `ty` points.
    public init(translationX tx: CGFloat, y ty: CGFloat) { self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty) }
    /// Whether this is the identity.
    public var isIdentity: Bool { self == .identity }
    /// `self` followed by `t2`.
    public func concatenating(_ t2: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(
            a: a * t2.a + b * t2.c, b: a * t2.b + b * t2.d,
            c: c * t2.a + d * t2.c, d: c * t2.b + d * t2.d,
            tx: tx * t2.a + ty * t2.c + t2.tx, ty: tx * t2.b + ty * t2.d + t2.ty)
    }
    /// This transform preceded by a rotation of `angle` radians, as CoreGraphics does.
    public func rotated(by angle: CGFloat) -> CGAffineTransform {
        CGAffineTransform(rotationAngle: angle).concatenating(self)
    }
    /// This transform preceded by a scale.
    public func scaledBy(x sx: CGFloat, y sy: CGFloat) -> CGAffineTransform {
        CGAffineTransform(scaleX: sx, y: sy).concatenating(self)
    }
    /// This transform preceded by a translation in points.
    public func translatedBy(x tx: CGFloat, y ty: CGFloat) -> CGAffineTransform {
        CGAffineTransform(translationX: tx, y: ty).concatenating(self)
    }
}

extension CGPoint {
    /// The point mapped by `t`.
    public func applying(_ t: CGAffineTransform) -> CGPoint {
        CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty)
    }
}
#endif
