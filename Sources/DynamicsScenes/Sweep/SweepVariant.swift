// SPDX-License-Identifier: Apache-2.0
import Foundation

/// One combination of a sweep's parameter values.
public struct SweepVariant: Hashable, Sendable {
    /// Its place in the sweep's enumeration, from 0.
    public var index: Int
    /// 16 hex digits derived from the parameters' pointers and values alone (FNV-1a of their text): the
    /// same values give the same id in any sweep.
    public var id: String
    /// Each parameter's value, in the parameters' order.
    public var values: [SceneValue]
}
