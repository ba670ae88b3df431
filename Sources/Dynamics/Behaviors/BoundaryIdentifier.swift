// SPDX-License-Identifier: Apache-2.0
import Foundation

/// How a boundary identifier crosses between the two spellings the API accepts: Swift's `AnyHashable`
/// (what ``CollisionBehavior`` stores) and UIKit's `NSCopying` (what ported code passes, e.g.
/// `"floor" as NSCopying`). A string is a string in both: `NSString` becomes `String` and back, so
/// `"floor" as NSCopying` and `"floor"` name the same boundary.
enum BoundaryIdentifier {
    /// The stored form of a UIKit-style identifier: `String` for an `NSString`, the object itself (compared
    /// with `isEqual`) for any other `NSObject`, the value for a `Hashable` one. Traps for anything else.
    static func hashable(_ identifier: NSCopying) -> AnyHashable {
        if let string = identifier as? NSString { return AnyHashable(string as String) }
        if let object = identifier as? NSObject { return AnyHashable(object) }
        guard let value = identifier as? any Hashable else {
            fatalError("a boundary identifier must be Hashable (a string, an NSObject or a Hashable value), got \(type(of: identifier))")
        }
        return AnyHashable(value)
    }

    /// The UIKit-style form of a stored identifier: `NSString` for a `String`, the object for an `NSObject`
    /// that is `NSCopying`, otherwise a ``Box`` holding the value.
    static func copying(_ identifier: AnyHashable) -> NSCopying {
        if let string = identifier.base as? String { return NSString(string: string) }
        if let object = identifier.base as? NSObject & NSCopying { return object }
        return Box(identifier)
    }

    /// An identifier that has no Foundation counterpart (an enum, a struct), for a delegate written with
    /// UIKit's `NSCopying?` signature: compare its ``value``.
    final class Box: NSObject, NSCopying, @unchecked Sendable {
        /// The identifier as it was added.
        let value: AnyHashable
        init(_ value: AnyHashable) { self.value = value }
        func copy(with zone: NSZone? = nil) -> Any { self }
        override func isEqual(_ object: Any?) -> Bool { (object as? Box)?.value == value }
        override var hash: Int { value.hashValue }
    }
}
