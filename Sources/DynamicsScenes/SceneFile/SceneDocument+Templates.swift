// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation

extension SceneDocument {
    static let attachmentKeys = ["item", "to", "anchor", "itemAnchor", "kind", "length", "frequency", "damping", "range",
                                 "frictionTorque", "motorSpeed", "maximumMotorTorque", "maximumMotorForce", "angularFrequency",
                                 "angularDamping", "restAngle", "axis", "collide"]

    /// Reads one template (`templates[k]`): its items are local to it, so they are not declared as the scene's;
    /// its random layouts are tried with the scene's `seed`, once its items are within `limits`.
    static func readTemplate(_ value: SceneValue, at path: String, reader: SceneReader, seed: UInt64,
                             limits: SceneLimits) -> SceneTemplate? {
        guard let o = reader.object(value, at: path, keys: ["id", "items", "generators", "attachments", "tags"]) else { return nil }
        let id = o.string("id", required: true)
        var items: [SceneItem] = [], generators: [SceneGenerator] = []
        if let v = o.value("items"), let values = reader.array(v, at: o.at("items")) {
            items = values.enumerated().compactMap { k, v in
                readItem(v, at: SceneReader.path(o.at("items"), k), reader: reader, declare: false)
            }
        }
        if let v = o.value("generators"), let values = reader.array(v, at: o.at("generators")) {
            generators = values.enumerated().compactMap { k, v in
                readGenerator(v, at: SceneReader.path(o.at("generators"), k), reader: reader, declare: false)
            }
        }
        if !o.has("items") && !o.has("generators") { reader.error(path, "a template needs 'items' or 'generators'") }
        for (k, g) in generators.enumerated() {
            let at = "\(o.at("generators"))/\(k)/id"
            if generators[..<k].contains(where: { $0.id == g.id }) { reader.error(at, "duplicate generator id '\(g.id)' in the template") }
            for item in items where g.makes(item.id) {
                reader.error(at, "generator '\(g.id)' makes the id '\(item.id)', which an item of the template already has")
            }
        }
        // One instance may hold no more items than a whole scene may.
        let total = generators.reduce(items.count) { $0 + $1.count }
        if total > limits.items {
            reader.error(o.at("generators"), "an instance would have \(total) items, more than the limit of \(limits.items)")
        } else if !generators.isEmpty && !reader.hasErrors {
            do {
                _ = try SceneDocument.place(generators, after: items, seed: seed)
            } catch {
                reader.error("\(o.at("generators"))/\(error.generator)", error.description)
            }
        }
        func isGenerated(_ name: String) -> Bool { generators.contains { $0.makes(name) } }
        var attachments: [SceneAttachment] = []
        if let v = o.value("attachments"), let values = reader.array(v, at: o.at("attachments")) {
            for (k, v) in values.enumerated() {
                let at = SceneReader.path(o.at("attachments"), k)
                if let a = reader.object(v, at: at, keys: attachmentKeys), let attachment = readAttachment(a) {
                    if !isGenerated(attachment.item) { checkTemplateItem(attachment.item, of: items, at: "\(at)/item", reader: reader) }
                    if let other = attachment.other {
                        if !isGenerated(other) { checkTemplateItem(other, of: items, at: "\(at)/to", reader: reader) }
                        if other == attachment.item { reader.error("\(at)/to", "an item cannot be attached to itself") }
                    }
                    attachments.append(attachment)
                }
            }
        }
        var seen = Set<String>()
        for (k, item) in items.enumerated() where !seen.insert(item.id).inserted {
            reader.error("\(o.at("items"))/\(k)/id", "duplicate item id '\(item.id)' in the template")
        }
        let tags = o.strings("tags") ?? []
        guard let id else { return nil }
        reader.declaredTemplates.append((id, o.at("id")))
        reader.declaredTags.formUnion([id] + tags + items.flatMap(\.tags) + generators.map(\.id))
        var template = SceneTemplate(id: id, items: items)
        template.generators = generators
        template.attachments = attachments
        template.tags = tags
        return template
    }

    static func checkTemplateItem(_ id: String, of items: [SceneItem], at path: String, reader: SceneReader) {
        guard !items.contains(where: { $0.id == id }) else { return }
        let hint = SceneReader.nearest(id, in: items.map(\.id)).map { " (did you mean '\($0)'?)" } ?? ""
        reader.error(path, "the template has no item with the id '\(id)'\(hint)")
    }

    /// Reads a `make` event's object.
    static func readMake(_ o: SceneObject) -> SceneEvent.Action? {
        let template = o.string("template", required: true), instance = o.string("instance", required: true)
        if let instance, instance.isEmpty || instance.contains("/") {
            o.reader.error(o.at("instance"), "must be a nonempty name without '/', got '\(instance)'")
        }
        guard let template, let instance else { return nil }
        return .make(template: template, instance: instance, origin: o.point("origin") ?? .zero)
    }
}
