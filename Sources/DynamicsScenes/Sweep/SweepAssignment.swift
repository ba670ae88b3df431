// SPDX-License-Identifier: Apache-2.0
import Foundation

/// One value written into the scene at a JSON Pointer.
public struct SweepAssignment: Hashable, Sendable {
    /// Where, as a JSON Pointer into the scene (`/items/0/material/friction`; `-` appends to an array).
    public var pointer: String
    /// The value, as a scene file writes it.
    public var value: SceneValue

    /// Creates an assignment.
    public init(pointer: String, value: SceneValue) {
        self.pointer = pointer
        self.value = value
    }
}
