// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Dynamics
import Foundation

struct Spring: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print or plot a spring timing curve (UIKit's spring animations).",
        discussion: """
            Describe the spring as UIView.animate(withDuration:…usingSpringWithDamping:initialSpringVelocity:) \
            does (--duration, --damping-ratio, --velocity), as CASpringAnimation and UISpringTimingParameters do \
            (--mass, --stiffness, --damping, --velocity), or directly (--frequency, --damping-ratio). Prints the \
            spring's natural frequency, damping ratio, regime and settling duration (within 0.001 of the end), \
            then one line per sample: time (s), progress (0 at the start, 1 at the end) and velocity (progress/s). \
            Exit status: 0, 64 for bad options, 73/74 when the plot cannot be written.
            """
    )

    @Option(parsing: .unconditional, help: "UIKit's total duration of the animation, s (with --damping-ratio).")
    var duration: Double?

    @Option(parsing: .unconditional, help: "Damping ratio ζ: 1 is critical, below 1 overshoots (UIKit's usingSpringWithDamping).")
    var dampingRatio: Double?

    @Option(parsing: .unconditional, help: "Natural frequency ω, rad/s (with --damping-ratio).")
    var frequency: Double?

    @Option(parsing: .unconditional, help: "Mass (with --stiffness and --damping; default 1).")
    var mass: Double?

    @Option(parsing: .unconditional, help: "Stiffness (CASpringAnimation).")
    var stiffness: Double?

    @Option(parsing: .unconditional, help: "Damping coefficient (CASpringAnimation).")
    var damping: Double?

    @Option(parsing: .unconditional, help: "Initial velocity, progress per second (UIKit's initialSpringVelocity; default 0).")
    var velocity: Double = 0

    @Option(parsing: .unconditional, help: "Seconds to cover (default: the settling duration, or the duration given).")
    var seconds: Double?

    @Option(parsing: .unconditional, help: "Samples, 2…100000.")
    var samples: Int = 61

    @Option(help: "Also write the curve as an SVG plot to this file.")
    var svg: String?

    /// The curve the options describe; every number is checked before the curve is made.
    func curve() throws -> SpringTimingCurve {
        func check(_ value: Double, _ name: String, _ valid: (Double) -> Bool, _ range: String) throws {
            guard value.isFinite, valid(value) else { throw ValidationError("--\(name) must be \(range), got \(value)") }
        }
        try check(velocity, "velocity", { abs($0) <= 1e9 }, "finite and at most 1e9")
        switch (duration, frequency, stiffness) {
        case (let duration?, nil, nil):
            guard let ratio = dampingRatio else { throw ValidationError("--duration needs --damping-ratio") }
            try check(duration, "duration", { $0 > 0 && $0 <= 1e4 }, "in (0, 10000] s")
            try check(ratio, "damping-ratio", { $0 > 0 && $0 <= 1000 }, "in (0, 1000]")
            return SpringTimingCurve(duration: duration, dampingRatio: ratio, initialVelocity: velocity)
        case (nil, let frequency?, nil):
            guard let ratio = dampingRatio else { throw ValidationError("--frequency needs --damping-ratio") }
            try check(frequency, "frequency", { $0 > 0 && $0 <= 1e6 }, "in (0, 1e6] rad/s")
            try check(ratio, "damping-ratio", { $0 >= 0 && $0 <= 1000 }, "in [0, 1000]")
            return SpringTimingCurve(naturalFrequency: frequency, dampingRatio: ratio, initialVelocity: velocity)
        case (nil, nil, let stiffness?):
            guard let damping else { throw ValidationError("--stiffness needs --damping") }
            guard dampingRatio == nil else { throw ValidationError("--damping-ratio does not go with --stiffness") }
            let mass = self.mass ?? 1
            try check(mass, "mass", { $0 > 0 && $0 <= 1e12 }, "in (0, 1e12]")
            try check(stiffness, "stiffness", { $0 > 0 && $0 <= 1e12 }, "in (0, 1e12]")
            try check(damping, "damping", { $0 >= 0 && $0 <= 1e12 }, "in [0, 1e12]")
            let omega = (stiffness / mass).squareRoot(), ratio = damping / (2 * (stiffness * mass).squareRoot())
            try check(omega, "stiffness", { $0 <= 1e6 }, "at most 1e12 × mass (ω ≤ 1e6 rad/s)")
            try check(ratio, "damping", { $0 <= 1000 }, "at most 2000 √(stiffness · mass) (ζ ≤ 1000)")
            return SpringTimingCurve(mass: mass, stiffness: stiffness, damping: damping, initialVelocity: velocity)
        default:
            throw ValidationError("give one of --duration, --frequency or --stiffness (see --help)")
        }
    }

    func run() throws {
        let curve = try curve()
        guard (2...100_000).contains(samples) else { throw ValidationError("--samples must be 2…100000, got \(samples)") }
        let settling = curve.settlingDuration
        let span = seconds ?? duration ?? (settling.isFinite ? settling : 10 / curve.naturalFrequency)
        guard span.isFinite, span > 0, span <= 1e6 else { throw ValidationError("--seconds must be in (0, 1e6], got \(span)") }
        let times = (0..<samples).map { span * Double($0) / Double(samples - 1) }
        try reportingFailures {
            var text = String(format: "# natural frequency %.6g rad/s, damping ratio %.6g (%@), initial velocity %.6g/s, settles (0.001) at %.6g s\n",
                              curve.naturalFrequency, curve.dampingRatio, curve.regime.rawValue, curve.initialVelocity, settling)
            text += "time\tprogress\tvelocity\n"
            for t in times { text += String(format: "%.6f\t%.6f\t%.6f\n", t, curve.progress(at: t), curve.velocity(at: t)) }
            FileHandle.standardOutput.write(Data(text.utf8))
            if let svg {
                let file = try AtomicFile(svg)
                try file.write(Self.plot(curve, times: times))
                try file.commit()
                AtomicFile.reportWritten(quiet: false)
            }
        }
    }

    /// The curve as an SVG line chart: progress against time, with the end value and the settling band.
    static func plot(_ curve: SpringTimingCurve, times: [Double]) -> String {
        let (width, height, margin) = (640.0, 400.0, 56.0)
        let values = times.map(curve.progress(at:))
        let top = max(1.1, (values.max() ?? 1) + 0.05), bottom = min(0, (values.min() ?? 0) - 0.05)
        let span = times.last ?? 1
        func x(_ t: Double) -> Double { margin + (width - 2 * margin) * t / span }
        func y(_ p: Double) -> Double { height - margin - (height - 2 * margin) * (p - bottom) / (top - bottom) }
        let line = zip(times, values).map { String(format: "%.2f,%.2f", x($0), y($1)) }.joined(separator: " ")
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <line x1="\(margin)" y1="\(y(bottom))" x2="\(width - margin)" y2="\(y(bottom))" stroke="black"/>
            <line x1="\(margin)" y1="\(y(bottom))" x2="\(margin)" y2="\(y(top))" stroke="black"/>
            <line x1="\(margin)" y1="\(y(1))" x2="\(width - margin)" y2="\(y(1))" stroke="#999" stroke-dasharray="4 4"/>
            <polyline fill="none" stroke="#1f6feb" stroke-width="2" points="\(line)"/>

            """
        for k in 0...4 {
            let t = span * Double(k) / 4
            svg += String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%.3g</text>\n", x(t), height - margin + 18, t)
        }
        for p in [0.0, 0.5, 1.0] {
            svg += String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>\n", margin - 6, y(p) + 4, p)
        }
        svg += String(format: "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">time (s)</text>\n", width / 2, height - 12)
        svg += String(format: "<text x=\"16\" y=\"%.1f\" transform=\"rotate(-90 16 %.1f)\" text-anchor=\"middle\">progress</text>\n",
                      height / 2, height / 2)
        svg += String(format: "<text x=\"%.1f\" y=\"24\" text-anchor=\"middle\">ω %.4g rad/s, ζ %.3g, v₀ %.3g/s (%@), settles at %.4g s</text>\n",
                      width / 2, curve.naturalFrequency, curve.dampingRatio, curve.initialVelocity, curve.regime.rawValue,
                      curve.settlingDuration)
        return svg + "</svg>\n"
    }
}
