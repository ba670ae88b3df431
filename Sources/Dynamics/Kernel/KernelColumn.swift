// SPDX-License-Identifier: Apache-2.0
import Foundation
import DynamicsKernel

/// The kernel columns the Swift side reads or writes.
enum KernelColumn {
    case positionX, positionY, angle, velocityX, velocityY, angularVelocity
    case gravityX, gravityY, forceX, forceY, torqueCross, torqueDot
    case linearDamping, angularDamping, snapX, snapY, snapOmega, snapZeta
    case elasticity, friction, charge, fieldForceX, fieldForceY, mass, inertia, width, height, density, sleepTime

    /// The kernel's range for a written value (<doc:UnitsAndSemantics>). Bulk writes check every column
    /// with it before the first is written, so a call that throws writes nothing.
    func accepts(_ v: Float) -> Bool { dkColumnAccepts(kernel, v) }

    var kernel: dkColumn {
        switch self {
        case .positionX: dkColumnPositionX
        case .positionY: dkColumnPositionY
        case .angle: dkColumnAngle
        case .velocityX: dkColumnVelocityX
        case .velocityY: dkColumnVelocityY
        case .angularVelocity: dkColumnAngularVelocity
        case .gravityX: dkColumnGravityX
        case .gravityY: dkColumnGravityY
        case .forceX: dkColumnForceX
        case .forceY: dkColumnForceY
        case .torqueCross: dkColumnTorqueCross
        case .torqueDot: dkColumnTorqueDot
        case .linearDamping: dkColumnLinearDamping
        case .angularDamping: dkColumnAngularDamping
        case .snapX: dkColumnSnapX
        case .snapY: dkColumnSnapY
        case .snapOmega: dkColumnSnapOmega
        case .snapZeta: dkColumnSnapZeta
        case .elasticity: dkColumnElasticity
        case .friction: dkColumnFriction
        case .charge: dkColumnCharge
        case .fieldForceX: dkColumnFieldForceX
        case .fieldForceY: dkColumnFieldForceY
        case .mass: dkColumnMass
        case .inertia: dkColumnInertia
        case .width: dkColumnWidth
        case .height: dkColumnHeight
        case .density: dkColumnDensity
        case .sleepTime: dkColumnSleepTime
        }
    }
}

extension KernelWorld {
    /// The kernel's id of an item of this world; an id from another world becomes the never-valid id 0,
    /// which the kernel rejects as stale.
    func kernelID(_ id: ItemID) -> dkItemId {
        id.world == 0 || id.world == tag ? dkItemId(index1: id.index, generation: id.generation) : dkItemId()
    }

    /// The id, tagged with this world, of a kernel item.
    func itemID(_ id: dkItemId) -> ItemID { ItemID(index: id.index1, generation: id.generation, world: tag) }
}

extension ItemID {
}

extension SIMDLevel {
    var kernelLimit: dkSimdLevel {
        switch self {
        case .automatic, .avx512: dkSimdAVX512
        case .avx2: dkSimdAVX2
        case .neon: dkSimdNEON
        case .sse2: dkSimdSSE2
        case .scalar: dkSimdScalar
        }
    }
}

extension Integrator {
    var kernelValue: dkIntegrator {
        switch self {
        case .fused: dkIntegratorFused
        case .blas: dkIntegratorBLAS
        case .scalar: dkIntegratorScalar
        }
    }
}

extension StepProfile {
    init(_ p: dkProfile) {
        self.init(stepNanoseconds: p.step, solveNanoseconds: p.solve, partitionNanoseconds: p.partition,
                  broadphaseNanoseconds: p.broadphase, narrowphaseNanoseconds: p.narrowphase,
                  contactSolveNanoseconds: p.contactSolve, stepSerialNanoseconds: p.stepSerial,
                  broadphaseSerialNanoseconds: p.broadphaseSerial, narrowphaseSerialNanoseconds: p.narrowphaseSerial,
                  contactSolveSerialNanoseconds: p.contactSolveSerial, jobs: Int(p.jobs),
                  awakeItems: Int(p.awakeCount), items: Int(p.itemCount), substeps: Int(p.substeps),
                  workers: Int(p.workers), blocks: Int(p.blocks))
    }
}

extension ItemDescription {
    func kernelDef() throws(DynamicsError) -> dkItemDef {
        var def = dkDefaultItemDef()
        func finite(_ v: CGFloat, _ field: String) throws(DynamicsError) -> Float {
            guard v.isFinite, abs(v) <= CGFloat(Float.greatestFiniteMagnitude) else {
                throw .invalidValue(field: field, value: Double(v), index: nil)
            }
            return Float(v)
        }
        switch shape {
        case let .rectangle(w, h):
            def.shape = dkShapeRectangle
            (def.width, def.height) = (try finite(w, "width"), try finite(h, "height"))
        case let .ellipse(w, h):
            def.shape = dkShapeEllipse
            (def.width, def.height) = (try finite(w, "width"), try finite(h, "height"))
        case let .compound(m, i, w, h):
            def.shape = dkShapeCompound
            (def.mass, def.inertia) = (try finite(m, "mass"), try finite(i, "inertia"))
            (def.width, def.height) = (try finite(w, "width"), try finite(h, "height"))
        }
        def.density = try finite(density, "density")
        def.linearDamping = try finite(resistance, "resistance")
        def.angularDamping = try finite(angularResistance, "angularResistance")
        def.elasticity = try finite(elasticity, "elasticity")
        def.friction = try finite(friction, "friction")
        def.charge = try finite(charge, "charge")
        guard !(isAnchored && isKinematic) else { throw .invalidValue(field: "isKinematic", value: 1, index: nil) }
        def.flags = (isAnchored ? UInt32(dkItemAnchored) : 0) | (allowsRotation ? 0 : UInt32(dkItemFixedRotation)) |
            (isKinematic ? UInt32(dkItemKinematic) : 0)
        return def
    }
}
