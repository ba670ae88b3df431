// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

extension SceneRun {
    /// Applies one timeline event.
    func apply(_ event: SceneEvent) throws(DynamicsError) {
        switch event.action {
        case .velocity(let targets, let linear, let angular):
            let ids = indices(of: targets).map { itemIDs[$0] }
            try world.setVelocities(Array(repeating: linear, count: ids.count), angular: Array(repeating: angular, count: ids.count),
                                    for: ids)
        case .drive(let item, let center, let angle):
            guard let k = index[item] else { return }
            try world.drive([itemIDs[k]], to: [center], angles: angle.map { [$0] })
        case .add(let behavior):
            try add(behavior)
            try applyAggregates()
        case .remove(let id):
            if let k = live.firstIndex(where: { $0.behavior.id == id }) {
                try remove(at: k)
                try applyAggregates()
            } else if let k = collisionIndex.removeValue(forKey: id) {
                try removeCollision(k)
            } else {
                try removeInstance(id)
            }
        case .make(let template, let instance, let origin):
            guard let t = templates[template] else { return }
            // The k-th repetition: the j-th name and origin, j = k or k modulo the cycle.
            let j = event.repeatCycle.map { event.occurrence % $0 } ?? event.occurrence
            let name = event.repeating == nil ? instance : "\(instance)-\(j)"
            let at = CGPoint(x: origin.x + CGFloat(j) * event.repeatShift.dx, y: origin.y + CGFloat(j) * event.repeatShift.dy)
            try make(t, instance: name, origin: at)
        case .set(let id, let property, let value):
            guard let k = live.firstIndex(where: { $0.behavior.id == id }) else { return }
            try set(property, to: value, of: k)
            try applyAggregates()
        }
    }

    /// Sets a property of live behaviour k (the reader checked the property and the value's type).
    func set(_ name: String, to value: SceneValue, of k: Int) throws(DynamicsError) {
        let uikit = ["gravityDirection": "direction", "pushDirection": "vector", "anchorPoint": "anchor", "snapPoint": "point"]
        let property = uikit[name] ?? name
        var number: CGFloat = 0, pair = CGVector(dx: 0, dy: 0), flag = false
        switch value {
        case .number(let x): number = x
        case .bool(let b): flag = b
        case .array(let v): if case .number(let x) = v.first, case .number(let y) = v.last { pair = CGVector(dx: x, dy: y) }
        default: break
        }
        let point = CGPoint(x: pair.dx, y: pair.dy)
        var entry = live[k]
        switch entry.behavior.kind {
        case .gravity(var direction, let targets):
            Self.setDirection(&direction, property, number: number, pair: pair)
            entry.behavior.kind = .gravity(direction: direction, targets: targets)
        case .push(var p):
            switch property {
            case "active": p.active = flag
            case "offset": p.offset = Offset(horizontal: pair.dx, vertical: pair.dy)
            default: Self.setDirection(&p.vector, property == "vector" ? "direction" : property, number: number, pair: pair)
            }
            if p.instantaneous && p.active {
                try world.applyImpulse(p.vector, at: p.offset, for: indices(of: p.targets).map { itemIDs[$0] })
                p.active = false
            }
            entry.behavior.kind = .push(p)
        case .snap(let item, var target, var ratio, let frequency):
            switch property {
            case "point": target = point
            case "damping": ratio = 0.05 + 0.95 * number
            default: ratio = number
            }
            try world.setSnap(to: target, frequency: frequency, dampingRatio: ratio, for: [itemIDs[index[item]!]])
            entry.behavior.kind = .snap(item: item, point: target, dampingRatio: ratio, frequency: frequency)
        case .attachment(var a):
            guard let id = entry.attachment else { break }
            if property == "anchor" {
                if a.other == nil { try world.moveAnchor(of: id, to: point) }
                a.anchor = point
            } else {
                if property == "length" { entry.length = number }
                a.kind = Self.updated(a.kind, property, number)
                try world.updateAttachment(id, to: a.kind, length: entry.length)
            }
            entry.behavior.kind = .attachment(a)
        case .item(var b):
            switch property {
            case "density": b.density = number
            case "elasticity": b.elasticity = number
            case "friction": b.friction = number
            case "resistance": b.resistance = number
            case "angularResistance": b.angularResistance = number
            case "charge": b.charge = number
            case "anchored": b.anchored = flag
            case "kinematic": b.kinematic = flag
            default: b.allowsRotation = flag
            }
            entry.behavior.kind = .item(b)
        case .field(var f):
            switch property {
            case "strength": f.description.strength = number
            case "position": f.description.position = point
            case "falloff": f.description.falloff = number
            case "minimumRadius": f.description.minimumRadius = number
            case "direction": f.description.direction = pair
            case "smoothness": f.description.smoothness = number
            default: f.description.animationSpeed = number
            }
            if let id = entry.field { try world.updateField(id, f.resolved) }
            entry.behavior.kind = .field(f)
        case .collision:
            break
        }
        live[k] = entry
    }

    /// A direction's vector, angle or magnitude set as UIKit's gravity and push do.
    static func setDirection(_ v: inout CGVector, _ property: String, number: CGFloat, pair: CGVector) {
        let angle = atan2(v.dy, v.dx), magnitude = hypot(v.dx, v.dy)
        switch property {
        case "angle": v = CGVector(dx: magnitude * cos(number), dy: magnitude * sin(number))
        case "magnitude": v = CGVector(dx: number * cos(angle), dy: number * sin(angle))
        default: v = pair
        }
    }

    /// An attachment kind with its length, frequency or damping changed.
    static func updated(_ kind: AttachmentKind, _ property: String, _ x: CGFloat) -> AttachmentKind {
        switch kind {
        case .rod(let length, let frequency, let damping):
            return .rod(length: property == "length" ? x : length, frequency: property == "frequency" ? x : frequency,
                        damping: property == "damping" ? x : damping)
        case .rope(let length): return .rope(length: property == "length" ? x : length)
        case .weld(let frequency, let damping):
            return .weld(frequency: property == "frequency" ? x : frequency, damping: property == "damping" ? x : damping)
        case .pin(let range, let friction, var motor, var spring):
            // A pin without a motor takes an unlimited one; a rest angle moves only a spring it has.
            if property == "motorSpeed" { motor = AttachmentMotor(speed: x, maximumTorque: motor?.maximumTorque ?? .infinity) }
            if property == "restAngle" { spring?.restAngle = x }
            return .pin(range: range, frictionTorque: friction, motor: motor, spring: spring)
        case .slider(let axis, let range, let motor):
            guard property == "motorSpeed" else { return kind }
            return .slider(axis: axis, range: range, motor: SliderMotor(speed: x, maximumForce: motor?.maximumForce ?? .infinity))
        }
    }
}
