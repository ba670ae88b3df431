// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// The UIKit Dynamics examples, each as Swift written the UIKit way (in this folder) and as a scene file
/// with a timeline (`Sources/DynamicsScenes/Resources/examples`), checked for the outcome the example shows.
@Suite struct ExampleTests {
    static let bounds = CGRect(x: 0, y: 0, width: 320, height: 568)

    @Test("flick: the card follows the finger, is thrown at the finger's speed on release, and rests inside the bounds")
    func flick() {
        let example = FlickExample(bounds: Self.bounds)
        let start = CGPoint(x: 180, y: 300)
        example.panBegan(at: start)
        // The finger moves up and right at (120, −480) pt/s for 0.25 s, one touch per frame.
        for frame in 1...15 {
            example.panChanged(to: CGPoint(x: start.x + 2 * CGFloat(frame), y: start.y - 8 * CGFloat(frame)))
            example.animator.step(by: 1.0 / 60)
        }
        // The touched point of the card (20, 16) from its centre, turning with it, follows the finger.
        let touched = CGPoint(x: start.x + 30, y: start.y - 120), angle = example.card.rotation
        let grip = CGPoint(x: example.card.center.x + 20 * cos(angle) - 16 * sin(angle),
                           y: example.card.center.y + 20 * sin(angle) + 16 * cos(angle))
        #expect(hypot(grip.x - touched.x, grip.y - touched.y) < 10, "the card lags the finger: \(grip) vs \(touched)")
        let before = example.velocity
        example.panEnded(velocity: CGVector(dx: 120, dy: -480))
        example.animator.step(by: 1.0 / 60)
        // An instantaneous push of magnitude P changes the velocity by 100 · P / m: here by the finger's velocity
        // (m = 1), less one step of resistance.
        let thrown = example.velocity
        #expect(thrown.y < before.y - 400, "thrown up: \(before) → \(thrown)")
        var highest = example.card.center.y
        for _ in 0..<120 {
            example.animator.step(by: 1.0 / 60)
            highest = min(highest, example.card.center.y)
        }
        // A 100 pt card touching the top edge has its centre at most 71 pt below it (50 when square to it).
        #expect(highest < 71, "thrown up, it reaches the top edge: centre at \(highest)")
        #expect(example.animator.runUntilPaused(timeout: 20), "the card does not come to rest")
        #expect(Self.bounds.contains(example.card.center), "the card left the bounds: \(example.card.center)")
    }

    @Test("flick as a scene file: the same drag and throw from its timeline")
    func flickScene() throws {
        let url = try #require(SceneDocument.exampleFiles.first { $0.deletingPathExtension().lastPathComponent == "flick" })
        let run = try SceneRun(try SceneDocument.parse(try Data(contentsOf: url)))
        var highest = Double.infinity
        while run.time < 6 - 1e-9 {
            try run.step()
            highest = min(highest, run.world.pose(of: run.itemIDs[0]).center.y)
        }
        // A 100 pt card touching the top edge has its centre at most 71 pt below it (50 when square to it).
        #expect(highest < 71, "thrown up, it reaches the top edge: centre at \(highest)")
        let center = run.world.pose(of: run.itemIDs[0]).center
        #expect(Self.bounds.insetBy(dx: 40, dy: 40).contains(center), "the card at \(center)")
        #expect(run.world.awakeItemCount == 0, "the card still moves")
    }

    @Test("falling square: it comes to rest on the bottom edge and the animator pauses")
    func fallingSquare() {
        let example = FallingSquareExample(bounds: Self.bounds)
        #expect(example.animator.runUntilPaused(timeout: 10), "still moving after 10 s")
        #expect(example.paused == 1)
        #expect(abs(example.square.frame.maxY - Self.bounds.maxY) < 1, "resting at \(example.square.frame)")
        #expect(abs(example.square.rotation) < 1e-3 && abs(example.square.center.x - 150) < 1e-3)
    }

