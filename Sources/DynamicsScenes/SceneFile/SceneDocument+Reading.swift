// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

extension SceneDocument {
    static let topKeys = ["format", "name", "description", "bounds", "configuration", "items", "generators", "behaviors",
                          "templates", "timeline", "regions"]
    static let configurationKeys = ["stepsPerSecond", "substeps", "adaptiveSubsteps", "contactFrequency", "solverIterations", "workers", "seed",
                                    "duration", "rest", "simd"]
    static let materialKeys = ["density", "elasticity", "friction", "resistance", "angularResistance", "charge", "anchored",
                               "allowsRotation", "kinematic"]
    static let behaviorKinds = ["gravity", "collision", "attachment", "snap", "push", "item", "field"]

    /// Reads a document from its value tree. Returns the document when there is no error, and every
    /// problem found (warnings too).
    static func read(_ value: SceneValue, limits: SceneLimits) -> (SceneDocument?, [SceneProblem]) {
        let reader = SceneReader()
        var document = SceneDocument()
        guard let top = reader.object(value, at: "", keys: topKeys) else { return (nil, reader.problems) }
        if let format = top.string("format", required: true), format != SceneDocument.format {
            reader.error(top.at("format"), "must be '\(SceneDocument.format)', got '\(format)'")
        }
        document.name = top.string("name")
        document.summary = top.string("description")
        document.bounds = top.rect("bounds")
        if let c = top.object("configuration", keys: configurationKeys) { document.configuration = readConfiguration(c) }
        if let value = top.value("items"), let values = reader.array(value, at: top.at("items")) {
            guard values.count <= limits.items else {
                reader.error(top.at("items"), "has \(values.count) items, more than the limit of \(limits.items)")
                return (nil, reader.problems)
            }
            document.items = values.enumerated().compactMap { k, v in
                readItem(v, at: SceneReader.path(top.at("items"), k), reader: reader)
            }
        }
        if let value = top.value("generators"), let values = reader.array(value, at: top.at("generators")) {
            document.generators = values.enumerated().compactMap { k, v in
                readGenerator(v, at: SceneReader.path(top.at("generators"), k), reader: reader)
            }
        }
        if let value = top.value("behaviors"), let values = reader.array(value, at: top.at("behaviors")) {
            for (k, v) in values.enumerated() {
                let path = SceneReader.path(top.at("behaviors"), k)
                if let b = readBehavior(v, at: path, reader: reader) {
                    document.behaviors.append(b)
                    reader.behaviorPaths.append(path)
                }
            }
        }
        if let value = top.value("templates"), let values = reader.array(value, at: top.at("templates")) {
            document.templates = values.enumerated().compactMap { k, v in
                readTemplate(v, at: SceneReader.path(top.at("templates"), k), reader: reader, seed: document.configuration.seed,
                             limits: limits)
            }
        }
        if let value = top.value("timeline"), let values = reader.array(value, at: top.at("timeline")) {
            for (k, v) in values.enumerated() {
                let path = SceneReader.path(top.at("timeline"), k)
                if let e = readEvent(v, at: path, reader: reader) {
                    document.timeline.append(e)
                    reader.eventPaths.append(path)
                }
            }
        }
        if let value = top.value("regions"), let values = reader.array(value, at: top.at("regions")) {
            var seen = Set<String>()
            for (k, v) in values.enumerated() {
                let path = SceneReader.path(top.at("regions"), k)
                guard let region = readNamedRegion(v, at: path, reader: reader) else { continue }
                if !seen.insert(region.id).inserted {
                    reader.error(path + "/id", "'\(region.id)' names another region already")
                    continue
                }
                document.regions.append(region)
            }
        }
        document.check(reader: reader, limits: limits)
        if !reader.hasErrors {
            do {
                document.warnOverlaps(reader: reader, generated: try document.generatedItems())
            } catch {
                reader.error("/generators/\(error.generator)", error.description)
            }
        }
        return (reader.hasErrors ? nil : document, reader.problems)
    }

