// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// Which animator holds which item, process-wide, so that adding one item to two animators traps with a
/// clear message (as UIKit raises). An animator holds its items strongly while they are claimed and
/// releases every claim when it drops them or is deallocated, so identifiers are never stale.
enum ItemOwnership {
    private static let claims = Mutex<[ObjectIdentifier: ObjectIdentifier]>([:])

    /// The animator holding `item`, if any.
    static func owner(of item: ObjectIdentifier) -> ObjectIdentifier? {
        claims.withLock { $0[item] }
    }

    /// Claims `item` for `animator`; traps when another animator holds it.
    static func claim(_ item: ObjectIdentifier, for animator: ObjectIdentifier, name: @autoclosure () -> String) {
        let holder = claims.withLock { table -> ObjectIdentifier? in
            if let other = table[item], other != animator { return other }
            table[item] = animator
            return nil
        }
        require(holder == nil, "\(name()) is already in another DynamicAnimator; an item belongs to one animator")
    }

    /// Releases the claims of `animator` on `items`.
    static func release(_ items: [ObjectIdentifier], for animator: ObjectIdentifier) {
        claims.withLock { table in
            for item in items where table[item] == animator { table[item] = nil }
        }
    }
}
