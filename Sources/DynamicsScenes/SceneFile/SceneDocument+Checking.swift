// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

extension SceneDocument {
    /// The properties the timeline may set on each kind of behaviour, and how each is checked (UIKit's
    /// names gravityDirection, pushDirection, anchorPoint and snapPoint too).
    static let settable: [String: [String: SettableKind]] = [
        "gravity": ["direction": .pair, "gravityDirection": .pair, "angle": .number, "magnitude": .number],
        "push": ["active": .bool, "vector": .pair, "pushDirection": .pair, "angle": .number, "magnitude": .number, "offset": .pair],
        "attachment": ["anchor": .pair, "anchorPoint": .pair, "length": .nonNegative, "frequency": .nonNegative,
                       "damping": .nonNegative, "motorSpeed": .number, "restAngle": .number],
        "snap": ["point": .pair, "snapPoint": .pair, "damping": .nonNegative, "dampingRatio": .nonNegative],
        "item": ["density": .positive, "elasticity": .unit, "friction": .nonNegative, "resistance": .nonNegative,
                 "angularResistance": .nonNegative, "charge": .number, "anchored": .bool, "allowsRotation": .bool,
                 "kinematic": .bool],
        "collision": [:],
        "field": ["strength": .number, "position": .pair, "falloff": .nonNegative, "minimumRadius": .positive,
                  "direction": .pair, "smoothness": .unit, "animationSpeed": .nonNegative],
    ]

    enum SettableKind { case number, nonNegative, positive, unit, bool, pair }

    /// The kind name of a behaviour, as the file writes its `type`.
    static func typeName(_ kind: SceneBehavior.Kind) -> String {
        switch kind {
        case .gravity: "gravity"
        case .collision: "collision"
        case .attachment: "attachment"
        case .snap: "snap"
        case .push: "push"
        case .item: "item"
        case .field: "field"
        }
    }

