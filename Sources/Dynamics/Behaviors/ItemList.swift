/// The item list of a behaviour: identity-unique, in the order added.
struct ItemList {
    private(set) var items: [any DynamicItem] = []

    init(_ items: [any DynamicItem]) {
        for item in items { _ = insert(item) }
    }

    /// Adds `item` unless present; returns whether it was added.
    mutating func insert(_ item: any DynamicItem) -> Bool {
        guard !contains(item) else { return false }
        items.append(item)
        return true
    }

    /// Removes `item`; returns whether it was present.
    mutating func remove(_ item: any DynamicItem) -> Bool {
        guard let i = items.firstIndex(where: { $0 === item }) else { return false }
        items.remove(at: i)
        return true
    }

    func contains(_ item: any DynamicItem) -> Bool { items.contains { $0 === item } }
}
