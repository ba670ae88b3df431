// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Which animator holds which item, process-wide, so that adding one item to two animators traps with a
/// clear message (as UIKit raises). An animator holds its items strongly while they are claimed and
/// releases every claim when it drops them or is deallocated, so identifiers are never stale.
///
/// The table is guarded by an `NSLock` (a pthread mutex) rather than `Synchronization.Mutex`: on Linux
/// the latter parks on a raw futex that ThreadSanitizer cannot see, so `make test-tsan` reported the
/// correctly locked accesses as races.
enum ItemOwnership {
    private final class Table: @unchecked Sendable {
        // Every access to `claims` happens with `lock` held.
        let lock = NSLock()
        var claims: [ObjectIdentifier: ObjectIdentifier] = [:]

        func withLock<R>(_ body: (inout [ObjectIdentifier: ObjectIdentifier]) -> R) -> R {
            lock.lock()
            defer { lock.unlock() }
            return body(&claims)
        }
    }

    private static let table = Table()

    /// The animator holding `item`, if any.
    static func owner(of item: ObjectIdentifier) -> ObjectIdentifier? {
        table.withLock { $0[item] }
    }

    /// Claims `item` for `animator`; traps when another animator holds it.
    static func claim(_ item: ObjectIdentifier, for animator: ObjectIdentifier, name: @autoclosure () -> String) {
        let holder = table.withLock { claims -> ObjectIdentifier? in
            if let other = claims[item], other != animator { return other }
            claims[item] = animator
            return nil
        }
        require(holder == nil, "\(name()) is already in another DynamicAnimator; an item belongs to one animator")
    }

    /// Releases the claims of `animator` on `items`.
    static func release(_ items: [ObjectIdentifier], for animator: ObjectIdentifier) {
        table.withLock { claims in
            for item in items where claims[item] == animator { claims[item] = nil }
        }
    }
}
