// SPDX-License-Identifier: Apache-2.0
import Foundation

/// A sweep's results folder merged: the rows of every shard file (`shard-I-of-N.jsonl`, and the
/// `.partial` files of shards still running or stopped), ordered by variant index, with the variants no
/// shard has recorded and those recorded more than once.
public struct SweepTable: Sendable {
    /// The folder's manifest.
    public let manifest: SweepManifest
    /// One row per recorded variant, by index.
    public let rows: [SweepRow]
    /// Indices no file records.
    public let missing: [Int]
    /// Indices recorded more than once with the same row (a shard rerun with another shard count).
    public let duplicates: [Int]
    /// Indices recorded more than once with different rows.
    public let conflicts: [Int]
    /// Shard files that are not complete.
    public let partialFiles: [String]

    /// Reads the results folder `directory`. Throws a one-line reason when it has no manifest or a file
    /// cannot be read; rows that do not parse (a line cut short by a crash) are skipped.
    public static func merge(directory: URL) throws(SweepTableError) -> SweepTable {
        let manifestURL = directory.appendingPathComponent("sweep.json")
        guard let data = try? Data(contentsOf: manifestURL), let manifest = SweepManifest.read(data) else {
            throw SweepTableError("\(manifestURL.path): no sweep results manifest (run dynamics sweep SWEEP --output \(directory.path) first)")
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        } catch {
            throw SweepTableError("cannot list \(directory.path): \(error.localizedDescription)")
        }
        var byIndex: [Int: SweepRow] = [:], duplicates = Set<Int>(), conflicts = Set<Int>(), partial: [String] = []
        for name in names where name.hasPrefix("shard-") && (name.hasSuffix(".jsonl") || name.hasSuffix(".jsonl.partial")) {
            if name.hasSuffix(".partial") { partial.append(name) }
            // Through a file handle: String(contentsOf:) leaks its buffer for an empty file (a shard with no
            // variants), which LeakSanitizer reports.
            let url = directory.appendingPathComponent(name)
            guard let handle = try? FileHandle(forReadingFrom: url), let data = try? handle.readToEnd() ?? Data() else {
                throw SweepTableError("cannot read \(url.path)")
            }
            try? handle.close()
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
                guard let row = SweepRow.read(line, manifest), row.index < manifest.variants else { continue }
                if let seen = byIndex[row.index] {
                    if seen == row { duplicates.insert(row.index) } else { conflicts.insert(row.index) }
                } else {
                    byIndex[row.index] = row
                }
            }
        }
        return SweepTable(manifest: manifest, rows: byIndex.keys.sorted().map { byIndex[$0]! },
                          missing: (0..<manifest.variants).filter { byIndex[$0] == nil },
                          duplicates: duplicates.sorted(), conflicts: conflicts.sorted(), partialFiles: partial)
    }

    /// The header of the CSV table: index, id, the parameters' pointers, the metric columns, error.
    public static func csvHeader(_ manifest: SweepManifest) -> String {
        (["index", "id"] + manifest.parameters + manifest.columns + ["error"]).map { name in
            name.contains(where: { ",\"\n\r".contains($0) }) ? "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : name
        }.joined(separator: ",") + "\n"
    }

    /// The table as CSV, one record per recorded variant in index order.
    public var csv: String { Self.csvHeader(manifest) + rows.map { $0.csv(manifest) }.joined() }

    /// The table as JSON Lines, one row per recorded variant in index order.
    public var jsonLines: String { rows.map { $0.line(manifest) }.joined() }
}
