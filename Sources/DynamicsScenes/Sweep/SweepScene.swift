// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A sweep's base scene.
public enum SweepScene: Hashable, Sendable {
    /// A built-in scene or an example scene file, by name (`dynamics scenes`).
    case named(String)
    /// A scene file (.json, .yaml, .yml), relative to the sweep file.
    case file(String)
    /// A scene written in the sweep file itself.
    case inline(SceneValue)
}
