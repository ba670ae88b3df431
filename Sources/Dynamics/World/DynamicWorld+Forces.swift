// SPDX-License-Identifier: Apache-2.0
import Foundation

extension DynamicWorld {
    /// Sets the constant acceleration (pt/s², mass-independent) of each item: a ``GravityBehavior`` of
    /// magnitude 1 is 1000 pt/s². Anchored items ignore it. Wakes the items.
    public func setGravity(_ acceleration: CGVector, for ids: [ItemID]) throws(DynamicsError) {
        requireNoColumnView("setGravity")
        try fill(.gravityX, .gravityY, acceleration.dx, acceleration.dy, ids)
    }

    /// Sets the constant acceleration of each item from per-item arrays (pt/s²).
    public func setGravity(x: [Float], y: [Float], for ids: [ItemID]) throws(DynamicsError) {
        requireNoColumnView("setGravity")
        try write([(.gravityX, x, nil), (.gravityY, y, nil)], ids)
    }

    /// Sets a constant force (UIKit newtons: a = 100·F/m pt/s²) through each item's centre. Wakes the items.
    public func setForce(_ force: CGVector, for ids: [ItemID]) throws(DynamicsError) {
        requireNoColumnView("setForce")
        let n = ids.count
        try write([(.forceX, Array(repeating: Float(force.dx), count: n), Double(force.dx)),
                   (.forceY, Array(repeating: Float(force.dy), count: n), Double(force.dy)),
                   (.torqueCross, Array(repeating: 0, count: n), nil), (.torqueDot, Array(repeating: 0, count: n), nil)],
                  ids)
    }

    /// Sets per-item constant forces (N) and their torque coefficients in item coordinates (N·pt):
    /// `torqueCross` = Σ cross(offset, F) and `torqueDot` = Σ dot(offset, F) over the pushes on the item,
    /// so that the torque at angle θ is cos θ · torqueCross − sin θ · torqueDot.
    public func setForces(x: [Float], y: [Float], torqueCross: [Float], torqueDot: [Float], for ids: [ItemID])
        throws(DynamicsError)
    {
        requireNoColumnView("setForces")
        try write([(.forceX, x, nil), (.forceY, y, nil), (.torqueCross, torqueCross, nil),
                   (.torqueDot, torqueDot, nil)], ids)
    }

    /// Sets linear and angular resistance (damping, 1/s, ≥ 0): v ← v / (1 + h·c) per substep.
    public func setResistance(_ linear: CGFloat, angular: CGFloat, for ids: [ItemID]) throws(DynamicsError) {
        requireNoColumnView("setResistance")
        try fill(.linearDamping, .angularDamping, linear, angular, ids)
    }

    /// Sets elasticity (0…1), friction (≥ 0) and charge of each item.
    public func setMaterial(elasticity: CGFloat, friction: CGFloat, charge: CGFloat, for ids: [ItemID])
        throws(DynamicsError)
    {
        requireNoColumnView("setMaterial")
        let n = ids.count
        try write([(.elasticity, Array(repeating: Float(elasticity), count: n), Double(elasticity)),
                   (.friction, Array(repeating: Float(friction), count: n), Double(friction)),
                   (.charge, Array(repeating: Float(charge), count: n), Double(charge))], ids)
    }

    /// Replaces shape, density, anchoring and rotation freedom (mass and inertia are recomputed).
    /// Anchoring stops the items.
    public func setMassProperties(_ description: ItemDescription, for ids: [ItemID]) throws(DynamicsError) {
        requireNoColumnView("setMassProperties")
        try kernel.setMassProperties(ids: ids, description: description)
    }

    /// Moves items to positions (pt) and angles (rad). Wakes them.
    public func setPositions(_ positions: [CGPoint], angles: [CGFloat]? = nil, for ids: [ItemID])
        throws(DynamicsError)
    {
        requireNoColumnView("setPositions")
        guard positions.count == ids.count else {
            throw .invalidValue(field: "positions.count", value: Double(positions.count), index: nil)
        }
        var columns: [(KernelColumn, [Float], Double?)] = [
            (.positionX, positions.map { Float($0.x) }, nil), (.positionY, positions.map { Float($0.y) }, nil)]
        if let angles { columns.append((.angle, angles.map { Float($0) }, nil)) }
        try write(columns, ids)
    }

