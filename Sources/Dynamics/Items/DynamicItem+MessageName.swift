// SPDX-License-Identifier: Apache-2.0
import Foundation

extension DynamicItem {
    /// The item named for messages: its description when it has one, else its type and centre.
    var messageName: String {
        if let described = self as? CustomStringConvertible { return described.description }
        return "\(type(of: self)) at (\(center.x), \(center.y))"
    }
}
