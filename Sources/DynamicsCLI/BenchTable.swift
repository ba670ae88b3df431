// SPDX-License-Identifier: Apache-2.0
import Foundation

/// `dynamics bench`'s table for several combinations: one row each, aligned columns.
struct BenchTable {
    let results: [BenchResult]

    init(_ results: [BenchResult]) { self.results = results }

    var text: String {
        let header = ["scene", "items", "workers", "median ms", "min ms", "steps/s", "speed-up", "broad ms", "narrow ms",
                      "contact ms", "bytes/item", "resident MiB"]
        let rows = results.map { r in
            [r.scene, String(r.items), String(r.workers), String(format: "%.4f", r.msPerStepMedian), String(format: "%.4f", r.msPerStepMin),
             String(format: "%.1f", 1000 / max(r.msPerStepMedian, 1e-9)), r.speedUp.map { String(format: "%.2f×", $0) } ?? "",
             String(format: "%.4f", r.broadphaseMsMedian), String(format: "%.4f", r.narrowphaseMsMedian),
             String(format: "%.4f", r.contactSolveMsMedian), String(format: "%.0f", r.bytesPerItem),
             String(format: "%.0f", Double(r.residentBytes) / 1_048_576)]
        }
        let widths = header.indices.map { c in ([header[c]] + rows.map { $0[c] }).map(\.count).max()! }
        func line(_ cells: [String]) -> String {
            cells.enumerated().map { c, cell in
                let pad = String(repeating: " ", count: widths[c] - cell.count)
                return c == 0 ? cell + pad : pad + cell  // text left, numbers right
            }.joined(separator: "  ") + "\n"
        }
        let steps = results.first.map { "\($0.steps) timed steps per run, \($0.repeats) run(s) each; median and min over the runs' medians\n" } ?? ""
        return steps + line(header) + rows.map(line).joined()
    }
}
