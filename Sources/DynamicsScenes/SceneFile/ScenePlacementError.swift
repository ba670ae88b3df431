// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A random layout that could not place its items apart.
public struct ScenePlacementError: Error, Equatable, Sendable, CustomStringConvertible {
    /// How many random centres an item may try.
    public static let attempts = 1000
    /// The generator, by its index in the file.
    public let generator: Int
    /// How many of its items were placed.
    public let placed: Int
    /// How many it should have made.
    public let count: Int

    /// One line: which item could not be placed, and what to change.
    public var description: String {
        "cannot place item \(placed) of \(count) apart from the items before it in 'rect' (\(Self.attempts) random centres "
            + "tried): give a larger 'rect', or a smaller 'count' or 'maxSize'"
    }
}
