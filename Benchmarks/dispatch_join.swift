// SPDX-License-Identifier: Apache-2.0
// How promptly does a Dispatch pool thread join a short concurrentPerform? The reason a step enters the
// pool once (CSources/DynamicsKernel/team.c) rather than once per parallel stage.
//   swiftc -O Benchmarks/dispatch_join.swift -o /tmp/dispatch_join && /tmp/dispatch_join
// Each call runs two iterations of some arithmetic (timed alone first); it prints, per work size, how often both
// iterations ran on one thread (the second thread never joined in time) and the median and 90th
// percentile of the second iteration's start after the call began.
import Dispatch
import Foundation

final class Call: @unchecked Sendable {
    var start = [UInt64](repeating: 0, count: 2)
    var thread = [pthread_t?](repeating: nil, count: 2)
}

func spin(_ n: Int) -> Double {
    var x = 0.0
    for k in 0..<n { x += Double(k).squareRoot() }
    return x
}

let calls = 5000
for n in [8000, 40000, 200000] {
    var work: [Double] = []
    for _ in 0..<200 {
        let t0 = DispatchTime.now().uptimeNanoseconds
        if spin(n) < 0 { print("never") }
        work.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1000)
    }
    work.sort()
    var latency: [Double] = [], oneThread = 0
    for _ in 0..<calls {
        let call = Call()
        let t0 = DispatchTime.now().uptimeNanoseconds
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            call.start[i] = DispatchTime.now().uptimeNanoseconds
            call.thread[i] = pthread_self()
            if spin(n) < 0 { print("never") }
        }
        latency.append(Double(call.start.max()! - t0) / 1000)
        if let a = call.thread[0], let b = call.thread[1], pthread_equal(a, b) != 0 { oneThread += 1 }
    }
    latency.sort()
    print(String(format: "work %.0f µs per iteration (median alone): both on one thread in %d of %d calls (%.0f %%); second start p50 %.1f µs, p90 %.1f µs",
                 work[work.count / 2], oneThread, calls, 100 * Double(oneThread) / Double(calls),
                 latency[calls / 2], latency[calls * 9 / 10]))
}
