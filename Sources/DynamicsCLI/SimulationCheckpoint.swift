// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A `simulate --checkpoint` file: the command, the scene, where the outputs stand, and the scene run's own
/// checkpoint (`SceneRun.checkpoint()`: the world's snapshot and the run's state).
///
///     "DKSIMCKP" · version (uint32, 1) · state length (uint64) · state (JSON) · run checkpoint · checksum
///
/// little-endian; the checksum (uint64) is a 64-bit FNV-1a of every byte before it, eight at a time, as the
/// world's snapshots take theirs. Written under a temporary name and renamed, so a run killed while writing one
/// leaves the last one whole.
struct SimulationCheckpoint: Codable {
    /// The `simulate` command's arguments (the resumed run parses them again).
    var arguments: [String]
    /// The scene as JSON (the resumed run does not read the scene file again).
    var document: String
    /// The scene's name in the summary.
    var sceneName: String
    /// Steps done.
    var step: Int
    /// The places of the items the trajectories hold (as the run's start chose them).
    var tracked: [Int]
    var sinks: [SinkCheckpoint]
    var events: CheckpointedFile?
    /// The milliseconds of every step done (the summary's timings).
    var milliseconds: [Double]
    /// The item that started highest (slot, generation) and its y then (pt), for the summary's sink.
    var topItem: [UInt32]?
    var topStartY: Double

    static let magic = Data("DKSIMCKP".utf8)
    static let version: UInt32 = 1

    /// Writes the checkpoint with the run's bytes to `path`, atomically.
    func write(run: Data, to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let state = try encoder.encode(self)
        var bytes = Self.magic
        withUnsafeBytes(of: Self.version.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(state.count).littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(state)
        bytes.append(run)
        withUnsafeBytes(of: Self.checksum(bytes).littleEndian) { bytes.append(contentsOf: $0) }
        let file = try AtomicFile(path)
        try file.write(bytes)
        try file.commit()
        AtomicFile.written.removeAll { $0.path == file.target.path } // (not an output: not reported)
    }

    /// Reads a checkpoint file: its state and the run's bytes. Throws a CLIError naming what is wrong.
    static func read(_ path: String) throws -> (state: SimulationCheckpoint, run: Data) {
        guard let bytes = FileManager.default.contents(atPath: path) else {
            throw CLIError(.noInput, "cannot read checkpoint \(path): \(String(cString: strerror(errno)))")
        }
        func invalid(_ why: String) -> CLIError { CLIError(.data, "invalid checkpoint \(path): \(why)") }
        guard bytes.count >= 28, bytes.prefix(8) == magic else { throw invalid("not a dynamics simulate checkpoint") }
        func word<T: FixedWidthInteger>(_ at: Int, _: T.Type) -> T {
            bytes.subdata(in: at..<(at + MemoryLayout<T>.size)).withUnsafeBytes { T(littleEndian: $0.loadUnaligned(as: T.self)) }
        }
        guard word(8, UInt32.self) == version else { throw invalid("format version \(word(8, UInt32.self)), this version reads 1") }
        let length = word(12, UInt64.self)
        guard length <= UInt64(bytes.count - 28) else { throw invalid("truncated (\(bytes.count) bytes)") }
        guard word(bytes.count - 8, UInt64.self) == checksum(bytes.prefix(bytes.count - 8)) else {
            throw invalid("damaged (its checksum does not match) or truncated")
        }
        let state: SimulationCheckpoint
        do { state = try JSONDecoder().decode(SimulationCheckpoint.self, from: bytes.subdata(in: 20..<(20 + Int(length)))) } catch {
            throw invalid("its state does not read: \(error)")
        }
        return (state, bytes.subdata(in: (20 + Int(length))..<(bytes.count - 8)))
    }

    /// 64-bit FNV-1a over 8-byte little-endian words, then the remaining bytes one at a time.
    static func checksum(_ data: Data) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        data.withUnsafeBytes { raw in
            var k = 0
            while k + 8 <= raw.count {
                hash = (hash ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: k, as: UInt64.self))) &* 0x0000_0100_0000_01b3
                k += 8
            }
            while k < raw.count {
                hash = (hash ^ UInt64(raw[k])) &* 0x0000_0100_0000_01b3
                k += 1
            }
        }
        return hash
    }
}
