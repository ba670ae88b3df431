// SPDX-License-Identifier: Apache-2.0

/// Where a world's kernel memory comes from, in place of the C library's allocation: the package's tests
/// use it to fail chosen allocations and check that a failed step changes nothing. Package-internal, since
/// the public API has no pointers.
///
/// `allocate` returns `bytes` bytes aligned to 64 bytes, or nil; `release` frees what it returned. A step
/// may call them from several of its worker threads at once.
package struct AllocationHook: Hashable, @unchecked Sendable {
    /// (context, bytes) → 64-byte aligned memory, or nil when there is none.
    package typealias Allocate = @convention(c) (UnsafeMutableRawPointer?, Int) -> UnsafeMutableRawPointer?
    /// (context, memory): frees memory `allocate` returned.
    package typealias Release = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void

    package let allocate: Allocate
    package let release: Release
    /// Passed to both functions; also the hook's identity.
    package let context: UnsafeMutableRawPointer

    package init(allocate: Allocate, release: Release, context: UnsafeMutableRawPointer) {
        self.allocate = allocate
        self.release = release
        self.context = context
    }

    package static func == (a: Self, b: Self) -> Bool { a.context == b.context }
    package func hash(into hasher: inout Hasher) { hasher.combine(context) }
}