    static func readConfiguration(_ c: SceneObject) -> SceneConfiguration {
        var out = SceneConfiguration()
        if let x = c.number("stepsPerSecond", minimum: 1, maximum: 100_000) { out.stepsPerSecond = x }
        if let x = c.integer("substeps", minimum: 1, maximum: 64) { out.substeps = x }
        if let x = c.bool("adaptiveSubsteps") { out.adaptiveSubsteps = x }
        if let x = c.number("contactFrequency", above: 0) { out.contactFrequency = x }
        if let x = c.integer("solverIterations", minimum: 1, maximum: 8) { out.solverIterations = x }
        if let x = c.integer("workers", minimum: 1, maximum: 64) { out.workers = x }
        if let x = c.integer("seed", minimum: 0, maximum: Int(1 << 53)) { out.seed = UInt64(x) }
        if let x = c.number("duration", maximum: 1e6, above: 0) { out.duration = x }
        if let x = c.bool("rest") { out.rest = x }
        if let x = c.choice("simd", ["automatic", "scalar", "sse2", "neon", "avx2", "avx512"]) { out.simd = x }
        return out
    }

    static func readShape(_ value: SceneValue, at path: String, reader: SceneReader, inGroup: Bool = false) -> SceneShape? {
        guard case .object(let fields) = value else {
            reader.error(path, "must be an object with a 'type' (rectangle, ellipse, circle, polygon, hull, capsule, roundedRectangle, group), got \(value.kindName)")
            return nil
        }
        let type = SceneObject(fields: fields, path: path, reader: reader)
            .choice("type", ["rectangle", "ellipse", "circle", "polygon", "hull", "capsule", "roundedRectangle"] + (inGroup ? [] : ["group"]),
                    required: true)
        switch type {
        case "rectangle", "ellipse":
            guard let o = reader.object(value, at: path, keys: ["type", "width", "height"]) else { return nil }
            let w = o.number("width", required: true, maximum: 1e7, above: 0)
            let h = o.number("height", required: true, maximum: 1e7, above: 0)
            guard let w, let h else { return nil }
            return type == "rectangle" ? .rectangle(width: w, height: h) : .ellipse(width: w, height: h)
        case "circle":
            guard let o = reader.object(value, at: path, keys: ["type", "radius"]),
                  let r = o.number("radius", required: true, maximum: 1e7, above: 0)
            else { return nil }
            return .ellipse(width: 2 * r, height: 2 * r)
        case "capsule": // beyond UIKit
            guard let o = reader.object(value, at: path, keys: ["type", "width", "height"]) else { return nil }
            let w = o.number("width", required: true, maximum: 1e7, above: 0)
            let h = o.number("height", required: true, maximum: 1e7, above: 0)
            guard let w, let h else { return nil }
            return .capsule(width: w, height: h)
        case "roundedRectangle": // beyond UIKit
            guard let o = reader.object(value, at: path, keys: ["type", "width", "height", "radius"]) else { return nil }
            let w = o.number("width", required: true, maximum: 1e7, above: 0)
            let h = o.number("height", required: true, maximum: 1e7, above: 0)
            let r = o.number("radius", required: true, minimum: 0, maximum: 1e7)
            guard let w, let h, let r else { return nil }
            guard r <= min(w, h) / 2 else {
                reader.error(o.at("radius"), "must be at most half the shorter side (\(min(w, h) / 2)), got \(r)")
                return nil
            }
            return .roundedRectangle(width: w, height: h, radius: r)
        case "polygon", "hull": // a hull: beyond UIKit, the convex polygon around the points, read as that polygon
            guard let o = reader.object(value, at: path, keys: ["type", "points", "radius"]),
                  let points = o.points("points", required: true)
            else { return nil }
            let radius = o.number("radius", minimum: 0, maximum: 1e7) ?? 0 // beyond UIKit: rounded corners
            var corners = points
            if type == "hull" {
                do {
                    guard case .polygon(let hull) = try CollisionShape.hull(of: points) else { return nil }
                    corners = hull
                } catch {
                    reader.error(o.at("points"), "has no convex hull: \(error)")
                    return nil
                }
            } else if let problem = SceneGeometry.convexityProblem(points) {
                reader.error(o.at("points"), problem)
                return nil
            }
            return radius > 0 ? .roundedPolygon(corners, radius: radius) : .polygon(corners)
        case "group":
            guard let o = reader.object(value, at: path, keys: ["type", "parts"]),
                  let list = o.value("parts", required: true), let values = reader.array(list, at: o.at("parts"))
            else { return nil }
            guard (1...64).contains(values.count) else {
                reader.error(o.at("parts"), "a group needs 1 to 64 parts, got \(values.count)")
                return nil
            }
            var parts: [SceneShapePart] = []
            for (k, v) in values.enumerated() {
                let at = SceneReader.path(o.at("parts"), k)
                guard let p = reader.object(v, at: at, keys: ["shape", "offset", "angle"]) else { continue }
                let shape = p.value("shape", required: true).flatMap { readShape($0, at: p.at("shape"), reader: reader, inGroup: true) }
                let offset = p.point("offset") ?? .zero, angle = p.number("angle") ?? 0
                if let shape { parts.append(SceneShapePart(shape: shape, offset: offset, angle: angle)) }
            }
            return parts.count == values.count ? .group(parts) : nil
        default:
            return nil
        }
    }

