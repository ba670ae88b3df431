// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A shard that the command line or the job array's environment names inconsistently.
public struct SweepShardError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The one-line reason.
    public let description: String

    init(_ description: String) { self.description = description }
}
