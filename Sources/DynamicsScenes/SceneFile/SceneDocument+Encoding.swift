// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

extension SceneDocument {
    /// The document as a scene file's value tree: reading it back gives an equal document.
    public var value: SceneValue {
        var top: [String: SceneValue] = ["format": .string(Self.format)]
        if let name { top["name"] = .string(name) }
        if let summary { top["description"] = .string(summary) }
        if let b = bounds {
            top["bounds"] = .object(["x": .number(b.minX), "y": .number(b.minY), "width": .number(b.width), "height": .number(b.height)])
        }
        top["configuration"] = configuration.value
        if !items.isEmpty { top["items"] = .array(items.map(\.value)) }
        if !generators.isEmpty { top["generators"] = .array(generators.map(\.value)) }
        if !behaviors.isEmpty { top["behaviors"] = .array(behaviors.map(\.value)) }
        if !templates.isEmpty { top["templates"] = .array(templates.map(\.value)) }
        if !timeline.isEmpty { top["timeline"] = .array(timeline.map(\.value)) }
        if !regions.isEmpty { top["regions"] = .array(regions.map(\.value)) }
        return .object(top)
    }

    /// The document as JSON text (``SceneValue/text``).
    public var json: String { value.text }
}

extension SceneValue {
    static func pair(_ a: CGFloat, _ b: CGFloat) -> SceneValue { .array([.number(a), .number(b)]) }
    static func strings(_ s: [String]) -> SceneValue { .array(s.map { .string($0) }) }
}

extension SceneConfiguration {
    var value: SceneValue {
        var o: [String: SceneValue] = [
            "stepsPerSecond": .number(stepsPerSecond), "substeps": .number(Double(substeps)),
            "adaptiveSubsteps": .bool(adaptiveSubsteps),
            "contactFrequency": .number(contactFrequency), "solverIterations": .number(Double(solverIterations)),
            "seed": .number(Double(seed)), "duration": .number(duration), "rest": .bool(rest), "simd": .string(simd),
        ]
        if let workers { o["workers"] = .number(Double(workers)) }
        return .object(o)
    }
}

extension SceneShape {
    var value: SceneValue {
        switch self {
        case .rectangle(let w, let h): .object(["type": .string("rectangle"), "width": .number(w), "height": .number(h)])
        case .ellipse(let w, let h) where w == h: .object(["type": .string("circle"), "radius": .number(w / 2)])
        case .ellipse(let w, let h): .object(["type": .string("ellipse"), "width": .number(w), "height": .number(h)])
        case .polygon(let points): .object(["type": .string("polygon"), "points": .array(points.map { .pair($0.x, $0.y) })])
        case .capsule(let w, let h): .object(["type": .string("capsule"), "width": .number(w), "height": .number(h)])
        case .roundedRectangle(let w, let h, let r):
            .object(["type": .string("roundedRectangle"), "width": .number(w), "height": .number(h), "radius": .number(r)])
        case .roundedPolygon(let points, let r):
            .object(["type": .string("polygon"), "points": .array(points.map { .pair($0.x, $0.y) }), "radius": .number(r)])
        case .group(let parts):
            .object(["type": .string("group"), "parts": .array(parts.map { part in
                var o: [String: SceneValue] = ["shape": part.shape.value, "offset": .pair(part.offset.x, part.offset.y)]
                if part.angle != 0 { o["angle"] = .number(part.angle) }
                return .object(o)
            })])
        }
    }
}

extension SceneMaterial {
    /// The properties that differ from the defaults (nil when none do).
    var value: SceneValue? {
        let d = SceneMaterial()
        var o: [String: SceneValue] = [:]
        if density != d.density { o["density"] = .number(density) }
        if elasticity != d.elasticity { o["elasticity"] = .number(elasticity) }
        if friction != d.friction { o["friction"] = .number(friction) }
        if resistance != d.resistance { o["resistance"] = .number(resistance) }
        if angularResistance != d.angularResistance { o["angularResistance"] = .number(angularResistance) }
        if charge != d.charge { o["charge"] = .number(charge) }
        if anchored != d.anchored { o["anchored"] = .bool(anchored) }
        if allowsRotation != d.allowsRotation { o["allowsRotation"] = .bool(allowsRotation) }
        if kinematic != d.kinematic { o["kinematic"] = .bool(kinematic) }
        return o.isEmpty ? nil : .object(o)
    }
}