    static func readMaterial(_ o: SceneObject, into m: inout SceneMaterial) {
        if let x = o.number("density", maximum: 1e6, above: 1e-6) { m.density = x }
        if let x = o.number("elasticity", minimum: 0, maximum: 1) { m.elasticity = x }
        if let x = o.number("friction", minimum: 0, maximum: 1e6) { m.friction = x }
        if let x = o.number("resistance", minimum: 0, maximum: 1e6) { m.resistance = x }
        if let x = o.number("angularResistance", minimum: 0, maximum: 1e6) { m.angularResistance = x }
        if let x = o.number("charge", minimum: -1e6, maximum: 1e6) { m.charge = x }
        if let x = o.bool("anchored") { m.anchored = x }
        if let x = o.bool("allowsRotation") { m.allowsRotation = x }
        if let x = o.bool("kinematic") { m.kinematic = x }
        if o.bool("anchored") == true && o.bool("kinematic") == true {
            o.reader.error(o.at("kinematic"), "an item is anchored or kinematic, not both")
        }
    }

    /// Reads an item; `declare` false for a template's, whose ids are its own.
    static func readItem(_ value: SceneValue, at path: String, reader: SceneReader, declare: Bool = true) -> SceneItem? {
        guard let o = reader.object(value, at: path, keys: ["id", "shape", "center", "angle", "velocity", "angularVelocity",
                                                            "material", "tags", "resting", "exclusionGroup"])
        else { return nil }
        let id = o.string("id", required: true)
        if let id, declare { reader.declaredItems.append((id, o.at("id"))) }
        let shape = o.value("shape", required: true).flatMap { readShape($0, at: o.at("shape"), reader: reader) }
        let center = o.point("center", required: true)
        let angle = o.number("angle"), velocity = o.vector("velocity"), angularVelocity = o.number("angularVelocity")
        var material = SceneMaterial()
        if let m = o.object("material", keys: materialKeys) { readMaterial(m, into: &material) }
        let tags = o.strings("tags")
        reader.declaredTags.formUnion(tags ?? [])
        guard let id, let shape, let center else { return nil }
        var item = SceneItem(id: id, shape: shape, center: center)
        if let angle { item.angle = angle }
        if let velocity { item.velocity = velocity }
        if let angularVelocity { item.angularVelocity = angularVelocity }
        item.material = material
        if let tags { item.tags = tags }
        if let resting = o.bool("resting") { item.resting = resting }
        if let group = o.integer("exclusionGroup", minimum: Int(Int32.min), maximum: Int(Int32.max)) { item.exclusionGroup = group }
        return item
    }