    /// Cross-references: unique ids, references that resolve, settable properties, the item limit.
    func check(reader: SceneReader, limits: SceneLimits) {
        let generators = reader.declaredGenerators
        let total = reader.declaredItems.count + generators.reduce(0) { $0 + $1.count }
        if total > limits.items {
            reader.error("/generators", "the scene has \(total) items, more than the limit of \(limits.items)")
            return
        }
        if total == 0 && !reader.hasErrors { reader.error("", "the scene has no items (give 'items' or 'generators')") }
        var ids: [String: String] = [:]  // id → where it was first given
        for (id, path) in reader.declaredItems {
            if let first = ids[id] { reader.error(path, "duplicate item id '\(id)' (first at \(first))") }
            else { ids[id] = path }
        }
        var tags = reader.declaredTags
        for (k, g) in generators.enumerated() {
            let path = "/generators/\(k)/id"
            if generators[..<k].contains(where: { $0.id == g.id }) { reader.error(path, "duplicate generator id '\(g.id)'") }
            tags.insert(g.id)
            // A listed item whose id a generator also makes.
            for (id, _) in reader.declaredItems where SceneGenerator.isNumbered(id, prefix: g.id, below: g.count) {
                reader.error(path, "generator '\(g.id)' makes the id '\(id)', which an item already has")
            }
        }
        for (k, t) in reader.declaredTemplates.enumerated() where reader.declaredTemplates[..<k].contains(where: { $0.id == t.id }) {
            reader.error(t.path, "duplicate template id '\(t.id)'")
        }
        // The names make events give their instances (also tags of the instances' items).
        let makes: [(instance: String, repeats: Bool)] = timeline.compactMap { e in
            if case .make(_, let instance, _) = e.action { return (instance, e.repeating != nil) }
            return nil
        }
        func isInstance(_ name: String) -> Bool {
            makes.contains { m in
                m.repeats ? SceneGenerator.isNumbered(name, prefix: m.instance) : name == m.instance
            }
        }
        func exists(_ id: String) -> Bool {
            if ids[id] != nil { return true }
            return generators.contains { SceneGenerator.isNumbered(id, prefix: $0.id, below: $0.count) }
        }
        func checkItem(_ id: String, at path: String) {
            if !exists(id) {
                let hint = SceneReader.nearest(id, in: Array(ids.keys)).map { " (did you mean '\($0)'?)" } ?? ""
                reader.error(path, "no item has the id '\(id)'\(hint)")
            }
        }
        func checkTargets(_ t: SceneTargets, at path: String) {
            for (k, id) in t.items.enumerated() { checkItem(id, at: "\(path)/items/\(k)") }
            for (k, tag) in t.tags.enumerated() where !tags.contains(tag) && !isInstance(tag) {
                let hint = SceneReader.nearest(tag, in: Array(tags)).map { " (did you mean '\($0)'?)" } ?? ""
                reader.error("\(path)/tags/\(k)", "no item or generator has the tag '\(tag)'\(hint)")
            }
        }
        var kinds: [String: String] = [:]  // behaviour id → kind
        var collisions = 0
        func checkBehavior(_ b: SceneBehavior, at path: String) {
            if let id = b.id {
                if kinds[id] != nil { reader.error("\(path)/id", "duplicate behaviour id '\(id)'") }
                kinds[id] = Self.typeName(b.kind)
            }
            switch b.kind {
            case .gravity(_, let t): checkTargets(t, at: path)
            case .push(let p): checkTargets(p.targets, at: path)
            case .item(let i): checkTargets(i.targets, at: path)
            case .field(let f): checkTargets(f.targets, at: path)
            case .snap(let item, _, _, _): checkItem(item, at: "\(path)/item")
            case .attachment(let a):
                checkItem(a.item, at: "\(path)/item")
                if let other = a.other {
                    checkItem(other, at: "\(path)/to")
                    if other == a.item { reader.error("\(path)/to", "an item cannot be attached to itself") }
                }
            case .collision(let c):
                checkTargets(c.targets, at: path)
                collisions += 1
                if collisions > 63 { reader.error(path, "more than 63 collision behaviours") }
                if c.boundsAsBoundary && bounds == nil {
                    reader.error("\(path)/boundsAsBoundary", "needs the scene's 'bounds'")
                }
            }
        }
        for (k, b) in behaviors.enumerated() {
            checkBehavior(b, at: k < reader.behaviorPaths.count ? reader.behaviorPaths[k] : "/behaviors/\(k)")
        }
        for (k, event) in timeline.enumerated() {
            let path = k < reader.eventPaths.count ? reader.eventPaths[k] : "/timeline/\(k)"
            switch event.action {
            case .add(let b):
                if case .collision = b.kind { reader.error("\(path)/add", "a collision behaviour cannot be added by the timeline") }
                else { checkBehavior(b, at: "\(path)/add") }
            case .remove(let id):
                if kinds[id] == nil && !reader.declaredBehaviors.contains(id) && !isInstance(id) {
                    reader.error("\(path)/remove", "no behaviour has the id '\(id)', nor does a make event name an instance so")
                }
            case .make(let template, _, _):
                if !reader.declaredTemplates.contains(where: { $0.id == template }) {
                    let hint = SceneReader.nearest(template, in: reader.declaredTemplates.map(\.id)).map { " (did you mean '\($0)'?)" } ?? ""
                    reader.error("\(path)/make/template", "no template has the id '\(template)'\(hint)")
                }
            case .velocity(let t, _, _): checkTargets(t, at: "\(path)/velocity")
            case .drive(let item, _, _): checkItem(item, at: "\(path)/drive/item")
            case .set(let id, let property, let value):
                guard let kind = kinds[id] else {
                    if reader.declaredBehaviors.contains(id) { continue }  // its behaviour has errors of its own
                    let hint = SceneReader.nearest(id, in: Array(kinds.keys)).map { " (did you mean '\($0)'?)" } ?? ""
                    reader.error("\(path)/set/behavior", "no behaviour has the id '\(id)'\(hint)")
                    continue
                }
                let properties = Self.settable[kind] ?? [:]
                guard let type = properties[property] else {
                    let names = properties.keys.sorted().joined(separator: ", ")
                    reader.error("\(path)/set/property",
                                 "a \(kind) behaviour has no settable property '\(property)' (\(names.isEmpty ? "none" : names))")
                    continue
                }
                let at = "\(path)/set/value"
                switch type {
                case .bool:
                    if case .bool = value {} else { reader.error(at, "must be true or false, got \(value.kindName)") }
                case .pair: _ = SceneObject.pair(value, at: at, reader: reader)
                case .number: _ = SceneObject.number(value, at: at, reader: reader)
                case .nonNegative: _ = SceneObject.number(value, at: at, reader: reader, minimum: 0)
                case .positive: _ = SceneObject.number(value, at: at, reader: reader, above: 0)
                case .unit: _ = SceneObject.number(value, at: at, reader: reader, minimum: 0, maximum: 1)
                }
            }
        }
    }
}
