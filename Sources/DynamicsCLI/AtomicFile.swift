// SPDX-License-Identifier: Apache-2.0
import Foundation

/// An output file written under a temporary name beside its target and renamed onto it only when complete,
/// so that a failed or interrupted run never leaves a truncated file. Until ``commit()`` the target is
/// untouched; ``discard()`` (also run for every open file on SIGINT) removes the temporary file.
final class AtomicFile {
    let target: URL
    private(set) var temporary: URL
    private var handle: FileHandle
    private var buffer = Data()
    /// Bytes written so far (flushed or not).
    private(set) var bytesWritten = 0

    /// Every open file, for the interrupt handler.
    nonisolated(unsafe) static var open: [AtomicFile] = []
    /// The files committed so far and their sizes in bytes, for ``reportWritten(quiet:)``.
    nonisolated(unsafe) static var written: [(path: String, bytes: Int)] = []

    init(_ path: String) throws {
        target = URL(fileURLWithPath: path)
        let directory = target.deletingLastPathComponent()
        temporary = directory.appendingPathComponent(".\(target.lastPathComponent).\(getpid()).partial")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
              let handle = try? FileHandle(forWritingTo: temporary)
        else {
            throw CLIError(.cannotCreate, "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        self.handle = handle
        Self.open.append(self)
    }

    func write(_ text: String) throws { try write(Data(text.utf8)) }

    func write(_ data: Data) throws {
        buffer.append(data)
        bytesWritten += data.count
        if buffer.count >= 1 << 20 { try flush() }
    }

    func flush() throws {
        guard !buffer.isEmpty else { return }
        do {
            try handle.write(contentsOf: buffer)
        } catch {
            throw CLIError(.io, "cannot write \(target.path): \(error.localizedDescription)")
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Where the file stands, for a checkpoint (flushed first, so that the temporary file holds every byte).
    func checkpoint() throws -> CheckpointedFile {
        try flush()
        try? handle.synchronize()
        return CheckpointedFile(target: target.path, temporary: temporary.path, bytes: bytesWritten)
    }

    /// Continues the temporary file a checkpoint recorded (cut back to its length then: a run may have
    /// written on after the checkpoint), instead of the one this file began.
    func resume(_ recorded: CheckpointedFile) throws {
        guard recorded.target == target.path else {
            throw CLIError(.data, "the checkpoint's output \(recorded.target) is not \(target.path)")
        }
        guard let old = FileHandle(forUpdatingAtPath: recorded.temporary),
              let size = try? old.seekToEnd(), size >= UInt64(recorded.bytes),
              (try? old.truncate(atOffset: UInt64(recorded.bytes))) != nil
        else {
            throw CLIError(.noInput, "cannot resume \(target.path): its partial file \(recorded.temporary) is missing or shorter than the checkpoint says")
        }
        try? handle.close()
        unlink(temporary.path)
        _ = try? old.seekToEnd()
        handle = old
        temporary = URL(fileURLWithPath: recorded.temporary)
        buffer.removeAll()
        bytesWritten = recorded.bytes
    }

    /// Flushes, closes and renames onto the target.
    func commit() throws {
        try flush()
        try? handle.close()
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            discard()
            throw CLIError(.io, "cannot write \(target.path): \(reason)")
        }
        Self.open.removeAll { $0 === self }
        let bytes = (try? FileManager.default.attributesOfItem(atPath: target.path)[.size] as? Int) ?? 0
        Self.written.append((target.path, bytes))
    }

    /// Says on standard error what the command wrote (`dynamics: wrote run.html (1.2 MB)`), unless `quiet`.
    static func reportWritten(quiet: Bool) {
        defer { written = [] }
        guard !quiet else { return }
        for (path, bytes) in written {
            FileHandle.standardError.write(Data("dynamics: wrote \(path) (\(size(bytes)))\n".utf8))
        }
    }

    /// A byte count as people read it: 312 bytes, 4.1 kB, 1.2 MB, 3.4 GB (powers of 1000).
    static func size(_ bytes: Int) -> String {
        let units = ["kB", "MB", "GB", "TB"]
        guard bytes >= 1000 else { return "\(bytes) byte\(bytes == 1 ? "" : "s")" }
        var value = Double(bytes) / 1000, unit = 0
        while value >= 999.95 && unit < units.count - 1 { value /= 1000; unit += 1 }
        return String(format: "%.1f %@", value, units[unit])
    }

    /// Closes and removes the temporary file (the target stays as it was).
    func discard() {
        try? handle.close()
        unlink(temporary.path)
        Self.open.removeAll { $0 === self }
    }

    /// Removes every open file's temporary (on failure or interrupt).
    static func discardAll() {
        for file in open { file.discard() }
    }

    /// Closes every open file and keeps its temporary, which a checkpoint names (on interrupt with a checkpoint).
    static func keepAll() {
        for file in open { try? file.handle.close() }
        open = []
    }
}

/// An output file as a checkpoint records it: its target, the temporary file that holds it so far, and how
/// many bytes of that belong to the run up to the checkpoint.
struct CheckpointedFile: Codable {
    var target: String
    var temporary: String
    var bytes: Int
}

/// A failure of the command line with its sysexits status.
struct CLIError: Error, CustomStringConvertible {
    enum Status: Int32 {
        case usage = 64, data = 65, noInput = 66, software = 70, cannotCreate = 73, io = 74, interrupted = 130
    }

    let status: Status
    let description: String

    init(_ status: Status, _ description: String) {
        self.status = status
        self.description = description
    }
}