    /// Reads a generator; `declare` false for a template's, whose items are made by the timeline.
    static func readGenerator(_ value: SceneValue, at path: String, reader: SceneReader, declare: Bool = true) -> SceneGenerator? {
        guard case .object(let fields) = value else {
            reader.error(path, "must be an object, got \(value.kindName)")
            return nil
        }
        let type = SceneObject(fields: fields, path: path, reader: reader).choice("type", ["grid", "random"], required: true)
        let common = ["type", "id", "count", "shape", "material", "tags", "angle", "resting"]
        let keys = type == "grid" ? common + ["origin", "columns", "spacing"] : common + ["rect", "minSize", "maxSize", "seed"]
        guard let type, let o = reader.object(value, at: path, keys: keys) else { return nil }
        let id = o.string("id", required: true)
        let count = o.integer("count", required: true, minimum: 1, maximum: 100_000_000)
        if let id, declare { reader.declaredGenerators.append((id, count ?? 0)) }
        let shape = o.value("shape", required: true).flatMap { readShape($0, at: o.at("shape"), reader: reader) }
        var layout: SceneGenerator.Layout?
        if type == "grid" {
            let origin = o.point("origin") ?? .zero
            let columns = o.integer("columns", minimum: 1, maximum: 100_000_000)
            let spacing = o.vector("spacing", required: true)
            if let spacing, let count {
                layout = .grid(origin: origin, columns: columns ?? max(1, Int(Double(count).squareRoot().rounded(.up))),
                               spacing: spacing)
            }
        } else {
            let rect = o.rect("rect", required: true)
            let minSize = o.pair("minSize", minimum: 1e-3), maxSize = o.pair("maxSize", minimum: 1e-3)
            let seed = o.integer("seed", minimum: 0, maximum: Int(1 << 53)) ?? 0
            if let minSize, let maxSize, minSize.0 > maxSize.0 || minSize.1 > maxSize.1 {
                reader.error(o.at("maxSize"), "must be at least minSize in each dimension")
            }
            if let rect {
                let lo = minSize.map { CGSize(width: $0.0, height: $0.1) }, hi = maxSize.map { CGSize(width: $0.0, height: $0.1) }
                // Without either size every item keeps the shape's own size.
                let own = shape?.extent ?? .zero
                layout = .random(rect: rect, minSize: lo ?? hi ?? own, maxSize: hi ?? lo ?? own, seed: UInt64(seed))
            }
        }
        var material = SceneMaterial()
        if let m = o.object("material", keys: materialKeys) { readMaterial(m, into: &material) }
        let tags = o.strings("tags"), angle = o.number("angle"), resting = o.bool("resting")
        reader.declaredTags.formUnion(tags ?? [])
        guard let id, let count, let shape, let layout else { return nil }
        var generator = SceneGenerator(id: id, count: count, layout: layout, shape: shape)
        generator.material = material
        if let tags { generator.tags = tags }
        if let angle { generator.angle = angle }
        if let resting { generator.resting = resting }
        return generator
    }

    static func readTargets(_ o: SceneObject) -> SceneTargets {
        SceneTargets(items: o.strings("items") ?? [], tags: o.strings("tags") ?? [])
    }

    /// A direction from `vector`, or from `angle` and `magnitude` (UIKit's pair), or `fallback`.
    static func readDirection(_ o: SceneObject, vectorKey: String, fallback: CGVector) -> CGVector {
        if let v = o.vector(vectorKey) {
            if o.has("angle") || o.has("magnitude") {
                o.reader.error(o.at(vectorKey), "give either '\(vectorKey)' or 'angle' and 'magnitude', not both")
            }
            return v
        }
        guard o.has("angle") || o.has("magnitude") else { return fallback }
        let angle = o.number("angle") ?? Double(atan2(fallback.dy, fallback.dx))
        let magnitude = o.number("magnitude") ?? Double(hypot(fallback.dx, fallback.dy))
        return CGVector(dx: magnitude * cos(angle), dy: magnitude * sin(angle))
    }