extension SceneItem {
    var value: SceneValue {
        var o: [String: SceneValue] = ["id": .string(id), "shape": shape.value, "center": .pair(center.x, center.y)]
        if angle != 0 { o["angle"] = .number(angle) }
        if velocity != CGVector(dx: 0, dy: 0) { o["velocity"] = .pair(velocity.dx, velocity.dy) }
        if angularVelocity != 0 { o["angularVelocity"] = .number(angularVelocity) }
        if let m = material.value { o["material"] = m }
        if !tags.isEmpty { o["tags"] = .strings(tags) }
        if resting { o["resting"] = .bool(true) }
        if exclusionGroup != 0 { o["exclusionGroup"] = .number(Double(exclusionGroup)) }
        return .object(o)
    }
}

extension SceneTemplate {
    var value: SceneValue {
        var o: [String: SceneValue] = ["id": .string(id)]
        if !items.isEmpty || generators.isEmpty { o["items"] = .array(items.map(\.value)) }
        if !generators.isEmpty { o["generators"] = .array(generators.map(\.value)) }
        if !attachments.isEmpty {
            o["attachments"] = .array(attachments.map { a in
                guard case .object(var fields) = SceneBehavior(.attachment(a)).value else { return .null }
                fields["type"] = nil
                return .object(fields)
            })
        }
        if !tags.isEmpty { o["tags"] = .strings(tags) }
        return .object(o)
    }
}

extension SceneGenerator {
    var value: SceneValue {
        var o: [String: SceneValue] = ["id": .string(id), "count": .number(Double(count)), "shape": shape.value]
        switch layout {
        case .grid(let origin, let columns, let spacing):
            o["type"] = .string("grid")
            o["origin"] = .pair(origin.x, origin.y)
            o["columns"] = .number(Double(columns))
            o["spacing"] = .pair(spacing.dx, spacing.dy)
        case .random(let rect, let minSize, let maxSize, let seed):
            o["type"] = .string("random")
            o["rect"] = .object(["x": .number(rect.minX), "y": .number(rect.minY), "width": .number(rect.width),
                                 "height": .number(rect.height)])
            o["minSize"] = .pair(minSize.width, minSize.height)
            o["maxSize"] = .pair(maxSize.width, maxSize.height)
            o["seed"] = .number(Double(seed))
        }
        if let m = material.value { o["material"] = m }
        if !tags.isEmpty { o["tags"] = .strings(tags) }
        if angle != 0 { o["angle"] = .number(angle) }
        if resting { o["resting"] = .bool(true) }
        return .object(o)
    }
}

extension SceneTargets {
    func write(into o: inout [String: SceneValue]) {
        if !items.isEmpty { o["items"] = .strings(items) }
        if !tags.isEmpty { o["tags"] = .strings(tags) }
    }
}

extension SceneNamedRegion {
    var value: SceneValue {
        var o: [String: SceneValue] = ["id": .string(id)]
        switch shape {
        case .rectangle(let r):
            o["rectangle"] = .object(["x": .number(r.minX), "y": .number(r.minY), "width": .number(r.width), "height": .number(r.height)])
        case .circle(let c, let radius): o["circle"] = .object(["center": .pair(c.x, c.y), "radius": .number(radius)])
        case .path(let points): o["path"] = .array(points.map { .pair($0.x, $0.y) })
        }
        return .object(o)
    }
}

