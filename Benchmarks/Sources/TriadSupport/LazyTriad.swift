// SPDX-License-Identifier: Apache-2.0
import StreamTriad

/// STREAM triad arrays over `bytes` bytes, made on first use (outside the measured region) and kept
/// for later iterations: the memory-bandwidth floor every benchmark target compares against.
public final class LazyTriad: @unchecked Sendable {
    private let bytes: Int
    private var built: OpaquePointer?

    /// Arrays for a triad over `bytes` bytes in all.
    public init(bytes: Int) { self.bytes = bytes }

    /// The arrays, allocated and filled on first use.
    public var arrays: OpaquePointer {
        if let built { return built }
        built = triadCreate(bytes)
        return built!
    }

    /// One triad pass; returns a value that depends on it.
    public func run() -> Float { triadRun(arrays, 0.5) }
}