    static func readBehavior(_ value: SceneValue, at path: String, reader: SceneReader) -> SceneBehavior? {
        guard case .object(let fields) = value else {
            reader.error(path, "must be an object, got \(value.kindName)")
            return nil
        }
        let head = SceneObject(fields: fields, path: path, reader: reader)
        guard let type = head.choice("type", behaviorKinds, required: true) else {
            if case .string(let id) = fields["id"] { reader.declaredBehaviors.insert(id) }
            return nil
        }
        let targets = ["items", "tags"]
        let keys: [String] = switch type {
        case "gravity": targets + ["direction", "angle", "magnitude"]
        case "collision": targets + ["mode", "boundsAsBoundary", "insets", "boundaries"]
        case "attachment": attachmentKeys
        case "snap": ["item", "point", "damping", "dampingRatio", "frequency"]
        case "push": targets + ["mode", "vector", "angle", "magnitude", "offset", "active"]
        case "field": targets + ["kind", "position", "region", "strength", "falloff", "minimumRadius", "direction", "smoothness",
                                 "animationSpeed"]
        default: targets + materialKeys
        }
        guard let o = reader.object(value, at: path, keys: ["type", "id"] + keys) else { return nil }
        let id = o.string("id")
        if let id { reader.declaredBehaviors.insert(id) }
        let kind: SceneBehavior.Kind?
        switch type {
        case "gravity":
            let direction = readDirection(o, vectorKey: "direction", fallback: CGVector(dx: 0, dy: 1))
            // GravityBehavior's bound, which is the batch world's ±10⁹ pt/s².
            if !(abs(direction.dx) <= 1e6 && abs(direction.dy) <= 1e6) {
                reader.error(o.at(o.has("direction") ? "direction" : "magnitude"),
                             "must be within ±1000000 on each axis (1 is 1000 pt/s²), got [\(direction.dx), \(direction.dy)]")
            }
            kind = .gravity(direction: direction, targets: readTargets(o))
        case "collision":
            kind = readCollision(o).map { .collision($0) }
        case "attachment":
            kind = readAttachment(o).map { .attachment($0) }
        case "snap":
            let item = o.string("item", required: true), point = o.point("point", required: true)
            if o.has("damping") && o.has("dampingRatio") { reader.error(o.at("dampingRatio"), "give either 'damping' or 'dampingRatio'") }
            let ratio = o.number("dampingRatio", minimum: 0, maximum: 1e3)
                ?? o.number("damping", minimum: 0, maximum: 1e3).map { 0.05 + 0.95 * $0 } ?? 0.525
            let frequency = o.number("frequency", maximum: 1e4, above: 0) ?? 2.5
            kind = item.flatMap { item in point.map { .snap(item: item, point: $0, dampingRatio: ratio, frequency: frequency) } }
        case "push":
            var push = ScenePush()
            push.targets = readTargets(o)
            push.instantaneous = o.choice("mode", ["continuous", "instantaneous"]) == "instantaneous"
            push.vector = readDirection(o, vectorKey: "vector", fallback: CGVector(dx: 0, dy: 0))
            if let p = o.pair("offset") { push.offset = Offset(horizontal: p.0, vertical: p.1) }
            if let x = o.bool("active") { push.active = x }
            kind = .push(push)
        case "field":
            kind = readField(o).map { .field($0) }
        default:
            var b = SceneItemBehavior()
            b.targets = readTargets(o)
            var m = SceneMaterial()
            readMaterial(o, into: &m)
            if o.has("density") { b.density = m.density }
            if o.has("elasticity") { b.elasticity = m.elasticity }
            if o.has("friction") { b.friction = m.friction }
            if o.has("resistance") { b.resistance = m.resistance }
            if o.has("angularResistance") { b.angularResistance = m.angularResistance }
            if o.has("charge") { b.charge = m.charge }
            if o.has("anchored") { b.anchored = m.anchored }
            if o.has("allowsRotation") { b.allowsRotation = m.allowsRotation }
            if o.has("kinematic") { b.kinematic = m.kinematic }
            kind = .item(b)
        }
        return kind.map { SceneBehavior(id: id, $0) }
    }

    static func readField(_ o: SceneObject) -> SceneField? {
        guard let name = o.choice("kind", SceneField.kinds.keys.sorted(), required: true), let kind = SceneField.kinds[name] else {
            return nil
        }
        var f = SceneField(kind: kind)
        f.targets = readTargets(o)
        if let x = o.point("position") { f.description.position = x }
        if let x = o.number("strength") { f.description.strength = x }
        if let x = o.number("falloff", minimum: 0, maximum: 100) { f.description.falloff = x }
        if let x = o.number("minimumRadius", above: 0) { f.description.minimumRadius = x }
        if let x = o.vector("direction") { f.description.direction = x }
        if let x = o.number("smoothness", minimum: 0, maximum: 1) { f.description.smoothness = x }
        if let x = o.number("animationSpeed", minimum: 0, maximum: 1e6) { f.description.animationSpeed = x }
        if let value = o.value("region") {
            guard let region = readRegion(value, at: o.at("region"), reader: o.reader) else { return nil }
            f.region = region
        }
        return f
    }

