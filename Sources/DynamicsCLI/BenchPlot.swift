// SPDX-License-Identifier: Apache-2.0
import Foundation

/// `dynamics bench --plot`: ms/step against items on log axes, a panel per scene and a line per worker
/// count, with a grey line through each panel's smallest 1-worker point that grows in proportion to the
/// items (what perfectly linear scaling would give), labelled with the machine and the run.
struct BenchPlot {
    let results: [BenchResult]
    let machine: MachineInfo
    let steps: Int
    let repeats: Int

    static let panelWidth = 340.0, panelHeight = 260.0, left = 64.0, top = 92.0, gap = 76.0, bottom = 86.0
    static let colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]

    var svg: String {
        var scenes: [String] = []
        for r in results where !scenes.contains(r.scene) { scenes.append(r.scene) }
        let workers = Array(Set(results.map(\.workers))).sorted()
        let width = Self.left + Double(scenes.count) * (Self.panelWidth + Self.gap) + 20
        let height = Self.top + Self.panelHeight + Self.bottom
        func n(_ x: Double) -> String { String(format: "%.1f", x) }
        func esc(_ s: String) -> String {
            s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
        }
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" viewBox="0 0 \(n(width)) \(n(height))" \
            font-family="Helvetica, Arial, sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(n(Self.left))" y="22" font-size="15" font-weight="bold">dynamics bench: milliseconds per step against items</text>
            <text x="\(n(Self.left))" y="40" fill="#444">\(esc(machine.line))</text>
            <text x="\(n(Self.left))" y="56" fill="#444">median of \(repeats) run(s) of \(steps) timed steps each; log scales</text>\n
            """
        for (p, scene) in scenes.enumerated() {
            let rows = results.filter { $0.scene == scene }
            let x0 = Self.left + Double(p) * (Self.panelWidth + Self.gap), y0 = Self.top
            let items = rows.map { Double($0.items) }, ms = rows.map(\.msPerStepMedian).filter { $0 > 0 }
            guard let iLo = items.min(), let iHi = items.max(), let mLo = ms.min(), let mHi = ms.max() else { continue }
            // Decades around the data (at least one on each axis).
            let xa = floor(log10(iLo)), xb = max(ceil(log10(iHi)), xa + 1)
            let ya = floor(log10(mLo)), yb = max(ceil(log10(mHi)), ya + 1)
            func px(_ v: Double) -> Double { x0 + (log10(v) - xa) / (xb - xa) * Self.panelWidth }
            func py(_ v: Double) -> Double { y0 + Self.panelHeight - (log10(v) - ya) / (yb - ya) * Self.panelHeight }
            out += "<rect x=\"\(n(x0))\" y=\"\(n(y0))\" width=\"\(n(Self.panelWidth))\" height=\"\(n(Self.panelHeight))\" fill=\"none\" stroke=\"#999\"/>\n"
            out += "<text x=\"\(n(x0 + Self.panelWidth / 2))\" y=\"\(n(y0 - 6))\" text-anchor=\"middle\" font-weight=\"bold\">\(esc(scene))</text>\n"
            for e in stride(from: xa, through: xb, by: 1) {
                let x = px(pow(10, e))
                out += "<line x1=\"\(n(x))\" y1=\"\(n(y0))\" x2=\"\(n(x))\" y2=\"\(n(y0 + Self.panelHeight))\" stroke=\"#eee\"/>\n"
                out += "<text x=\"\(n(x))\" y=\"\(n(y0 + Self.panelHeight + 16))\" text-anchor=\"middle\">\(Self.label(pow(10, e)))</text>\n"
            }
            for e in stride(from: ya, through: yb, by: 1) {
                let y = py(pow(10, e))
                out += "<line x1=\"\(n(x0))\" y1=\"\(n(y))\" x2=\"\(n(x0 + Self.panelWidth))\" y2=\"\(n(y))\" stroke=\"#eee\"/>\n"
                out += "<text x=\"\(n(x0 - 6))\" y=\"\(n(y + 4))\" text-anchor=\"end\">\(Self.label(pow(10, e)))</text>\n"
            }
            out += "<text x=\"\(n(x0 + Self.panelWidth / 2))\" y=\"\(n(y0 + Self.panelHeight + 34))\" text-anchor=\"middle\">items</text>\n"
            if p == 0 {
                out += "<text transform=\"translate(\(n(x0 - 46)),\(n(y0 + Self.panelHeight / 2))) rotate(-90)\" text-anchor=\"middle\">ms per step</text>\n"
            }
            // Linear scaling from the smallest 1-worker point (or the smallest point).
            let base = rows.filter { $0.workers == workers[0] }.min { $0.items < $1.items }
            if let base, base.msPerStepMedian > 0 {
                let a = Double(base.items), b = pow(10, xb), scale = base.msPerStepMedian / a
                let bEnd = min(b, pow(10, yb) / scale)
                out += "<line x1=\"\(n(px(a)))\" y1=\"\(n(py(base.msPerStepMedian)))\" x2=\"\(n(px(bEnd)))\" y2=\"\(n(py(bEnd * scale)))\" stroke=\"#bbb\" stroke-dasharray=\"4 3\"/>\n"
            }
            for (k, w) in workers.enumerated() {
                let line = rows.filter { $0.workers == w && $0.msPerStepMedian > 0 }.sorted { $0.items < $1.items }
                guard !line.isEmpty else { continue }
                let colour = Self.colours[k % Self.colours.count]
                out += "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\" points=\"" +
                    line.map { "\(n(px(Double($0.items)))),\(n(py($0.msPerStepMedian)))" }.joined(separator: " ") + "\"/>\n"
                for r in line {
                    out += "<circle cx=\"\(n(px(Double(r.items))))\" cy=\"\(n(py(r.msPerStepMedian)))\" r=\"3.5\" fill=\"\(colour)\">"
                        + "<title>\(esc(scene)), \(r.items) items, \(w) worker(s): \(String(format: "%.4g", r.msPerStepMedian)) ms</title></circle>\n"
                }
            }
        }
        // Legend under the panels.
        var lx = Self.left
        let ly = Self.top + Self.panelHeight + 60
        for (k, w) in workers.enumerated() {
            let colour = Self.colours[k % Self.colours.count]
            out += "<line x1=\"\(n(lx))\" y1=\"\(n(ly))\" x2=\"\(n(lx + 24))\" y2=\"\(n(ly))\" stroke=\"\(colour)\" stroke-width=\"2\"/>"
            out += "<text x=\"\(n(lx + 30))\" y=\"\(n(ly + 4))\">\(w) worker\(w == 1 ? "" : "s")</text>\n"
            lx += 110
        }
        out += "<line x1=\"\(n(lx))\" y1=\"\(n(ly))\" x2=\"\(n(lx + 24))\" y2=\"\(n(ly))\" stroke=\"#bbb\" stroke-dasharray=\"4 3\"/>"
        out += "<text x=\"\(n(lx + 30))\" y=\"\(n(ly + 4))\">in proportion to items</text>\n"
        return out + "</svg>\n"
    }

    /// 1, 10, 100, 1k, 10k, 100k, 1M, … and 0.1, 0.01, …
    static func label(_ v: Double) -> String {
        switch v {
        case 1e6...: return String(format: "%gM", v / 1e6)
        case 1e3...: return String(format: "%gk", v / 1e3)
        default: return String(format: "%g", v)
        }
    }
}
