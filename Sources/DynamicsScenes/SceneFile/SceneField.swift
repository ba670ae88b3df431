// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

/// A field behaviour of a scene file: one of the built-in laws (`FieldKind`) over a region.
public struct SceneField: Hashable, Sendable {
    /// The items it acts on.
    public var targets = SceneTargets.all
    /// The law and its properties; its region is `region`'s.
    public var description: FieldDescription
    /// Where it acts, relative to the field's position.
    public var region = SceneRegion.infinite

    /// A field of `kind` with the default properties over every item.
    public init(kind: FieldKind) { description = FieldDescription(kind: kind) }

    /// The description with the region applied, as `DynamicWorld/addField(_:for:)` takes it.
    var resolved: FieldDescription {
        var d = description
        d.region = region.region
        return d
    }

    /// The kinds by the names scene files use (the `FieldKind` case names).
    static let kinds: [String: FieldKind] = Dictionary(uniqueKeysWithValues: FieldKind.allCases.map { (String(describing: $0), $0) })
}

/// A field's region as a scene file writes it: discs and rectangles centred on the field's position,
/// combined by inverse, union, intersection and difference.
public indirect enum SceneRegion: Hashable, Sendable {
    /// Everywhere.
    case infinite
    /// A disc of this radius, pt.
    case disc(radius: CGFloat)
    /// A rectangle of this size, pt, centred.
    case rectangle(width: CGFloat, height: CGFloat)
    /// Everywhere outside the region.
    case inverse(SceneRegion)
    /// Either region.
    case union(SceneRegion, SceneRegion)
    /// Both regions.
    case intersection(SceneRegion, SceneRegion)
    /// The first region less the second.
    case difference(SceneRegion, SceneRegion)

    /// The `Region` it describes.
    public var region: Region {
        switch self {
        case .infinite: .infinite
        case .disc(let r): Region(radius: r)
        case .rectangle(let w, let h): Region(size: CGSize(width: w, height: h))
        case .inverse(let a): a.region.inverse()
        case .union(let a, let b): a.region.byUnion(with: b.region)
        case .intersection(let a, let b): a.region.byIntersection(with: b.region)
        case .difference(let a, let b): a.region.byDifference(from: b.region)
        }
    }
}