extension SceneRegion {
    var value: SceneValue {
        switch self {
        case .infinite: .string("infinite")
        case .disc(let r): .object(["radius": .number(r)])
        case .rectangle(let w, let h): .object(["size": .pair(w, h)])
        case .inverse(let a): .object(["inverse": a.value])
        case .union(let a, let b): .object(["union": .array([a.value, b.value])])
        case .intersection(let a, let b): .object(["intersection": .array([a.value, b.value])])
        case .difference(let a, let b): .object(["difference": .array([a.value, b.value])])
        }
    }
}

extension SceneBehavior {
    var value: SceneValue {
        var o: [String: SceneValue] = ["type": .string(SceneDocument.typeName(kind))]
        if let id { o["id"] = .string(id) }
        switch kind {
        case .gravity(let direction, let targets):
            o["direction"] = .pair(direction.dx, direction.dy)
            targets.write(into: &o)
        case .collision(let c):
            c.targets.write(into: &o)
            o["mode"] = .string(c.mode.rawValue)
            if c.boundsAsBoundary { o["boundsAsBoundary"] = .bool(true) }
            if c.insets != EdgeInsets(top: 0, left: 0, bottom: 0, right: 0) {
                o["insets"] = .object(["top": .number(c.insets.top), "left": .number(c.insets.left),
                                       "bottom": .number(c.insets.bottom), "right": .number(c.insets.right)])
            }
            if !c.boundaries.isEmpty { o["boundaries"] = .array(c.boundaries.map(\.value)) }
        case .attachment(let a):
            o["item"] = .string(a.item)
            if let other = a.other { o["to"] = .string(other) }
            o["anchor"] = .pair(a.anchor.x, a.anchor.y)
            if let p = a.itemAnchor { o["itemAnchor"] = .pair(p.x, p.y) }
            if a.collide { o["collide"] = .bool(true) }
            func range(_ r: FloatRange) { if !r.isInfinite { o["range"] = .pair(r.minimum, r.maximum) } }
            switch a.kind {
            case .rod(let length, let frequency, let damping):
                o["kind"] = .string("rod")
                if let length { o["length"] = .number(length) }
                if frequency != 0 { o["frequency"] = .number(frequency) }
                if damping != 0 { o["damping"] = .number(damping) }
            case .rope(let length):
                o["kind"] = .string("rope")
                if let length { o["length"] = .number(length) }
            case .weld(let frequency, let damping):
                o["kind"] = .string("weld")
                if frequency != 0 { o["frequency"] = .number(frequency) }
                if damping != 0 { o["damping"] = .number(damping) }
            case .pin(let r, let friction, let motor, let spring):
                o["kind"] = .string("pin")
                range(r)
                if friction != 0 { o["frictionTorque"] = .number(friction) }
                if let motor {
                    o["motorSpeed"] = .number(motor.speed)
                    if motor.maximumTorque.isFinite { o["maximumMotorTorque"] = .number(motor.maximumTorque) }
                }
                if let spring {
                    o["angularFrequency"] = .number(spring.frequency)
                    if spring.damping != 0 { o["angularDamping"] = .number(spring.damping) }
                    if spring.restAngle != 0 { o["restAngle"] = .number(spring.restAngle) }
                }
            case .slider(let axis, let r, let motor):
                o["kind"] = .string("slider")
                o["axis"] = .pair(axis.dx, axis.dy)
                range(r)
                if let motor {
                    o["motorSpeed"] = .number(motor.speed)
                    if motor.maximumForce.isFinite { o["maximumMotorForce"] = .number(motor.maximumForce) }
                }
            }
        case .snap(let item, let point, let ratio, let frequency):
            o["item"] = .string(item)
            o["point"] = .pair(point.x, point.y)
            o["dampingRatio"] = .number(ratio)
            o["frequency"] = .number(frequency)
        case .push(let p):
            p.targets.write(into: &o)
            o["mode"] = .string(p.instantaneous ? "instantaneous" : "continuous")
            o["vector"] = .pair(p.vector.dx, p.vector.dy)
            if p.offset != .zero { o["offset"] = .pair(p.offset.horizontal, p.offset.vertical) }
            if !p.active { o["active"] = .bool(false) }
        case .item(let b):
            b.targets.write(into: &o)
            for (key, x) in [("density", b.density), ("elasticity", b.elasticity), ("friction", b.friction),
                             ("resistance", b.resistance), ("angularResistance", b.angularResistance), ("charge", b.charge)]
            {
                if let x { o[key] = .number(x) }
            }
            if let x = b.anchored { o["anchored"] = .bool(x) }
            if let x = b.allowsRotation { o["allowsRotation"] = .bool(x) }
            if let x = b.kinematic { o["kinematic"] = .bool(x) }
        case .field(let f):
            f.targets.write(into: &o)
            let d = f.description, base = FieldDescription(kind: d.kind)
            o["kind"] = .string(String(describing: d.kind))
            if d.position != base.position { o["position"] = .pair(d.position.x, d.position.y) }
            if f.region != .infinite { o["region"] = f.region.value }
            if d.strength != base.strength { o["strength"] = .number(d.strength) }
            if d.falloff != base.falloff { o["falloff"] = .number(d.falloff) }
            if d.minimumRadius != base.minimumRadius { o["minimumRadius"] = .number(d.minimumRadius) }
            if d.direction != base.direction { o["direction"] = .pair(d.direction.dx, d.direction.dy) }
            if d.smoothness != base.smoothness { o["smoothness"] = .number(d.smoothness) }
            if d.animationSpeed != base.animationSpeed { o["animationSpeed"] = .number(d.animationSpeed) }
        }
        return .object(o)
    }
}

