// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A path made of lines, arcs and cubic curves (UIKit's `UIBezierPath`, without drawing), in points.
///
/// Used for `.path` collision bounds and, with collisions, for boundaries. Angles are radians,
/// 0 along +x, positive toward +y (clockwise on a y-down screen, as in UIKit).
public final class BezierPath {
    /// One element of a path.
    public enum Element: Hashable, Sendable {
        /// Starts a new subpath at a point.
        case move(to: CGPoint)
        /// A straight line to a point.
        case line(to: CGPoint)
        /// A circular arc (centre, radius in pt, start and end angles in radians, direction).
        case arc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool)
        /// A cubic Bézier curve to a point.
        case curve(to: CGPoint, control1: CGPoint, control2: CGPoint)
        /// Closes the current subpath with a line to its start.
        case close
    }

    /// The elements in the order they were added.
    public private(set) var elements: [Element] = []

    /// An empty path.
    public init() {}

    /// A closed rectangle, starting at its origin and running toward +x first.
    public convenience init(rect: CGRect) {
        self.init()
        move(to: CGPoint(x: rect.minX, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX, y: rect.maxY))
        addLine(to: CGPoint(x: rect.minX, y: rect.maxY))
        close()
    }

    /// A closed ellipse inscribed in `rect`, made of four cubic curves.
    public convenience init(ovalIn rect: CGRect) {
        self.init()
        let (cx, cy, rx, ry) = (rect.midX, rect.midY, rect.width / 2, rect.height / 2)
        let k: CGFloat = 0.552_284_749_8  // 4/3·(√2 − 1): cubic approximation of a quarter circle
        move(to: CGPoint(x: cx + rx, y: cy))
        addCurve(to: CGPoint(x: cx, y: cy + ry), controlPoint1: CGPoint(x: cx + rx, y: cy + k * ry),
                 controlPoint2: CGPoint(x: cx + k * rx, y: cy + ry))
        addCurve(to: CGPoint(x: cx - rx, y: cy), controlPoint1: CGPoint(x: cx - k * rx, y: cy + ry),
                 controlPoint2: CGPoint(x: cx - rx, y: cy + k * ry))
        addCurve(to: CGPoint(x: cx, y: cy - ry), controlPoint1: CGPoint(x: cx - rx, y: cy - k * ry),
                 controlPoint2: CGPoint(x: cx - k * rx, y: cy - ry))
        addCurve(to: CGPoint(x: cx + rx, y: cy), controlPoint1: CGPoint(x: cx + k * rx, y: cy - ry),
                 controlPoint2: CGPoint(x: cx + rx, y: cy - k * ry))
        close()
    }

    /// An open circular arc.
    public convenience init(arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat,
                            clockwise: Bool) {
        self.init()
        addArc(withCenter: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint) { elements.append(.move(to: point)) }
    /// Adds a straight line to `point`.
    public func addLine(to point: CGPoint) { elements.append(.line(to: point)) }
    /// Adds a circular arc (radius in pt, angles in radians).
    public func addArc(withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat,
                       clockwise: Bool) {
        elements.append(.arc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
                             clockwise: clockwise))
    }
    /// Adds a cubic Bézier curve to `endPoint`.
    public func addCurve(to endPoint: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
        elements.append(.curve(to: endPoint, control1: controlPoint1, control2: controlPoint2))
    }
    /// Closes the current subpath.
    public func close() { elements.append(.close) }
    /// Whether the path has no elements.
    public var isEmpty: Bool { elements.isEmpty }
}
