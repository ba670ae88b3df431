// SPDX-License-Identifier: Apache-2.0
/// Bounds on what a scene file may ask for, so that a hostile or mistaken file cannot exhaust memory or
/// stack. The command line's `--max-bytes`, `--max-items` and `--max-depth` override them.
public struct SceneLimits: Hashable, Sendable {
    /// Largest file, bytes (default 256 MiB).
    public var bytes = 256 << 20
    /// Most items, listed and generated together (default 10 000 000).
    public var items = 10_000_000
    /// Deepest nesting of arrays and objects (default 64).
    public var depth = 64

    /// The defaults.
    public init() {}
}