    /// Sets velocities (pt/s) and, when given, angular velocities (rad/s). Anchored items stay still.
    public func setVelocities(_ velocities: [CGVector], angular: [CGFloat]? = nil, for ids: [ItemID])
        throws(DynamicsError)
    {
        requireNoColumnView("setVelocities")
        guard velocities.count == ids.count else {
            throw .invalidValue(field: "velocities.count", value: Double(velocities.count), index: nil)
        }
        var columns: [(KernelColumn, [Float], Double?)] = [
            (.velocityX, velocities.map { Float($0.dx) }, nil), (.velocityY, velocities.map { Float($0.dy) }, nil)]
        if let angular { columns.append((.angularVelocity, angular.map { Float($0) }, nil)) }
        try write(columns, ids)
    }

    /// Drives items to poses over the next step (beyond UIKit, as Box2D's `b2Body_SetTargetTransform`): sets each
    /// item's velocity to (position − centre) / ``DynamicsConfiguration/stepDuration`` pt/s and, when `angles`
    /// are given, its angular velocity to (angle − its angle) / step rad/s, the plain difference (a target a
    /// full turn ahead turns a full turn). A kinematic item (``ItemDescription/isKinematic``) ends the next step
    /// at the pose, to within Float rounding, and keeps the velocity until it is changed; another item starts
    /// toward it and gravity, contacts and attachments then act as usual. Wakes them. Throws, changing nothing,
    /// as ``setVelocities(_:angular:for:)`` does, and for a pose whose velocity would not be finite.
    public func drive(_ ids: [ItemID], to positions: [CGPoint], angles: [CGFloat]? = nil) throws(DynamicsError) {
        requireNoColumnView("drive")
        guard positions.count == ids.count else {
            throw .invalidValue(field: "positions.count", value: Double(positions.count), index: nil)
        }
        if let angles, angles.count != ids.count {
            throw .invalidValue(field: "angles.count", value: Double(angles.count), index: nil)
        }
        let rate = configuration.stepsPerSecond
        var velocities: [CGVector] = [], turns: [CGFloat] = []
        velocities.reserveCapacity(ids.count)
        for (k, id) in ids.enumerated() {
            guard contains(id) else { throw .staleID(id) }
            let pose = pose(of: id), target = positions[k]
            let v = CGVector(dx: (target.x - pose.center.x) * rate, dy: (target.y - pose.center.y) * rate)
            guard v.dx.isFinite, v.dy.isFinite else { throw .invalidValue(field: "positions", value: Double(v.dx.isFinite ? target.y : target.x), index: k) }
            velocities.append(v)
            if let angles {
                let w = (angles[k] - pose.angle) * rate
                guard w.isFinite else { throw .invalidValue(field: "angles", value: Double(angles[k]), index: k) }
                turns.append(w)
            }
        }
        try setVelocities(velocities, angular: angles == nil ? nil : turns, for: ids)
    }

    /// Adds `velocity` (pt/s) and `angular` (rad/s) to each item. Wakes them.
    public func addVelocity(_ velocity: CGVector, angular: CGFloat = 0, for ids: [ItemID]) throws(DynamicsError) {
        requireNoColumnView("addVelocity")
        let n = ids.count
        try kernel.addVelocities(ids: ids, dx: Array(repeating: Float(velocity.dx), count: n),
                                 dy: Array(repeating: Float(velocity.dy), count: n),
                                 dw: Array(repeating: Float(angular), count: n))
    }

    /// Applies an impulse (N·s: Δv = 100·P/m pt/s) at `offset` (pt, item coordinates) to each item.
    public func applyImpulse(_ impulse: CGVector, at offset: Offset = .zero, for ids: [ItemID])
        throws(DynamicsError)
    {
        requireNoColumnView("applyImpulse")
        let n = ids.count
        try kernel.applyImpulses(ids: ids, px: Array(repeating: Float(impulse.dx), count: n),
                                 py: Array(repeating: Float(impulse.dy), count: n),
                                 offsetX: Array(repeating: Float(offset.horizontal), count: n),
                                 offsetY: Array(repeating: Float(offset.vertical), count: n))
    }

