// SPDX-License-Identifier: Apache-2.0
/// The item list of a behaviour: identity-unique, in the order added, with constant-time membership.
struct ItemList {
    private(set) var items: [any DynamicItem] = []
    private var keys: Set<ObjectIdentifier> = []

    init(_ items: [any DynamicItem]) {
        for item in items { _ = insert(item) }
    }

    /// Adds `item` unless present; returns whether it was added.
    mutating func insert(_ item: any DynamicItem) -> Bool {
        guard keys.insert(ObjectIdentifier(item)).inserted else { return false }
        items.append(item)
        return true
    }

    /// Removes `item`; returns whether it was present.
    mutating func remove(_ item: any DynamicItem) -> Bool {
        guard keys.remove(ObjectIdentifier(item)) != nil else { return false }
        items.removeAll { $0 === item }
        return true
    }

    func contains(_ item: any DynamicItem) -> Bool { keys.contains(ObjectIdentifier(item)) }
    func contains(_ key: ObjectIdentifier) -> Bool { keys.contains(key) }
}
