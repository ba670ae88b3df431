// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A results folder that cannot be merged.
public struct SweepTableError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The one-line reason.
    public let description: String

    init(_ description: String) { self.description = description }
}
