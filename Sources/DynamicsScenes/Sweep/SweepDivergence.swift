// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A variant's run that diverged: its kinetic energy stopped being a finite number.
public struct SweepDivergence: Error, Hashable, Sendable, CustomStringConvertible {
    /// The step at which it was seen.
    public let step: Int
    /// Its time, s.
    public let time: Double
    /// "diverged: kinetic energy not finite at step 120 (2 s)".
    public var description: String { "diverged: kinetic energy not finite at step \(step) (\(time) s)" }
}
