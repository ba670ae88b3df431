// SPDX-License-Identifier: Apache-2.0
/// Traps with `message` when `condition` is false, in every build. An API misuse (a call during a step, a
/// value out of a behaviour's range) stops the program with a message that names what was wrong; unlike
/// `precondition`, whose message optimised builds drop, this keeps it in release builds too.
@inline(__always)
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
             line: UInt = #line)
{
    if !condition() { fatalError(message(), file: file, line: line) }
}
