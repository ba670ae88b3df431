// SPDX-License-Identifier: Apache-2.0
import DynamicsKernel
import Foundation

extension KernelWorld {
    func createField(_ description: FieldDescription) throws(DynamicsError) -> FieldID {
        var def = try description.kernelDef()
        var id = dkFieldId()
        var error = dkError()
        try check(dkWorld_CreateField(raw, &def, &id, &error), error)
        let made = FieldID(index: id.index1, generation: id.generation)
        if description.region != .infinite {
            do {
                try setRegion(description.region, of: made)
            } catch {
                _ = dkWorld_DestroyField(raw, id, nil)
                throw error
            }
        }
        return made
    }

    func setField(_ id: FieldID, _ description: FieldDescription) throws(DynamicsError) {
        var def = try description.kernelDef()
        var error = dkError()
        let result = dkWorld_SetField(raw, id.kernel, &def, &error)
        if result == dkResultStaleId { throw .staleField(id) }
        try check(result, error)
    }

    func setRegion(_ region: Region, of id: FieldID) throws(DynamicsError) {
        let program = region.kernelProgram
        var error = dkError()
        let result = program.withUnsafeBufferPointer {
            dkWorld_SetFieldRegion(raw, id.kernel, $0.baseAddress, Int32($0.count), &error)
        }
        if result == dkResultStaleId { throw .staleField(id) }
        try check(result, error)
    }

    func removeField(_ id: FieldID) throws(DynamicsError) {
        if dkWorld_DestroyField(raw, id.kernel, nil) == dkResultStaleId { throw .staleField(id) }
    }

    func setFieldMembers(_ id: FieldID, items: [ItemID], member: Bool) throws(DynamicsError) {
        let kids = items.map(kernelID)
        var error = dkError()
        let result = kids.withUnsafeBufferPointer {
            dkWorld_SetFieldMembers(raw, id.kernel, $0.baseAddress, Int32($0.count), member, &error)
        }
        if result == dkResultStaleId && error.index < 0 { throw .staleField(id) }
        try check(result, error, ids: items)
    }

    func isFieldMember(_ id: FieldID, item: ItemID) -> Bool { dkWorld_IsFieldMember(raw, id.kernel, kernelID(item)) }
    var fieldCount: Int { Int(dkWorld_FieldCount(raw)) }
    func setCustomFieldForces(_ enabled: Bool) { dkWorld_SetCustomFieldForces(raw, enabled) }
}

extension FieldID {
    var kernel: dkFieldId { dkFieldId(index1: index, generation: generation) }
}

extension FieldKind {
    var kernel: dkFieldKind {
        switch self {
        case .linearGravity: dkFieldLinearGravity
        case .radialGravity: dkFieldRadialGravity
        case .spring: dkFieldSpring
        case .drag: dkFieldDrag
        case .velocity: dkFieldVelocity
        case .noise: dkFieldNoise
        case .turbulence: dkFieldTurbulence
        case .electric: dkFieldElectric
        case .magnetic: dkFieldMagnetic
        case .vortex: dkFieldVortex
        }
    }
}

extension FieldDescription {
    /// The kernel's definition; values that do not fit a Float throw naming the property.
    func kernelDef() throws(DynamicsError) -> dkFieldDef {
        func float(_ v: CGFloat, _ field: String) throws(DynamicsError) -> Float {
            guard v.isFinite, abs(v) <= CGFloat(Float.greatestFiniteMagnitude) else {
                throw .invalidValue(field: field, value: Double(v), index: nil)
            }
            return Float(v)
        }
        var d = dkDefaultFieldDef(kind.kernel)
        (d.positionX, d.positionY) = (try float(position.x, "position.x"), try float(position.y, "position.y"))
        d.strength = try float(strength, "strength")
        d.falloff = try float(falloff, "falloff")
        d.minimumRadius = try float(minimumRadius, "minimumRadius")
        (d.directionX, d.directionY) = (try float(direction.dx, "direction.dx"), try float(direction.dy, "direction.dy"))
        d.smoothness = try float(smoothness, "smoothness")
        d.animationSpeed = try float(animationSpeed, "animationSpeed")
        return d
    }
}
