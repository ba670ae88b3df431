// SPDX-License-Identifier: Apache-2.0
import DynamicsKernel
import Foundation

/// One joint as the kernel takes it: item A (nil: the world), item B, anchors in the items' frames (A's
/// is a world point when A is nil), and the kind's parameters.
struct KernelJoint {
    var itemA: ItemID?
    var itemB: ItemID
    var anchorA: CGPoint
    var anchorB: CGPoint
    var kind: AttachmentKind
    /// Rod and rope lengths resolved from the anchors' distance at creation, pt.
    var length: CGFloat
    /// Slider axis in A's frame.
    var axis: CGVector = .zero
    /// Whether the two items collide with each other.
    var itemsCollide = false

    /// The kernel's definition, with the items' ids in `world`.
    func kernelDef(in world: KernelWorld) -> dkJointDef {
        var d = dkDefaultJointDef()
        d.itemA = itemA.map(world.kernelID) ?? dkItemId()
        d.itemB = world.kernelID(itemB)
        (d.anchorAx, d.anchorAy) = (Float(anchorA.x), Float(anchorA.y))
        (d.anchorBx, d.anchorBy) = (Float(anchorB.x), Float(anchorB.y))
        d.length = Float(length)
        kind.parameters(into: &d)
        if case .slider = kind { (d.axisX, d.axisY) = (Float(axis.dx), Float(axis.dy)) }
        d.collideConnected = itemsCollide
        return d
    }
}

extension AttachmentKind {
    /// Writes the kind, length, limits, spring and friction (not items, anchors or axis).
    func parameters(into d: inout dkJointDef) {
        func limits(_ range: FloatRange) {
            d.enableLimit = !range.isInfinite
            d.lower = range.minimum == -.infinity ? -DK_JOINT_NO_LIMIT : Float(range.minimum)
            d.upper = range.maximum == .infinity ? DK_JOINT_NO_LIMIT : Float(range.maximum)
        }
        switch self {
        case let .rod(length, frequency, damping):
            d.kind = dkJointDistance
            if let length { d.length = Float(length) }
            d.rigid = true
            (d.hertz, d.dampingRatio) = (Float(frequency), Float(damping))
        case let .rope(length):
            d.kind = dkJointDistance
            if let length { d.length = Float(length) }
            d.rigid = false
            d.enableLimit = true
            (d.minLength, d.maxLength) = (0, d.length)
        case let .weld(frequency, damping):
            d.kind = dkJointWeld
            (d.hertz, d.dampingRatio) = (Float(frequency), Float(damping))
        case let .pin(range, frictionTorque, motor, spring):
            d.kind = dkJointRevolute
            limits(range)
            d.maxFrictionTorque = Float(100 * frictionTorque) // N·pt → mass·pt²/s² (a = 100 F / m)
            if let motor {
                d.enableMotor = true
                d.motorSpeed = Float(motor.speed)
                d.maxMotorTorque = Float(100 * motor.maximumTorque) // .infinity stays infinite: unlimited
            }
            if let spring {
                (d.angularHertz, d.angularDampingRatio) = (Float(spring.frequency), Float(spring.damping))
                d.restAngle = Float(spring.restAngle)
            }
        case let .slider(_, range, motor):
            d.kind = dkJointPrismatic
            limits(range)
            if let motor {
                d.enableMotor = true
                d.motorSpeed = Float(motor.speed)
                d.maxMotorForce = Float(100 * motor.maximumForce) // N → mass·pt/s²; .infinity: unlimited
            }
        }
    }
}

extension KernelWorld {
    func createJoints(_ joints: [KernelJoint]) throws(DynamicsError) -> [AttachmentID] {
        let defs = joints.map { $0.kernelDef(in: self) }
        var ids = [dkJointId](repeating: dkJointId(), count: defs.count)
        var error = dkError()
        let result = defs.withUnsafeBufferPointer { d in
            ids.withUnsafeMutableBufferPointer { dkWorld_CreateJoints(raw, d.baseAddress, Int32(d.count), $0.baseAddress, &error) }
        }
        if result == dkResultStaleId, error.index >= 0 {
            let j = joints[Int(error.index)]
            throw .staleID(String(cString: error.field) == "itemA" ? j.itemA ?? j.itemB : j.itemB)
        }
        try check(result, error)
        return ids.map { AttachmentID(index: $0.index1, generation: $0.generation) }
    }

    func destroyJoints(_ ids: [AttachmentID]) throws(DynamicsError) {
        let kids = ids.map(\.kernel)
        var error = dkError()
        let result = kids.withUnsafeBufferPointer { dkWorld_DestroyJoints(raw, $0.baseAddress, Int32($0.count), &error) }
        guard result == dkResultOK else { throw .staleAttachment(ids[max(0, Int(error.index))]) }
    }

    func jointIsValid(_ id: AttachmentID) -> Bool { dkWorld_JointIsValid(raw, id.kernel) }
    var jointCount: Int { Int(dkWorld_JointCount(raw)) }

    func setJointAnchor(_ id: AttachmentID, _ point: CGPoint) throws(DynamicsError) {
        var error = dkError()
        let result = dkWorld_SetJointAnchor(raw, id.kernel, Float(point.x), Float(point.y), &error)
        if result == dkResultStaleId { throw .staleAttachment(id) }
        try check(result, error)
    }

    func setJointsCollide(_ ids: [AttachmentID], _ collide: Bool) throws(DynamicsError) {
        let kids = ids.map(\.kernel)
        var error = dkError()
        let result = kids.withUnsafeBufferPointer { dkWorld_SetJointsCollide(raw, $0.baseAddress, Int32($0.count), collide, &error) }
        if result == dkResultStaleId { throw .staleAttachment(ids[max(0, Int(error.index))]) }
        try check(result, error)
    }

    /// Replaces length, limits, spring and friction with those of `kind` (and `length` for rods and ropes).
    func setJointParameters(_ id: AttachmentID, _ kind: AttachmentKind, length: CGFloat) throws(DynamicsError) {
        var d = dkDefaultJointDef()
        d.length = Float(length)
        kind.parameters(into: &d)
        var error = dkError()
        let result = dkWorld_SetJointParameters(raw, id.kernel, &d, &error)
        if result == dkResultStaleId { throw .staleAttachment(id) }
        try check(result, error)
    }

    /// The anchors in world coordinates for the current poses, pt.
    func jointAnchors(_ id: AttachmentID) -> (a: CGPoint, b: CGPoint)? {
        var ax: Float = 0, ay: Float = 0, bx: Float = 0, by: Float = 0
        guard dkWorld_JointAnchors(raw, id.kernel, &ax, &ay, &bx, &by, nil) == dkResultOK else { return nil }
        return (CGPoint(x: CGFloat(ax), y: CGFloat(ay)), CGPoint(x: CGFloat(bx), y: CGFloat(by)))
    }
}

extension AttachmentID {
    var kernel: dkJointId { dkJointId(index1: index, generation: generation) }
}