extension SceneCollision.Boundary {
    var value: SceneValue {
        var o: [String: SceneValue] = ["id": .string(id)]
        switch shape {
        case .segment(let from, let to):
            o["type"] = .string("segment")
            o["from"] = .pair(from.x, from.y)
            o["to"] = .pair(to.x, to.y)
        case .path(let points, let closed):
            o["type"] = .string("path")
            o["points"] = .array(points.map { .pair($0.x, $0.y) })
            if closed { o["closed"] = .bool(true) }
        case .arc(let center, let radius, let start, let end, let clockwise):
            o["type"] = .string("arc")
            o["center"] = .pair(center.x, center.y)
            o["radius"] = .number(radius)
            o["startAngle"] = .number(start)
            o["endAngle"] = .number(end)
            o["clockwise"] = .bool(clockwise)
        }
        return .object(o)
    }
}

extension SceneEvent {
    var value: SceneValue {
        var o: [String: SceneValue] = ["time": .number(time)]
        switch action {
        case .set(let behavior, let property, let value):
            o["set"] = .object(["behavior": .string(behavior), "property": .string(property), "value": value])
        case .velocity(let targets, let linear, let angular):
            var v: [String: SceneValue] = ["linear": .pair(linear.dx, linear.dy)]
            if angular != 0 { v["angular"] = .number(angular) }
            targets.write(into: &v)
            o["velocity"] = .object(v)
        case .drive(let item, let center, let angle):
            var d: [String: SceneValue] = ["item": .string(item), "center": .pair(center.x, center.y)]
            if let angle { d["angle"] = .number(angle) }
            o["drive"] = .object(d)
        case .add(let b): o["add"] = b.value
        case .remove(let id): o["remove"] = .string(id)
        case .make(let template, let instance, let origin):
            var m: [String: SceneValue] = ["template": .string(template), "instance": .string(instance)]
            if origin != .zero { m["origin"] = .pair(origin.x, origin.y) }
            o["make"] = .object(m)
        }
        if let (every, count) = repeating {
            var r: [String: SceneValue] = ["every": .number(every)]
            if let count { r["count"] = .number(Double(count)) }
            if repeatShift != CGVector(dx: 0, dy: 0) { r["shift"] = .pair(repeatShift.dx, repeatShift.dy) }
            if let repeatCycle { r["cycle"] = .number(Double(repeatCycle)) }
            o["repeat"] = .object(r)
        }
        return .object(o)
    }
}
