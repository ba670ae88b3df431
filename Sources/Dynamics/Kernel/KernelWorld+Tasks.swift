// SPDX-License-Identifier: Apache-2.0
import Dispatch
import DynamicsKernel

/// The host side of the kernel's task callback: runs `task(context, worker)` for every worker on
/// Dispatch's thread pool and returns when all are done. The kernel enters it once per step.
let kernelRunTasks: @convention(c) (
    (@convention(c) (UnsafeMutableRawPointer?, Int32) -> Void)?, UnsafeMutableRawPointer?, Int32,
    UnsafeMutableRawPointer?
) -> Void = { task, context, workerCount, _ in
    guard let task else { return }
    let shared = TaskContext(pointer: context)
    DispatchQueue.concurrentPerform(iterations: Int(workerCount)) { worker in
        task(shared.pointer, Int32(worker))
    }
}

/// The kernel's step context, shared read-only by the workers (the kernel synchronises with atomics).
private struct TaskContext: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer?
}
