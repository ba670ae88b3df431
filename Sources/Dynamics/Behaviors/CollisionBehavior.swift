// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Makes its items collide with each other and with boundaries (UIKit's `UICollisionBehavior`).
///
/// Items collide only with items of a collision behaviour they share (an item may be in several), and
/// with the boundaries of the behaviours they are in, as ``collisionMode`` allows. Boundaries are static
/// two-sided edges: the reference bounds (optionally inset), segments, and `BezierPath`s whose arcs and
/// curves are flattened to segments (closed paths form loops; concave paths are fine).
/// Contact points and boundaries are in reference coordinates, pt.
open class CollisionBehavior: DynamicBehavior {
    /// What the items collide with.
    public struct Mode: OptionSet, Hashable, Sendable {
        /// The raw bits.
        public let rawValue: UInt
        /// Creates a mode from raw bits.
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// Items collide with the other items of this behaviour.
        public static let items = Mode(rawValue: 1)
        /// Items collide with this behaviour's boundaries.
        public static let boundaries = Mode(rawValue: 2)
        /// Both (the default).
        public static let everything = Mode(rawValue: .max)
    }

    private var list: ItemList
    private(set) var boundaries: [(identifier: AnyHashable, path: BezierPath)] = []
    private(set) var referenceInsets: EdgeInsets?

    /// A collision behaviour for `items`, mode ``Mode/everything``, no boundaries.
    public init(items: [any DynamicItem] = []) {
        list = ItemList(items)
        super.init()
    }

    /// Told when contacts begin and end, after each step.
    public weak var collisionDelegate: (any CollisionBehaviorDelegate)?

    /// The items, in the order added.
    public var items: [any DynamicItem] { list.items }
    /// Adds an item (once).
    public func addItem(_ item: any DynamicItem) { if list.insert(item) { itemsDidChange() } }
    /// Removes an item.
    public func removeItem(_ item: any DynamicItem) { if list.remove(item) { itemsDidChange() } }

    /// What the items collide with (default ``Mode/everything``).
    public var collisionMode: Mode = .everything { didSet { didChange() } }

    /// Whether the animator's reference bounds act as a boundary (identifier nil in delegate calls).
    public var translatesReferenceBoundsIntoBoundary: Bool {
        get { referenceInsets != nil }
        set {
            referenceInsets = newValue ? (referenceInsets ?? .zero) : nil
            didChange()
        }
    }

    /// Makes the reference bounds, inset by `insets` (pt; positive insets shrink), a boundary.
    public func setTranslatesReferenceBoundsIntoBoundary(with insets: EdgeInsets) {
        require([insets.top, insets.left, insets.bottom, insets.right].allSatisfy(\.isFinite),
                     "boundary insets must be finite, got \(insets)")
        referenceInsets = insets
        didChange()
    }

    /// Adds (or replaces) the boundary `identifier` made of `path`.
    public func addBoundary(withIdentifier identifier: AnyHashable, for path: BezierPath) {
        require(path.elements.allSatisfy(\.isFinite), "boundary \(identifier) has a non-finite coordinate")
        removeBoundaryQuietly(identifier)
        boundaries.append((identifier, path.copy()))
        didChange()
    }

    /// Adds (or replaces) the boundary `identifier`: the segment from `p0` to `p1` (pt).
    public func addBoundary(withIdentifier identifier: AnyHashable, from p0: CGPoint, to p1: CGPoint) {
        let path = BezierPath()
        path.move(to: p0)
        path.addLine(to: p1)
        addBoundary(withIdentifier: identifier, for: path)
    }

    /// The path of boundary `identifier`, if there is one.
    public func boundary(withIdentifier identifier: AnyHashable) -> BezierPath? {
        boundaries.first { $0.identifier == identifier }?.path.copy()
    }

    /// Removes boundary `identifier`.
    public func removeBoundary(withIdentifier identifier: AnyHashable) {
        if removeBoundaryQuietly(identifier) { didChange() }
    }

    /// Adds (or replaces) the boundary `identifier` made of `path`, with UIKit's `NSCopying` identifier
    /// (`"floor" as NSCopying` names the same boundary as `"floor"`).
    public func addBoundary(withIdentifier identifier: NSCopying, for path: BezierPath) {
        addBoundary(withIdentifier: BoundaryIdentifier.hashable(identifier), for: path)
    }

    /// Adds (or replaces) the boundary `identifier` from `p0` to `p1` (pt), with UIKit's `NSCopying` identifier.
    public func addBoundary(withIdentifier identifier: NSCopying, from p0: CGPoint, to p1: CGPoint) {
        addBoundary(withIdentifier: BoundaryIdentifier.hashable(identifier), from: p0, to: p1)
    }

    /// The path of boundary `identifier` (UIKit's `NSCopying` identifier), if there is one.
    public func boundary(withIdentifier identifier: NSCopying) -> BezierPath? {
        boundary(withIdentifier: BoundaryIdentifier.hashable(identifier))
    }

    /// Removes boundary `identifier` (UIKit's `NSCopying` identifier).
    public func removeBoundary(withIdentifier identifier: NSCopying) {
        removeBoundary(withIdentifier: BoundaryIdentifier.hashable(identifier))
    }

    /// The identifiers of the added boundaries (not the reference bounds), in the order added.
    public var boundaryIdentifiers: [AnyHashable] { boundaries.map(\.identifier) }

    /// Removes every added boundary (the reference bounds boundary stays as set).
    public func removeAllBoundaries() {
        guard !boundaries.isEmpty else { return }
        boundaries.removeAll()
        didChange()
    }

    @discardableResult
    private func removeBoundaryQuietly(_ identifier: AnyHashable) -> Bool {
        let before = boundaries.count
        boundaries.removeAll { $0.identifier == identifier }
        return boundaries.count != before
    }

    func contains(_ key: ObjectIdentifier) -> Bool { list.contains(key) }

    override var directItems: [any DynamicItem] { list.items }
}

extension BezierPath {
    /// An independent copy (boundaries keep the path as it was when added).
    func copy() -> BezierPath {
        let p = BezierPath()
        for element in elements {
            switch element {
            case let .move(q): p.move(to: q)
            case let .line(q): p.addLine(to: q)
            case let .arc(c, r, a0, a1, cw): p.addArc(withCenter: c, radius: r, startAngle: a0, endAngle: a1, clockwise: cw)
            case let .curve(q, c1, c2): p.addCurve(to: q, controlPoint1: c1, controlPoint2: c2)
            case .close: p.close()
            }
        }
        return p
    }
}

extension BezierPath.Element {
    var isFinite: Bool {
        switch self {
        case let .move(p), let .line(p): return p.x.isFinite && p.y.isFinite
        case let .arc(c, r, a0, a1, _): return [c.x, c.y, r, a0, a1].allSatisfy(\.isFinite)
        case let .curve(p, c1, c2): return [p.x, p.y, c1.x, c1.y, c2.x, c2.y].allSatisfy(\.isFinite)
        case .close: return true
        }
    }
}
