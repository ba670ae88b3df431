// SPDX-License-Identifier: Apache-2.0
import Foundation

/// Which share of a sweep one process runs: shard `index` of `count` runs the variants whose index is
/// `index` modulo `count` (interleaved, so shards of a sweep whose cost grows along a parameter cost alike).
/// The shards 0…count−1 together run every variant exactly once.
public struct SweepShard: Hashable, Sendable, CustomStringConvertible {
    /// This shard, 0 ≤ index < count.
    public let index: Int
    /// How many shards the sweep is split into.
    public let count: Int

    /// Creates shard `index` of `count`; nil unless 0 ≤ index < count.
    public init?(index: Int, count: Int) {
        guard count >= 1, (0..<count).contains(index) else { return nil }
        self.index = index
        self.count = count
    }

    /// "I/N".
    public var description: String { "\(index)/\(count)" }

    /// Whether variant `variant` is this shard's.
    public func owns(_ variant: Int) -> Bool { variant % count == index }

    /// Reads "I/N" (`--shard 3/8`).
    public static func parse(_ text: String) -> SweepShard? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else { return nil }
        return SweepShard(index: i, count: n)
    }

    /// The shard a job array's environment gives: Slurm's `SLURM_ARRAY_TASK_ID` with
    /// `SLURM_ARRAY_TASK_COUNT` (or `SLURM_ARRAY_TASK_MIN` and `_MAX`: the tasks min…max are shards 0…),
    /// or a Kubernetes Indexed Job's `JOB_COMPLETION_INDEX` with `shards` (from `--shards`). Nil when the
    /// environment names no array task; throws a one-line reason when it does so inconsistently.
    public static func fromEnvironment(_ environment: [String: String], shards: Int?) throws(SweepShardError) -> SweepShard? {
        func integer(_ name: String) throws(SweepShardError) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else { throw SweepShardError("\(name)=\(text) is not a whole number") }
            return value
        }
        if let task = try integer("SLURM_ARRAY_TASK_ID") {
            let low = try integer("SLURM_ARRAY_TASK_MIN") ?? 0
            let count: Int
            if let n = try integer("SLURM_ARRAY_TASK_COUNT") {
                count = n
            } else if let high = try integer("SLURM_ARRAY_TASK_MAX") {
                count = high - low + 1
            } else if let shards {
                count = shards
            } else {
                throw SweepShardError("SLURM_ARRAY_TASK_ID=\(task) without SLURM_ARRAY_TASK_COUNT or SLURM_ARRAY_TASK_MAX; pass --shard I/N")
            }
            if let shards, shards != count { throw SweepShardError("--shards \(shards) but the Slurm array has \(count) tasks") }
            guard let shard = SweepShard(index: task - low, count: count) else {
                throw SweepShardError("SLURM_ARRAY_TASK_ID=\(task) is outside the array's \(count) tasks from \(low) (use a contiguous --array=0-\(count - 1))")
            }
            return shard
        }
        if let index = try integer("JOB_COMPLETION_INDEX") {
            guard let shards else { throw SweepShardError("JOB_COMPLETION_INDEX=\(index) needs --shards N (the Indexed Job's completions)") }
            guard let shard = SweepShard(index: index, count: shards) else {
                throw SweepShardError("JOB_COMPLETION_INDEX=\(index) is outside 0…\(shards - 1) (--shards \(shards))")
            }
            return shard
        }
        return nil
    }
}
