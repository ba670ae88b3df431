// SPDX-License-Identifier: Apache-2.0

/// A JSON Pointer that does not resolve in a scene.
public struct SweepPointerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The pointer.
    public let pointer: String
    /// Why it does not resolve.
    public let reason: String
    /// "pointer '/items/9/center': index 9 is past the end of an array of 3 at step 2".
    public var description: String { "pointer '\(pointer)': \(reason)" }
}