    @Test("falling square as a scene file: it lands on the bottom edge, is flicked sideways at 1 s and rests there")
    func fallingSquareScene() throws {
        let url = try #require(SceneDocument.exampleFiles.first { $0.deletingPathExtension().lastPathComponent == "falling-square" })
        let run = try SceneRun(try SceneDocument.parse(try Data(contentsOf: url)))
        var lowest = -Double.infinity
        while run.time < 0.99 {
            try run.step()
            lowest = max(lowest, run.world.pose(of: run.itemIDs[0]).center.y)
        }
        let landed = run.world.pose(of: run.itemIDs[0]).center
        #expect(abs(lowest - 550) < 1.5, "it lands on the bottom edge of the 600 pt bounds (elasticity 0.3: it bounces): \(lowest)")
        while run.time < 3 - 1e-9 { try run.step() }
        let rest = run.world.pose(of: run.itemIDs[0]).center
        #expect(abs(rest.y - 550) < 1 && rest.x > landed.x + 20, "flicked sideways along the edge: \(rest)")
    }

    @Test("sticky corners: a card dragged and thrown sticks in the half it was thrown into",
          arguments: [(2_000.0, 600.0), (300.0, 200.0), (-2_000.0, 200.0)])
    func stickyCorners(flick: Double, restY: Double) {
        let bounds = CGRect(x: 0, y: 0, width: 400, height: 800)
        let start = flick < 0 ? 600.0 : 200.0
        let example = StickyCornersExample(bounds: bounds, cardAt: CGPoint(x: 200, y: start))
        example.panBegan(at: CGPoint(x: 200, y: start))
        for frame in 1...6 {  // a short drag in the throw's direction, then the release
            example.panChanged(to: CGPoint(x: 200, y: start + flick / 60 * Double(frame) / 6))
            example.animator.step(by: 1.0 / 60)
        }
        example.panEnded(velocity: CGVector(dx: 0, dy: flick * 15))
        #expect(example.animator.runUntilPaused(timeout: 10), "the card comes to rest")
        #expect(abs(example.card.center.y - restY) < 5 && abs(example.card.center.x - 200) < 5,
                "thrown at \(flick * 15) pt/s: \(example.card.center)")
    }

    @Test("nine-ball chain as a scene file: dragged with and against gravity, its links hold within 2 %, and it rests")
    func nineBallChainScene() throws {
        let url = try #require(SceneDocument.exampleFiles.first { $0.deletingPathExtension().lastPathComponent == "nine-ball-chain" })
        let run = try SceneRun(try SceneDocument.parse(try Data(contentsOf: url)))
        var stretch = 0.0
        while run.time < 15 - 1e-9 {
            try run.step()
            let centres = run.itemIDs.prefix(9).map { run.world.pose(of: $0).center }
            for (a, b) in zip(centres, centres.dropFirst()) {
                stretch = max(stretch, abs(hypot(b.x - a.x, b.y - a.y) - 25) / 25)
            }
        }
        #expect(stretch < 0.02, "a link stretched by \(stretch * 100) %")
        #expect(run.world.awakeItemCount == 0, "still moving after 15 s")
        for id in run.itemIDs { #expect(Self.bounds.insetBy(dx: 9, dy: 9).contains(run.world.pose(of: id).center)) }
    }

    @Test("alert view: it snaps to the centre (damping 0.8), and dismissed it dips, then flies up off the screen")
    func alertView() {
        let example = AlertViewExample(bounds: Self.bounds)
        example.show()
        #expect(example.animator.runUntilPaused(timeout: 10), "the alert does not settle")
        #expect(hypot(example.alert.center.x - 160, example.alert.center.y - 284) < 1, "\(example.alert.center)")
        example.dismiss()
        var lowest = example.alert.center.y
        example.animator.step(by: 0.3)
        lowest = max(lowest, example.alert.center.y)
        // The push: Δv = 100 · 20 / m down, m = 250 · 150 / 10 000 = 3.75, so 533 pt/s; gravity 1000 pt/s² up
        // stops it after 0.53 s, 142 pt lower.
        var dipped = lowest
        for _ in 0..<30 {
            example.animator.step(by: 1.0 / 60)
            dipped = max(dipped, example.alert.center.y)
        }
        #expect(abs(dipped - (284 + 533.3 * 533.3 / 2000)) < 10, "it dips to \(dipped)")
        #expect(example.animator.runUntilPaused(timeout: 10), "the alert does not land")
        #expect(abs(example.alert.frame.minY - (-400)) < 1 && example.alert.frame.maxY < 0,
                "off the screen against the line above: \(example.alert.frame)")
    }

    @Test("alert view as a scene file: shown by the snap, dismissed at 3 s by its timeline, it lands above the screen")
    func alertViewScene() throws {
        let url = try #require(SceneDocument.exampleFiles.first { $0.deletingPathExtension().lastPathComponent == "alert-view" })
        let run = try SceneRun(try SceneDocument.parse(try Data(contentsOf: url)))
        while run.time < 2.99 { try run.step() }
        let shown = run.world.pose(of: run.itemIDs[0]).center
        #expect(hypot(shown.x - 160, shown.y - 284) < 1, "shown at the centre: \(shown)")
        while run.time < 6 - 1e-9 { try run.step() }
        let gone = run.world.pose(of: run.itemIDs[0]).center
        #expect(abs(gone.y - (-400 + 75)) < 1 && run.world.awakeItemCount == 0, "landed against the line above: \(gone)")
    }

    /// The documented law for a push of acceleration `a` (pt/s²) with resistance c for `steps` steps of 4
    /// substeps: v ← (v + h·a) / (1 + h·c), x ← x + h·v per substep. Returns the distance and the speed.
    static func pushed(_ a: Double, resistance c: Double, steps: Int, from v0: Double = 0) -> (x: Double, v: Double) {
        let h = 1.0 / 240
        var (x, v) = (0.0, v0)
        for _ in 0..<(4 * steps) {
            v = (v + h * a) / (1 + h * c)
            x += h * v
        }
        return (x, v)
    }

    @Test("push by drag: while the finger is down the square accelerates at 100 · P / m toward the drag, then slows to rest")
    func pushByDrag() {
        let example = PushByDragExample(bounds: Self.bounds)
        let x0 = example.square.center.x
        example.panBegan(at: CGPoint(x: 100, y: 300))
        example.panChanged(to: CGPoint(x: 250, y: 300))  // 150 pt right: P = 1.5, 150 pt/s² on mass 1
        example.animator.step(by: 1)
        let during = Self.pushed(150, resistance: 1, steps: 60)
        #expect(abs((example.square.center.x - x0) - during.x) < 0.5, "moved \(example.square.center.x - x0), law \(during.x)")
        example.panEnded()
        example.animator.step(by: 1)
        let after = Self.pushed(0, resistance: 1, steps: 60, from: during.v)
        #expect(abs((example.square.center.x - x0) - (during.x + after.x)) < 1, "coasted to \(example.square.center.x - x0)")
        #expect(example.animator.runUntilPaused(timeout: 30) && Self.bounds.contains(example.square.center))
    }

    @Test("push by drag as a scene file: the push is on from 0.5 s to 1.5 s by its timeline")
    func pushByDragScene() throws {
        let url = try #require(SceneDocument.exampleFiles.first { $0.deletingPathExtension().lastPathComponent == "push-by-drag" })
        let run = try SceneRun(try SceneDocument.parse(try Data(contentsOf: url)))
        let x0 = run.world.pose(of: run.itemIDs[0]).center.x
        while run.time < 2.5 - 1e-9 { try run.step() }
        let during = Self.pushed(150, resistance: 1, steps: 60), after = Self.pushed(0, resistance: 1, steps: 60, from: during.v)
        let moved = run.world.pose(of: run.itemIDs[0]).center.x - x0
        #expect(abs(moved - (during.x + after.x)) < 1, "moved \(moved), law \(during.x + after.x)")
    }

    @Test("a square turned by π/4 stays balanced on its corner; turned by π/4 ± 0.01 it topples to that side",
          arguments: [(0.0, 0), (0.01, 1), (-0.01, -1)])
    func balancedSquare(tilt: Double, side: Int) {
        let example = BalancedSquareExample(bounds: Self.bounds, angle: .pi / 4 + tilt)
        let x0 = example.square.center.x
        example.animator.step(by: 4)
        let turn = example.square.rotation - .pi / 4
        if side == 0 {
            #expect(abs(turn) < 1e-3 && abs(example.square.center.x - x0) < 0.1, "balanced: turned \(turn), at \(example.square.center)")
            #expect(abs(example.square.center.y - (568 - 50 * 2.squareRoot())) < 1, "on its corner: \(example.square.center)")
        } else {
            // Toppled onto a side: a quarter turn's worth of rotation from the corner, the centre 50 pt up.
            #expect(abs(abs(turn) - .pi / 4) < 0.01 && turn * Double(side) > 0, "turned \(turn)")
            #expect(abs(example.square.center.y - 518) < 1 && (example.square.center.x - x0) * Double(side) > 10,
                    "toppled toward \(side): \(example.square.center)")
        }
    }

    @Test("balanced square as a scene file: the middle one stays on its corner, its neighbours topple outward")
    func balancedSquareScene() throws {
        let url = try #require(SceneDocument.exampleFiles.first { $0.deletingPathExtension().lastPathComponent == "balanced-square" })
        let run = try SceneRun(try SceneDocument.parse(try Data(contentsOf: url)))
        while run.time < 4 - 1e-9 { try run.step() }
        let poses = run.itemIDs.map { run.world.pose(of: $0) }
        #expect(abs(poses[1].angle - .pi / 4) < 1e-3 && abs(poses[1].center.x - 450) < 0.1, "balanced: \(poses[1])")
        #expect(poses[0].center.x < 140 && abs(poses[0].center.y - 518) < 1, "the left one toppled left: \(poses[0])")
        #expect(poses[2].center.x > 760 && abs(poses[2].center.y - 518) < 1, "the right one toppled right: \(poses[2])")
    }

    @Test("line and arc boundaries: the ball drops on the ramp, rolls into the bowl and rests on the arc, not its chords")
    func boundaries() {
        let example = BoundariesExample(bounds: Self.bounds)
        #expect(example.animator.runUntilPaused(timeout: 30), "the ball does not settle")
        #expect(example.touched.first == "ramp" && example.touched.contains("bowl"), "touched \(example.touched)")
        // At rest at the bowl's bottom, touching the arc: its centre 120 − 15 pt below the bowl's centre. (The
        // arc is drawn as 1/32-turn chords, which sag at most 0.6 pt inside the circle.)
        let c = example.ball.center, centre = BoundariesExample.bowlCentre
        #expect(abs(c.x - centre.x) < 2 && abs(hypot(c.x - centre.x, c.y - centre.y) - 105) < 1, "at rest at \(c)")
        #expect(example.actions == Int((example.animator.elapsedTime * 60).rounded()), "the action runs once per step")
        #expect(example.lowest >= c.y - 1e-9)
    }

    @Test("line and arc boundaries as a scene file: the ball rests at the bowl's bottom, on the arc")
    func boundariesScene() throws {
        let url = try #require(SceneDocument.exampleFiles.first { $0.deletingPathExtension().lastPathComponent == "line-and-arc" })
        let run = try SceneRun(try SceneDocument.parse(try Data(contentsOf: url)))
        while run.time < 12 - 1e-9 { try run.step() }
        let c = run.world.pose(of: run.itemIDs[0]).center
        #expect(abs(c.x - 160) < 2 && abs(hypot(c.x - 160, c.y - 300) - 105) < 1 && run.world.awakeItemCount == 0, "at \(c)")
    }

    @Test("position-to-bounds mapping: the button's size swings as a 2 Hz, ζ 0.3 spring from the push and settles back")
    func positionToBounds() {
        let example = PositionToBoundsExample()
        // The push: Δv = 100 · 2 / m at π/4, m = 100 · 50 / 10 000 = 0.5, so 400 pt/s; the size then moves as
        // the damped oscillator d(t) = v/ω_d · exp(−ζωt) sin(ω_d t) along (1, 1)/√2.
        let (omega, zeta, v) = (2 * Double.pi * 2, 0.3, 400.0)
        let wd = omega * (1 - zeta * zeta).squareRoot()
        var peak = 0.0, peakTime = 0.0
        for frame in 1...60 {
            example.animator.step(by: 1.0 / 60)
            let grown = (example.button.bounds.width - 100) * 2.squareRoot()
            if grown > peak { (peak, peakTime) = (grown, Double(frame) / 60) }
        }
        let lawPeakTime = atan(wd / (zeta * omega)) / wd
        let lawPeak = v / wd * exp(-zeta * omega * lawPeakTime) * sin(wd * lawPeakTime)
        // The push acts at the start of the first step: the motion runs from there, sampled once per frame.
        #expect(abs(peak - lawPeak) < 0.03 * lawPeak, "peak growth \(peak) pt, law \(lawPeak) pt")
        #expect(abs(peakTime - lawPeakTime) <= 1.0 / 60 + 1e-9, "peak at \(peakTime) s, law \(lawPeakTime) s")
        #expect(abs(example.button.bounds.width - example.button.bounds.height - 50) < 1e-3, "it grows evenly")
        #expect(example.animator.runUntilPaused(timeout: 20), "it does not settle")
        #expect(abs(example.button.bounds.width - 100) < 0.5 && abs(example.button.bounds.height - 50) < 0.5,
                "back to 100 × 50: \(example.button.bounds.size)")
    }

    @Test("position-to-bounds as a scene file: the mapped item swings as the same spring and settles at its anchor")
    func positionToBoundsScene() throws {
        let url = try #require(SceneDocument.exampleFiles.first { $0.deletingPathExtension().lastPathComponent == "position-to-bounds" })
        let run = try SceneRun(try SceneDocument.parse(try Data(contentsOf: url)))
        let (omega, zeta, v) = (2 * Double.pi * 2, 0.3, 400.0)
        let wd = omega * (1 - zeta * zeta).squareRoot(), lawPeakTime = atan(wd / (zeta * omega)) / wd
        let lawPeak = v / wd * exp(-zeta * omega * lawPeakTime) * sin(wd * lawPeakTime)
        var peak = 0.0
        while run.time < 4 - 1e-9 {
            try run.step()
            let c = run.world.pose(of: run.itemIDs[0]).center
            peak = max(peak, hypot(c.x - 100, c.y - 50))
        }
        #expect(abs(peak - lawPeak) < 0.03 * lawPeak, "peak \(peak) pt, law \(lawPeak) pt")
        let c = run.world.pose(of: run.itemIDs[0]).center
        #expect(hypot(c.x - 100, c.y - 50) < 0.5, "settled at \(c)")
    }

    @Test("shade: pulled down it lands on the bottom edge (the delegate hears the nil boundary); pulled up it hides")
    func shade() {
        let example = ShadeExample(bounds: Self.bounds)
        example.pull(down: true)
        #expect(example.animator.runUntilPaused(timeout: 10), "the shade does not land")
        #expect(abs(example.shade.frame.maxY - 568) < 1, "landed at \(example.shade.frame)")
        #expect(example.boundaryContacts == ["reference bounds"], "contacts: \(example.boundaryContacts)")
        example.pull(down: false)
        #expect(example.animator.runUntilPaused(timeout: 10), "the shade does not rise")
        #expect(abs(example.shade.frame.maxY - 40) < 0.5, "raised to \(example.shade.frame)")
    }

    @Test("shade as a scene file: pulled down at 0.5 s it lands on the bottom edge, pulled up at 3 s it hides")
    func shadeScene() throws {
        let url = try #require(SceneDocument.exampleFiles.first { $0.deletingPathExtension().lastPathComponent == "shade" })
        let run = try SceneRun(try SceneDocument.parse(try Data(contentsOf: url)))
        while run.time < 2.99 { try run.step() }
        #expect(abs(run.world.pose(of: run.itemIDs[0]).center.y + 284 - 568) < 1, "landed: \(run.world.pose(of: run.itemIDs[0]).center)")
        while run.time < 6 - 1e-9 { try run.step() }
        #expect(abs(run.world.pose(of: run.itemIDs[0]).center.y + 284 - 40) < 0.5, "hidden: \(run.world.pose(of: run.itemIDs[0]).center)")
    }

    @Test("drop-out presentation: it lands, the composite removes itself after 1.2 s; dismissed it hangs from its corner, then falls out")
    func dropOut() {
        let example = DropOutExample(bounds: Self.bounds)
        example.present()
        example.animator.step(by: 1.5)
        #expect(example.animator.behaviors.isEmpty, "the drop-in behaviour removed itself")
        #expect(abs(example.card.frame.maxY - (284 + 60)) < 5, "landed on the floor: \(example.card.frame)")
        let anchor = CGPoint(x: example.card.center.x - 100, y: example.card.center.y - 60)
        example.dismiss()
        var hanging = example.card.center
        while example.animator.isRunning && example.animator.elapsedTime < 30 && !example.letGo {
            hanging = example.card.center
            example.animator.step(by: 1.0 / 60)
        }
        // Hanging from its top-left corner, the card's centre rests straight below the corner, a half
        // diagonal (116.6 pt) away; then the delegate lets it go and it falls out of the screen. The card
        // is a compound pendulum of ω = √(m g d / I) = 2.5 rad/s, so the rest threshold of 2°/s held for
        // 0.5 s pauses it within a swing of about 0.02 rad of the vertical: 2–3 pt sideways.
        #expect(example.letGo, "the delegate let it go when the animator paused")
        #expect(abs(hanging.x - anchor.x) < 3 && abs(hypot(hanging.x - anchor.x, hanging.y - anchor.y) - 116.6) < 1,
                "hanging at \(hanging), corner at \(anchor)")
        example.animator.step(by: 1)
        #expect(example.card.frame.minY > Self.bounds.maxY, "fell out of the screen: \(example.card.frame)")
    }

    @Test("drop-out as a scene file: it lands on the floor, hangs from its corner when the floor has gone, and falls out when let go")
    func dropOutScene() throws {
        let url = try #require(SceneDocument.exampleFiles.first { $0.deletingPathExtension().lastPathComponent == "drop-out" })
        let run = try SceneRun(try SceneDocument.parse(try Data(contentsOf: url)))
        let card = run.itemIDs[0]
        while run.time < 1.19 { try run.step() }
        #expect(abs(run.world.pose(of: card).center.y + 60 - 344) < 5, "landed: \(run.world.pose(of: card).center)")
        #expect(run.boundaryOutlines.count == 1 && run.timedBoundaryOutlines[0].removedAt == 1.2, "the floor is drawn until 1.2 s")
        while run.time < 1.21 { try run.step() }
        #expect(run.boundaryOutlines.isEmpty && run.boundaryNames.isEmpty, "the floor went with its behaviour")
        // Hung at 2 s from its top-left corner (60, 224): by 8 s its centre swings within a few points of
        // straight below the corner, a half diagonal (116.6 pt) away, where the floor line used to be.
        while run.time < 7.99 { try run.step() }
        let hanging = run.world.pose(of: card).center
        #expect(abs(hanging.x - 60) < 5 && abs(hypot(hanging.x - 60, hanging.y - 224) - 116.6) < 1, "hanging at \(hanging)")
        while run.time < 10 - 1e-9 { try run.step() }
        #expect(run.world.pose(of: card).center.y - 117 > 568, "fell out: \(run.world.pose(of: card).center)")
    }
}