    /// A region: "infinite", {"radius": r}, {"size": [w, h]}, {"inverse": R}, or {"union" | "intersection" |
    /// "difference": [R, R]}.
    static func readRegion(_ value: SceneValue, at path: String, reader: SceneReader) -> SceneRegion? {
        if case .string("infinite") = value { return .infinite }
        guard case .object(let fields) = value, fields.count == 1, let key = fields.keys.first else {
            reader.error(path, "must be \"infinite\" or an object with one of radius, size, inverse, union, intersection, difference")
            return nil
        }
        guard let o = reader.object(value, at: path, keys: ["radius", "size", "inverse", "union", "intersection", "difference"]) else {
            return nil
        }
        switch key {
        case "radius": return o.number("radius", maximum: 1e7, above: 0).map { .disc(radius: $0) }
        case "size": return o.pair("size", minimum: 0).map { .rectangle(width: $0.0, height: $0.1) }
        case "inverse": return readRegion(fields[key]!, at: o.at(key), reader: reader).map { .inverse($0) }
        case "union", "intersection", "difference":
            guard case .array(let parts) = fields[key]!, parts.count == 2 else {
                reader.error(o.at(key), "must be an array of two regions")
                return nil
            }
            let a = readRegion(parts[0], at: SceneReader.path(o.at(key), 0), reader: reader)
            let b = readRegion(parts[1], at: SceneReader.path(o.at(key), 1), reader: reader)
            guard let a, let b else { return nil }
            return key == "union" ? .union(a, b) : key == "intersection" ? .intersection(a, b) : .difference(a, b)
        default: return nil
        }
    }

    /// A named region: {"id": ID, and one of "rectangle": {x, y, width, height}, "circle": {"center": [x, y],
    /// "radius": r}, "path": [[x, y], …] (3 or more points)}.
    static func readNamedRegion(_ value: SceneValue, at path: String, reader: SceneReader) -> SceneNamedRegion? {
        guard let o = reader.object(value, at: path, keys: ["id", "rectangle", "circle", "path"]) else { return nil }
        let id = o.string("id", required: true)
        guard let outline = o.one(of: ["rectangle", "circle", "path"], none: "one of rectangle, circle, path",
                                  several: "a region has one outline")
        else { return nil }
        var shape: SceneNamedRegion.Shape?
        switch outline {
        case "rectangle": shape = o.rect("rectangle").map { .rectangle($0) }
        case "circle":
            if let c = o.object("circle", keys: ["center", "radius"]),
               let center = c.point("center", required: true), let radius = c.number("radius", required: true, above: 0)
            {
                shape = .circle(center: center, radius: radius)
            }
        default:
            if let points = o.points("path") {
                if points.count >= 3 { shape = .path(points) } else {
                    reader.error(o.at("path"), "must have 3 or more points, got \(points.count)")
                }
            }
        }
        guard let id, let shape else { return nil }
        if id.isEmpty { reader.error(o.at("id"), "must not be empty") }
        return id.isEmpty ? nil : SceneNamedRegion(id: id, shape: shape)
    }