    /// Pulls each item toward `point` (pt) and its rotation toward the nearest whole turn with a snap spring
    /// of frequency `frequency` Hz and damping ratio ζ (a ``SnapBehavior`` uses 2.5 Hz and ζ = 0.05 + 0.95·damping; see
    /// <doc:UnitsAndSemantics>). A frequency of 0 removes the spring.
    public func setSnap(to point: CGPoint, frequency: CGFloat = 2.5, dampingRatio: CGFloat, for ids: [ItemID])
        throws(DynamicsError)
    {
        requireNoColumnView("setSnap")
        guard frequency.isFinite, frequency >= 0 else {
            throw .invalidValue(field: "frequency", value: Double(frequency), index: nil)
        }
        guard dampingRatio.isFinite, dampingRatio >= 0 else {
            throw .invalidValue(field: "damping", value: Double(dampingRatio), index: nil)
        }
        let n = ids.count
        try write([(.snapX, Array(repeating: Float(point.x), count: n), Double(point.x)),
                   (.snapY, Array(repeating: Float(point.y), count: n), Double(point.y)),
                   (.snapZeta, Array(repeating: Float(dampingRatio), count: n), nil),
                   (.snapOmega, Array(repeating: Float(2 * .pi * frequency), count: n), nil)], ids)
    }

    /// Sets snap springs from per-item arrays: targets (pt), angular frequencies 2πf (rad/s; 0 = none)
    /// and damping ratios.
    func setSnaps(x: [Float], y: [Float], omega: [Float], zeta: [Float], for ids: [ItemID]) throws(DynamicsError) {
        try write([(.snapX, x, nil), (.snapY, y, nil), (.snapZeta, zeta, nil), (.snapOmega, omega, nil)], ids)
    }

    /// Sets elasticity (0…1), friction (≥ 0) and charge from per-item arrays.
    func setMaterials(elasticity: [Float], friction: [Float], charge: [Float], for ids: [ItemID])
        throws(DynamicsError)
    {
        try write([(.elasticity, elasticity, nil), (.friction, friction, nil), (.charge, charge, nil)], ids)
    }

    /// Sets linear and angular resistance from per-item arrays (1/s).
    func setResistance(linear: [Float], angular: [Float], for ids: [ItemID]) throws(DynamicsError) {
        try write([(.linearDamping, linear, nil), (.angularDamping, angular, nil)], ids)
    }

    // Validates every value and id before the first write, so a failing call changes nothing.
    private func fill(_ a: KernelColumn, _ b: KernelColumn, _ va: CGFloat, _ vb: CGFloat, _ ids: [ItemID])
        throws(DynamicsError)
    {
        try write([(a, Array(repeating: Float(va), count: ids.count), Double(va)),
                   (b, Array(repeating: Float(vb), count: ids.count), Double(vb))], ids)
    }

    private func write(_ columns: [(KernelColumn, [Float], Double?)], _ ids: [ItemID]) throws(DynamicsError) {
        try validate(ids)
        for (column, values, original) in columns {
            guard values.count == ids.count else {
                throw .invalidValue(field: "\(column.fieldName).count", value: Double(values.count), index: nil)
            }
            if let original, !original.isFinite || abs(original) > Double(Float.greatestFiniteMagnitude) {
                throw .invalidValue(field: column.fieldName, value: original, index: nil)
            }
            for (k, v) in values.enumerated() where !column.accepts(v) {
                throw .invalidValue(field: column.fieldName, value: Double(v), index: ids.count > 1 ? k : nil)
            }
        }
        for (column, values, _) in columns { try kernel.set(column, ids: ids, values: values) }
    }

    /// Throws for a stale id or an id given twice.
    func validate(_ ids: [ItemID]) throws(DynamicsError) {
        var seen = Set<ItemID>()
        for id in ids {
            guard kernel.isValid(id) else { throw .staleID(id) }
            guard seen.insert(id).inserted else { throw .duplicateID(id) }
        }
    }
}

extension KernelColumn {
    var fieldName: String {
        switch self {
        case .positionX: "position.x"
        case .positionY: "position.y"
        case .velocityX: "velocity.x"
        case .velocityY: "velocity.y"
        case .gravityX: "gravity.dx"
        case .gravityY: "gravity.dy"
        case .forceX: "force.dx"
        case .forceY: "force.dy"
        case .linearDamping: "resistance"
        case .angularDamping: "angularResistance"
        case .snapX: "snapPoint.x"
        case .snapY: "snapPoint.y"
        case .snapOmega: "frequency"
        case .snapZeta: "damping"
        default: "\(self)"
        }
    }
}
