// SPDX-License-Identifier: Apache-2.0
import DynamicsScenes
import Foundation

/// A shard's results file while the shard runs (`shard-I-of-N.jsonl.partial`): opened for appending, with
/// the variants already recorded by an earlier run of the shard read back, and a last line that a killed
/// run left cut short removed. Each row is written with one call and flushed to disk before the next
/// variant starts; ``complete(as:)`` renames the file to its final name.
final class SweepResultsFile {
    let url: URL
    private let handle: FileHandle
    /// The indices already recorded.
    private(set) var recorded: Set<Int> = []

    init(_ url: URL, manifest: SweepManifest) throws {
        self.url = url
        if !FileManager.default.fileExists(atPath: url.path) {
            guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
                throw CLIError(.cannotCreate, "cannot write \(url.path): \(String(cString: strerror(errno)))")
            }
        }
        guard let handle = try? FileHandle(forUpdating: url), let data = try? handle.readToEnd() ?? Data() else {
            throw CLIError(.cannotCreate, "cannot open \(url.path) for appending")
        }
        self.handle = handle
        // Keep whole lines only: a line without its newline was cut short by a crash.
        let whole = data.lastIndex(of: UInt8(ascii: "\n")).map { data.index(after: $0) } ?? data.startIndex
        do {
            try handle.truncate(atOffset: UInt64(whole - data.startIndex))
            try handle.seekToEnd()
        } catch {
            throw CLIError(.io, "cannot write \(url.path): \(error.localizedDescription)")
        }
        for line in String(decoding: data[..<whole], as: UTF8.self).split(separator: "\n") {
            if let row = SweepRow.read(line, manifest) { recorded.insert(row.index) }
        }
    }

    /// Appends one row and flushes it to disk.
    func append(_ line: String) throws {
        do {
            try handle.write(contentsOf: Data(line.utf8))
            try handle.synchronize()
        } catch {
            throw CLIError(.io, "cannot write \(url.path): \(error.localizedDescription)")
        }
    }

    /// Closes the file and renames it to `target`.
    func complete(as target: URL) throws {
        try? handle.close()
        guard rename(url.path, target.path) == 0 else {
            throw CLIError(.io, "cannot rename \(url.path) to \(target.lastPathComponent): \(String(cString: strerror(errno)))")
        }
    }

    deinit { try? handle.close() }
}