    static func readCollision(_ o: SceneObject) -> SceneCollision? {
        var c = SceneCollision()
        c.targets = readTargets(o)
        if let mode = o.choice("mode", SceneCollision.Mode.allCases.map(\.rawValue)) { c.mode = .init(rawValue: mode)! }
        if let x = o.bool("boundsAsBoundary") { c.boundsAsBoundary = x }
        if let i = o.object("insets", keys: ["top", "left", "bottom", "right"]) {
            c.insets = EdgeInsets(top: i.number("top") ?? 0, left: i.number("left") ?? 0, bottom: i.number("bottom") ?? 0,
                                  right: i.number("right") ?? 0)
        }
        if let value = o.value("boundaries"), let values = o.reader.array(value, at: o.at("boundaries")) {
            for (k, v) in values.enumerated() {
                let path = SceneReader.path(o.at("boundaries"), k)
                guard case .object(let fields) = v else {
                    o.reader.error(path, "must be an object, got \(v.kindName)")
                    continue
                }
                let type = SceneObject(fields: fields, path: path, reader: o.reader)
                    .choice("type", ["segment", "path", "arc"], required: true)
                let keys: [String] = switch type {
                case "segment": ["from", "to"]
                case "path": ["points", "closed"]
                default: ["center", "radius", "startAngle", "endAngle", "clockwise"]
                }
                guard let type, let b = o.reader.object(v, at: path, keys: ["type", "id"] + keys) else { continue }
                let id = b.string("id", required: true)
                var shape: SceneCollision.Boundary.Shape?
                switch type {
                case "segment":
                    if let from = b.point("from", required: true), let to = b.point("to", required: true) {
                        shape = .segment(from: from, to: to)
                    }
                case "path":
                    if let points = b.points("points", required: true) {
                        if points.count < 2 { o.reader.error(b.at("points"), "needs at least 2 points, got \(points.count)") }
                        else { shape = .path(points: points, closed: b.bool("closed") ?? false) }
                    }
                default:
                    let center = b.point("center", required: true), radius = b.number("radius", required: true, above: 0)
                    let start = b.number("startAngle", required: true), end = b.number("endAngle", required: true)
                    if let center, let radius, let start, let end {
                        shape = .arc(center: center, radius: radius, startAngle: start, endAngle: end,
                                     clockwise: b.bool("clockwise") ?? true)
                    }
                }
                if let id, let shape { c.boundaries.append(.init(id: id, shape: shape)) }
            }
        }
        return c
    }

    static func readAttachment(_ o: SceneObject) -> SceneAttachment? {
        let item = o.string("item", required: true), anchor = o.point("anchor", required: true)
        let kindName = o.choice("kind", ["rod", "rope", "weld", "pin", "slider"]) ?? "rod"
        let length = o.number("length", minimum: 0, maximum: 1e7)
        let frequency = o.number("frequency", minimum: 0, maximum: 1e4) ?? 0
        let damping = o.number("damping", minimum: 0, maximum: 1e3) ?? 0
        var range = FloatRange.infinite
        if let r = o.pair("range") {
            if r.0 > r.1 { o.reader.error(o.at("range"), "minimum \(r.0) is above maximum \(r.1)") }
            range = FloatRange(minimum: r.0, maximum: r.1)
        }
        let friction = o.number("frictionTorque", minimum: 0) ?? 0
        let motorSpeed = o.number("motorSpeed", minimum: -1e7, maximum: 1e7)
        let motorTorque = o.number("maximumMotorTorque", minimum: 0, maximum: 1e30)
        let motorForce = o.number("maximumMotorForce", minimum: 0, maximum: 1e30)
        for key in ["maximumMotorTorque", "maximumMotorForce"] where o.has(key) && !o.has("motorSpeed") {
            o.reader.error(o.at(key), "needs 'motorSpeed' (the motor's speed)")
        }
        let angularFrequency = o.number("angularFrequency", minimum: 0, maximum: 1e6)
        let angularDamping = o.number("angularDamping", minimum: 0, maximum: 1e6)
        let restAngle = o.number("restAngle", minimum: -1e7, maximum: 1e7)
        for key in ["angularDamping", "restAngle"] where o.has(key) && !o.has("angularFrequency") {
            o.reader.error(o.at(key), "needs 'angularFrequency' (a pin spring's frequency)")
        }
        let axis = o.vector("axis")
        let allowed: [String: [String]] = [
            "rod": ["length", "frequency", "damping"], "rope": ["length"], "weld": ["frequency", "damping"],
            "pin": ["range", "frictionTorque", "motorSpeed", "maximumMotorTorque", "angularFrequency", "angularDamping",
                    "restAngle"],
            "slider": ["axis", "range", "motorSpeed", "maximumMotorForce"],
        ]
        for key in ["length", "frequency", "damping", "range", "frictionTorque", "motorSpeed", "maximumMotorTorque",
                    "maximumMotorForce", "angularFrequency", "angularDamping", "restAngle", "axis"]
        where o.has(key) && !(allowed[kindName] ?? []).contains(key) {
            o.reader.error(o.at(key), "does not apply to a \(kindName) attachment")
        }
        let kind: AttachmentKind
        switch kindName {
        case "rope": kind = .rope(length: length.map { CGFloat($0) })
        case "weld": kind = .weld(frequency: frequency, damping: damping)
        case "pin":
            let motor = motorSpeed.map { AttachmentMotor(speed: $0, maximumTorque: motorTorque ?? .infinity) }
            let spring = angularFrequency.flatMap { f in
                f > 0 ? AngularSpring(frequency: f, damping: angularDamping ?? 0, restAngle: restAngle ?? 0) : nil
            }
            kind = .pin(range: range, frictionTorque: friction, motor: motor, spring: spring)
        case "slider":
            guard let axis else {
                o.reader.error(o.path, "missing key 'axis' (a slider's direction)")
                return nil
            }
            if axis.dx == 0 && axis.dy == 0 { o.reader.error(o.at("axis"), "must not be [0, 0]") }
            kind = .slider(axis: axis, range: range,
                           motor: motorSpeed.map { SliderMotor(speed: $0, maximumForce: motorForce ?? .infinity) })
        default: kind = .rod(length: length.map { CGFloat($0) }, frequency: frequency, damping: damping)
        }
        guard let item, let anchor else { return nil }
        return SceneAttachment(item: item, other: o.string("to"), anchor: anchor, itemAnchor: o.point("itemAnchor"), kind: kind,
                               collide: o.bool("collide") ?? false)
    }

