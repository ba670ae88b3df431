// SPDX-License-Identifier: Apache-2.0
import DynamicsKernel
import Foundation

extension KernelWorld {
    /// The kernel's snapshot of this world with `host` (the Swift side's own state) stored beside it.
    func snapshot(host: Data) -> Data {
        host.withUnsafeBytes { hostBytes in
            let size = dkWorld_SnapshotSize(raw, hostBytes.count)
            var bytes = Data(count: size)
            let written = bytes.withUnsafeMutableBytes { out in
                dkWorld_WriteSnapshot(raw, hostBytes.baseAddress, hostBytes.count, out.baseAddress, size)
            }
            precondition(written == size, "dkWorld_WriteSnapshot wrote \(written) of \(size) bytes")
            return bytes
        }
    }

    /// A world read from a snapshot, with the host's bytes stored in it. `configuration` gives what a snapshot
    /// does not hold (workers, SIMD level, allocator); the simulation's settings are the snapshot's.
    static func read(snapshot: Data, configuration: DynamicsConfiguration) throws(DynamicsError)
        -> (world: KernelWorld, host: Data)
    {
        try configuration.validate()
        var def = hostDef(configuration)
        var error = dkError()
        var hostCopy = Data()
        let raw: OpaquePointer? = snapshot.withUnsafeBytes { bytes in
            var host: UnsafeRawPointer?
            var hostBytes = 0
            let world = dkWorld_ReadSnapshot(&def, bytes.baseAddress, bytes.count, &host, &hostBytes, &error)
            if world != nil, let host { hostCopy = Data(bytes: host, count: hostBytes) }
            return world
        }
        guard let raw else { throw DynamicsError(error) }
        return (KernelWorld(adopting: raw), hostCopy)
    }
}