    static func readEvent(_ value: SceneValue, at path: String, reader: SceneReader) -> SceneEvent? {
        let actionKeys = ["set", "velocity", "drive", "add", "remove", "make"]
        guard let o = reader.object(value, at: path, keys: ["time", "repeat"] + actionKeys) else { return nil }
        let time = o.number("time", required: true, minimum: 0, maximum: 1e6)
        var repeating: (every: Double, count: Int?)?
        var shift: CGVector?, cycle: Int?
        if let r = o.object("repeat", keys: ["every", "count", "shift", "cycle"]) { // beyond UIKit
            let count = r.integer("count", minimum: 1, maximum: 1_000_000)
            if let every = r.number("every", required: true, minimum: 1e-3, maximum: 1e6) { repeating = (every, count) }
            shift = r.vector("shift")
            cycle = r.integer("cycle", minimum: 1, maximum: 1_000_000)
            for key in ["shift", "cycle"] where r.has(key) && !o.has("make") {
                reader.error(r.at(key), "applies to a repeating 'make' only")
            }
        }
        guard let chosen = o.one(of: actionKeys, none: "one of 'set', 'velocity', 'drive', 'add', 'remove', 'make'",
                                 several: "give one action per event")
        else { return nil }
        var action: SceneEvent.Action?
        switch chosen {
        case "set":
            if let s = o.object("set", keys: ["behavior", "property", "value"]) {
                let behavior = s.string("behavior", required: true), property = s.string("property", required: true)
                if let behavior, let property, let v = s.value("value", required: true) {
                    action = .set(behavior: behavior, property: property, value: v)
                }
            }
        case "velocity":
            if let v = o.object("velocity", keys: ["items", "tags", "linear", "angular"]) {
                action = .velocity(targets: readTargets(v), linear: v.vector("linear") ?? CGVector(dx: 0, dy: 0),
                                   angular: v.number("angular") ?? 0)
            }
        case "drive":
            if let d = o.object("drive", keys: ["item", "center", "angle"]) {
                let item = d.string("item", required: true), center = d.point("center", required: true)
                if let item, let center { action = .drive(item: item, center: center, angle: d.number("angle").map { CGFloat($0) }) }
            }
        case "add":
            action = readBehavior(o.value("add")!, at: o.at("add"), reader: reader).map { .add($0) }
        case "make":
            action = o.object("make", keys: ["template", "instance", "origin"]).flatMap(readMake)
        default:
            action = o.string("remove").map { .remove($0) }
        }
        guard let time, let action else { return nil }
        var event = SceneEvent(time: time, action)
        event.repeating = repeating
        if let shift { event.repeatShift = shift }
        event.repeatCycle = cycle
        return event
    }
}
