// SPDX-License-Identifier: Apache-2.0
import Dynamics
import DynamicsScenes
import Foundation
import Testing

/// Pin motors and angular springs (Beyond UIKit) against closed forms: a torque τ (N·pt) turns an inertia I at
/// 100 τ / I rad/s² (Units and semantics, §Attachments), a motor applies at most its maximum torque toward its
/// speed, a load that needs more than that turns the pin at the difference's rate, and a sprung pin is a damped
/// oscillator of its frequency and damping ratio.
@Suite struct AttachmentMotorTests {
    func world(simd: SIMDLevel = .automatic) throws -> DynamicWorld { try restlessWorld(simd: simd) }

    /// A wheel of radius 50 pt pinned at its centre to an anchored hub by `kind`.
    func wheel(_ kind: AttachmentKind, simd: SIMDLevel = .automatic) throws -> (DynamicWorld, ItemID, AttachmentID) {
        let w = try world(simd: simd)
        var anchored = ItemDescription()
        anchored.isAnchored = true
        let hub = try w.createItems(anchored, at: [.zero])[0]
        let wheel = try w.createItems(ItemDescription(shape: .ellipse(width: 100, height: 100)), at: [.zero])[0]
        let pin = try w.addAttachments(kind, items: [wheel], to: [hub], anchors: [.zero])[0]
        return (w, wheel, pin)
    }

    @Test("a motor spins a wheel up at 100 τ / I until its speed, then holds it", arguments: [SIMDLevel.automatic, .scalar])
    func spinUp(simd: SIMDLevel) throws {
        let speed: CGFloat = 5
        let (probe, probeWheel, _) = try wheel(.pin(), simd: simd)
        let inertia = probe.inertia(of: probeWheel)
        let torque = inertia * speed / 0.5 / 100 // reaches the speed in 0.5 s (30 steps)
        let (w, item, _) = try wheel(.pin(motor: AttachmentMotor(speed: speed, maximumTorque: torque)), simd: simd)
        try w.step(count: 15)
        let alpha = 100 * torque / inertia
        #expect(abs(w.angularVelocity(of: item) - alpha * 0.25) < 1e-3 * speed, "ω \(w.angularVelocity(of: item)) after 0.25 s")
        try w.step(count: 45)
        #expect(abs(w.angularVelocity(of: item) - speed) < 1e-4 * speed, "ω \(w.angularVelocity(of: item)), speed \(speed)")
        // An unlimited motor reaches its speed within the first substep.
        let (u, free, _) = try wheel(.pin(motor: AttachmentMotor(speed: -speed)), simd: simd)
        try u.step(count: 1)
        #expect(abs(u.angularVelocity(of: free) + speed) < 1e-4 * speed, "ω \(u.angularVelocity(of: free))")
    }

    @Test("a motor holds a load below its torque and gives way to one above it at the difference's rate")
    func stall() throws {
        // A bar of 200 pt pinned at its left end to the world, horizontal, under gravity g: its weight needs
        // m g L / 2 (mass·pt²/s²) about the pin, τ = m g L / 200 in N·pt.
        func bar(_ fraction: CGFloat) throws -> (angle: CGFloat, expected: CGFloat) {
            let w = try world()
            let item = try w.createItems(ItemDescription(shape: .rectangle(width: 200, height: 10)), at: [CGPoint(x: 100, y: 0)])[0]
            let g: CGFloat = 1000
            try w.setGravity(CGVector(dx: 0, dy: g), for: [item])
            let mass = w.mass(of: item), inertiaAtPin = w.inertia(of: item) + mass * 100 * 100
            let demand = mass * g * 100 / 100 // N·pt
            try w.addAttachments(.pin(motor: AttachmentMotor(speed: 0, maximumTorque: fraction * demand)), items: [item],
                                 to: [nil], anchors: [.zero])
            // 0.1 s, 24 substeps of h: semi-implicit Euler turns the bar by α h² n (n + 1) / 2, α = 100 (demand − τ) / I,
            // while cos θ ≈ 1.
            try w.step(count: 6)
            let alpha = 100 * max(0, demand - fraction * demand) / inertiaAtPin, h = 0.1 / 24
            return (w.pose(of: item).angle, alpha * h * h * 24 * 25 / 2)
        }
        let held = try bar(1.5)
        let given = try bar(0.5)
        #expect(abs(held.angle) < 0.02 * given.angle, "a motor 1.5 times the load's torque let it turn \(held.angle) rad")
        // The pin's point rows are stiff springs (rigid attachments outside chains), which the closed form leaves
        // out; against the unmotored bar, which shares them, the half torque halves the fall within 5 %.
        #expect(abs(given.angle - given.expected) < 0.05 * given.expected,
                "a motor half the load's torque: turned \(given.angle) rad, expected \(given.expected)")
        let free = try bar(0)
        #expect(abs(given.angle - 0.5 * free.angle) < 0.05 * free.angle, "half the load's torque halves the fall")

        // With three times the load's torque, a motor lifts the bar at its speed and holds that speed under
        // the load (gravity pulls the angle positive).
        let w = try world()
        let item = try w.createItems(ItemDescription(shape: .rectangle(width: 200, height: 10)), at: [CGPoint(x: 100, y: 0)])[0]
        try w.setGravity(CGVector(dx: 0, dy: 1000), for: [item])
        let demand = w.mass(of: item) * 1000 * 100 / 100
        try w.addAttachments(.pin(motor: AttachmentMotor(speed: -1, maximumTorque: 3 * demand)), items: [item], to: [nil],
                             anchors: [.zero])
        var worst: CGFloat = 0
        for step in 0..<60 {
            try w.step(count: 1)
            if step >= 10 { worst = max(worst, abs(w.angularVelocity(of: item) + 1)) }
        }
        #expect(worst < 1e-3, "ω strayed \(worst) rad/s from the motor's −1 under the load")
        #expect(abs(w.pose(of: item).angle + 1) < 0.05, "lifted to \(w.pose(of: item).angle) rad in 1 s")
    }

    @Test("a motor drives against the pin's friction and stays within the pin's range")
    func withFrictionAndRange() throws {
        // Friction τ_f below the motor's τ_m: the wheel speeds up at 100 (τ_m − τ_f) / I.
        let (probe, probeWheel, _) = try wheel(.pin())
        let inertia = probe.inertia(of: probeWheel)
        let motorTorque = inertia / 100, frictionTorque = 0.25 * inertia / 100 // α 1 and 0.25 rad/s²
        let (w, item, _) = try wheel(.pin(frictionTorque: frictionTorque,
                                          motor: AttachmentMotor(speed: 10, maximumTorque: motorTorque)))
        try w.step(count: 60)
        #expect(abs(w.angularVelocity(of: item) - 0.75) < 0.01, "ω \(w.angularVelocity(of: item)), expected 0.75")
        // Friction above the motor's torque holds the wheel still.
        let (h, held, _) = try wheel(.pin(frictionTorque: 2 * motorTorque, motor: AttachmentMotor(speed: 10, maximumTorque: motorTorque)))
        try h.step(count: 60)
        #expect(abs(h.angularVelocity(of: held)) < 1e-6, "ω \(h.angularVelocity(of: held))")
        // A motor turns the wheel up to the range's upper limit, and no further: the range holds a torque that
        // accelerates the wheel at 20 rad/s² (an unlimited motor overpowers it: AttachmentMotor).
        let (r, ranged, _) = try wheel(.pin(range: FloatRange(minimum: -1, maximum: 1),
                                            motor: AttachmentMotor(speed: 3, maximumTorque: 20 * inertia / 100)))
        try r.step(count: 120)
        #expect(abs(r.pose(of: ranged).angle - 1) < 0.02, "stopped at \(r.pose(of: ranged).angle) rad, limit 1")
    }

    @Test("a motor's speed changes with updateAttachment, and bad motors throw naming the field")
    func update() throws {
        let (w, item, pin) = try wheel(.pin(motor: AttachmentMotor(speed: 2)))
        try w.step(count: 10)
        #expect(abs(w.angularVelocity(of: item) - 2) < 1e-4)
        try w.updateAttachment(pin, to: .pin(motor: AttachmentMotor(speed: -4)), length: 0)
        try w.step(count: 10)
        #expect(abs(w.angularVelocity(of: item) + 4) < 1e-4)
        try w.updateAttachment(pin, to: .pin(), length: 0)
        try w.addVelocity(.zero, angular: 1, for: [item])
        try w.step(count: 10)
        #expect(abs(w.angularVelocity(of: item) - (-4 + 1)) < 1e-4, "without the motor the wheel keeps turning")
        for (motor, field) in [(AttachmentMotor(speed: .nan), "motorSpeed"), (AttachmentMotor(speed: 1, maximumTorque: -1), "maximumMotorTorque"),
                               (AttachmentMotor(speed: 1e9), "motorSpeed")] {
            do {
                try w.updateAttachment(pin, to: .pin(motor: motor), length: 0)
                Issue.record("\(motor) was accepted")
            } catch {
                #expect("\(error)".contains(field), "\(error)")
            }
        }
    }

    /// An animator with a 100 × 100 pt wheel pinned at its centre to an anchored post; `configure` sets the pin
    /// up before it is added.
    func pinnedWheel(_ configure: (AttachmentBehavior) -> Void) -> (DynamicAnimator, DynamicBody, AttachmentBehavior, DynamicItemBehavior) {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: -500, y: -500, width: 1000, height: 1000), configuration: {
            var c = DynamicsConfiguration()
            c.workerCount = 1
            return c
        }())
        let post = DynamicBody(center: CGPoint(x: -100, y: 0), size: CGSize(width: 20, height: 20))
        let wheel = DynamicBody(center: .zero, size: CGSize(width: 100, height: 100))
        let anchored = DynamicItemBehavior(items: [post])
        anchored.isAnchored = true
        let spin = DynamicItemBehavior(items: [wheel])
        let pin = AttachmentBehavior.pinAttachment(with: wheel, attachedTo: post, attachmentAnchor: .zero)
        configure(pin)
        for behavior in [anchored, spin, pin] as [DynamicBehavior] { animator.addBehavior(behavior) }
        return (animator, wheel, pin, spin)
    }

    @Test("AttachmentBehavior's motorSpeed and maximumMotorTorque drive a pinned item")
    func behavior() {
        let (animator, wheel, pin, spin) = pinnedWheel { $0.motorSpeed = 3 }
        #expect(pin.maximumMotorTorque == .infinity)
        animator.step(by: 0.5)
        #expect(abs(spin.angularVelocity(for: wheel) - 3) < 1e-3, "ω \(spin.angularVelocity(for: wheel))")
        #expect(hypot(wheel.center.x, wheel.center.y) < 0.5, "the wheel stays on its pin: \(wheel.center)")
        pin.motorSpeed = nil
        spin.addAngularVelocity(1, for: wheel)
        animator.step(by: 0.5)
        #expect(abs(spin.angularVelocity(for: wheel) - 4) < 1e-3, "without the motor the wheel keeps turning")
        // An unlimited motor at speed 0 stops it at once; a weak one slows it at 100 τ / I.
        pin.motorSpeed = 0
        animator.step(by: 1.0 / 60)
        #expect(abs(spin.angularVelocity(for: wheel)) < 1e-4, "ω \(spin.angularVelocity(for: wheel))")
        spin.addAngularVelocity(2, for: wheel)
        let inertia: CGFloat = 1 * (100 * 100 + 100 * 100) / 12 // mass 1 (100 × 100 pt at density 1), m (w² + h²) / 12
        pin.maximumMotorTorque = inertia / 100 // 1 rad/s²
        animator.step(by: 1)
        #expect(abs(spin.angularVelocity(for: wheel) - 1) < 0.01, "ω \(spin.angularVelocity(for: wheel)), expected 1")
    }

    @Test("a sprung pin oscillates at its frequency and decays at its damping ratio", arguments: [SIMDLevel.automatic, .scalar])
    func angularSpring(simd: SIMDLevel) throws {
        let frequency: CGFloat = 2, zeta: CGFloat = 0.1
        let (w, item, _) = try wheel(.pin(spring: AngularSpring(frequency: frequency, damping: zeta)), simd: simd)
        try w.addVelocity(.zero, angular: 1, for: [item])
        var angles: [Double] = []
        for _ in 0..<240 {
            try w.step(count: 1)
            angles.append(Double(w.pose(of: item).angle))
        }
        // θ(t) = (v₀ / ω_d) e^(−ζωt) sin(ω_d t): upward zero crossings one damped period 2π / ω_d apart, and
        // the peaks of successive periods in the ratio e^(−ζω · 2π / ω_d).
        let omega = 2 * Double.pi * Double(frequency), damped = omega * (1 - Double(zeta * zeta)).squareRoot()
        var ups: [Double] = []
        for i in 1..<angles.count where angles[i - 1] < 0 && angles[i] >= 0 {
            ups.append((Double(i - 1) + angles[i - 1] / (angles[i - 1] - angles[i])) / 60 + 1.0 / 60)
        }
        #expect(ups.count >= 3, "\(ups.count) upward crossings in 4 s")
        if ups.count >= 3 {
            let period = (ups[2] - ups[0]) / 2
            #expect(abs(period - 2 * .pi / damped) < 0.01 * 2 * .pi / damped, "period \(period) s, expected \(2 * .pi / damped)")
        }
        let first = angles[0..<30].max()!, second = angles[30..<60].max()!
        let ratio = exp(-Double(zeta) * omega * 2 * .pi / damped)
        #expect(abs(second / first - ratio) < 0.03 * ratio, "decay \(second / first) per period, expected \(ratio)")
    }

    @Test("a sprung pin settles at its rest angle, within its range, and its spring changes with updateAttachment")
    func restAngle() throws {
        let (w, item, pin) = try wheel(.pin(spring: AngularSpring(frequency: 2, damping: 1, restAngle: 0.5)))
        try w.step(count: 180)
        #expect(abs(w.pose(of: item).angle - 0.5) < 1e-3, "settled at \(w.pose(of: item).angle) rad, rest angle 0.5")
        try w.updateAttachment(pin, to: .pin(range: FloatRange(minimum: -0.2, maximum: 0.2),
                                             spring: AngularSpring(frequency: 2, damping: 1, restAngle: -1)), length: 0)
        try w.step(count: 180)
        #expect(abs(w.pose(of: item).angle + 0.2) < 0.01, "held at \(w.pose(of: item).angle) rad by the range's −0.2")
        for (spring, field) in [(AngularSpring(frequency: -1), "angularFrequency"), (AngularSpring(frequency: 1, damping: .nan), "angularDamping"),
                                (AngularSpring(frequency: 1, restAngle: .infinity), "restAngle")] {
            do {
                try w.updateAttachment(pin, to: .pin(spring: spring), length: 0)
                Issue.record("\(spring) was accepted")
            } catch {
                #expect("\(error)".contains(field), "\(error)")
            }
        }
    }

    @Test("AttachmentBehavior's angularFrequency, angularDamping and restAngle turn a pinned item to rest")
    func behaviorSpring() {
        let (animator, wheel, _, _) = pinnedWheel {
            $0.angularFrequency = 3
            $0.angularDamping = 1
            $0.restAngle = -0.7
        }
        animator.step(by: 3)
        let angle = atan2(wheel.transform.b, wheel.transform.a)
        #expect(abs(angle + 0.7) < 1e-3, "at \(angle) rad, rest angle −0.7")
    }

    @Test("a slider's motor drives its item at 100 F / m up to its speed, holds a lighter load and gives way to a heavier")
    func sliderMotor() throws {
        // Along a horizontal axis, no gravity: a box of mass m accelerates at 100 F / m until the motor's speed.
        let w = try world()
        let item = try w.createItems(ItemDescription(), at: [.zero])[0]
        let mass = w.mass(of: item)
        let force = mass * 200 / 100 // 200 pt/s²: 100 pt/s in 0.5 s
        let slider = try w.addAttachments(.slider(axis: CGVector(dx: 1, dy: 0), motor: SliderMotor(speed: 100, maximumForce: force)),
                                          items: [item], to: [nil], anchors: [.zero])[0]
        try w.step(count: 15)
        #expect(abs(w.velocity(of: item).dx - 50) < 0.05, "v \(w.velocity(of: item).dx) after 0.25 s, expected 50")
        try w.step(count: 45)
        #expect(abs(w.velocity(of: item).dx - 100) < 1e-3, "v \(w.velocity(of: item).dx), speed 100")
        #expect(abs(w.velocity(of: item).dy) < 1e-3 && abs(w.pose(of: item).center.y) < 0.5, "off the axis")
        // Reversed, unlimited: the speed at once.
        try w.updateAttachment(slider, to: .slider(axis: CGVector(dx: 1, dy: 0), motor: SliderMotor(speed: -30)), length: 0)
        try w.step(count: 1)
        #expect(abs(w.velocity(of: item).dx + 30) < 1e-3, "v \(w.velocity(of: item).dx)")

        // Vertical, under gravity g: the weight needs m g / 100 N. A motor at speed 0 with 1.5 times that holds
        // the item; with half of it the item falls at g / 2.
        func hang(_ fraction: CGFloat) throws -> CGFloat {
            let v = try world()
            let box = try v.createItems(ItemDescription(), at: [.zero])[0]
            try v.setGravity(CGVector(dx: 0, dy: 1000), for: [box])
            let weight = v.mass(of: box) * 1000 / 100
            try v.addAttachments(.slider(axis: CGVector(dx: 0, dy: 1), motor: SliderMotor(speed: 0, maximumForce: fraction * weight)),
                                 items: [box], to: [nil], anchors: [.zero])
            try v.step(count: 30)
            return v.velocity(of: box).dy
        }
        let held = try hang(1.5), given = try hang(0.5)
        #expect(abs(held) < 1e-3, "held: v \(held)")
        #expect(abs(given - 250) < 1, "half the weight's force: v \(given) after 0.5 s, expected 250")
        do {
            try w.updateAttachment(slider, to: .slider(axis: CGVector(dx: 1, dy: 0), motor: SliderMotor(speed: 1, maximumForce: -1)),
                                   length: 0)
            Issue.record("a negative maximumForce was accepted")
        } catch {
            #expect("\(error)".contains("maximumMotorForce"), "\(error)")
        }
    }

    @Test("motors, slider motors and angular springs give the same bits at any worker count and SIMD level")
    func determinism() throws {
        // 240 wheels on motorised, sprung or sliding attachments in rows, each with a bar pinned to it, enough
        // to spread their rows over both workers and every colour.
        func run(workers: Int, simd: SIMDLevel) throws -> UInt64 {
            let w = try restlessWorld(workers: workers, simd: simd)
            for k in 0..<240 {
                let at = CGPoint(x: CGFloat(k % 20) * 60, y: CGFloat(k / 20) * 60)
                let wheel = try w.createItems(ItemDescription(shape: .ellipse(width: 30, height: 30)), at: [at])[0]
                let bar = try w.createItems(ItemDescription(shape: .rectangle(width: 30, height: 6)), at: [CGPoint(x: at.x + 15, y: at.y)])[0]
                try w.setGravity(CGVector(dx: 0, dy: 1000), for: [wheel, bar])
                let kind: AttachmentKind = switch k % 3 {
                case 0: .pin(range: FloatRange(minimum: -1, maximum: 1), frictionTorque: 0.01,
                             motor: AttachmentMotor(speed: CGFloat(k % 7) - 3, maximumTorque: 5))
                case 1: .pin(spring: AngularSpring(frequency: 3, damping: 0.2, restAngle: 0.5))
                default: .slider(axis: CGVector(dx: 1, dy: 1), range: FloatRange(minimum: -20, maximum: 20),
                                 motor: SliderMotor(speed: 30, maximumForce: 2))
                }
                try w.addAttachments(kind, items: [wheel], to: [nil], anchors: [at])
                try w.addAttachments(.pin(motor: k % 2 == 0 ? AttachmentMotor(speed: 2) : nil), items: [bar], to: [wheel],
                                     anchors: [at])
            }
            try w.step(count: 60)
            return w.stateHash()
        }
        let reference = try run(workers: 1, simd: .scalar)
        #expect(try run(workers: 2, simd: .automatic) == reference)
        #expect(try run(workers: 2, simd: .scalar) == reference)
        #expect(try run(workers: 1, simd: .automatic) == reference)
    }

    @Test("a running motor keeps its items awake however slowly it turns; a motor at speed 0 lets them rest")
    func rest() throws {
        func wheelAngle(speed: CGFloat) throws -> (angle: CGFloat, awake: Int) {
            var c = DynamicsConfiguration()
            c.workerCount = 1 // rest detection on, as by default
            let w = try DynamicWorld(configuration: c)
            let wheel = try w.createItems(ItemDescription(shape: .ellipse(width: 100, height: 100)), at: [.zero])[0]
            try w.addAttachments(.pin(motor: AttachmentMotor(speed: speed)), items: [wheel], to: [nil], anchors: [.zero])
            try w.step(count: 600)
            return (w.pose(of: wheel).angle, w.awakeItemCount)
        }
        let slow = try wheelAngle(speed: 0.02) // far below the rest speeds
        #expect(abs(slow.angle - 0.2) < 1e-3 && slow.awake == 1, "turned \(slow.angle) rad in 10 s, \(slow.awake) awake")
        let braked = try wheelAngle(speed: 0)
        #expect(braked.awake == 0 && braked.angle == 0, "a braked wheel rests: \(braked.awake) awake")
    }

    @Test("AttachmentBehavior's motorSpeed and maximumMotorForce drive a sliding attachment")
    func behaviorSlider() {
        let animator = DynamicAnimator(referenceBounds: CGRect(x: -500, y: -500, width: 1000, height: 1000), configuration: {
            var c = DynamicsConfiguration()
            c.workerCount = 1
            return c
        }())
        let box = DynamicBody(center: .zero, size: CGSize(width: 100, height: 100)) // mass 1
        let material = DynamicItemBehavior(items: [box])
        let slide = AttachmentBehavior.slidingAttachment(with: box, attachmentAnchor: .zero, axisOfTranslation: CGVector(dx: 3, dy: 4))
        slide.motorSpeed = 50
        slide.maximumMotorForce = 1 // 100 pt/s²: 50 pt/s after 0.5 s
        animator.addBehavior(material)
        animator.addBehavior(slide)
        animator.step(by: 0.25)
        let v = material.linearVelocity(for: box)
        #expect(abs(hypot(v.x, v.y) - 25) < 0.05 && abs(v.x * 4 - v.y * 3) < 1e-3, "v \(v) after 0.25 s, expected 25 pt/s along (3, 4)")
        animator.step(by: 0.5)
        let held = material.linearVelocity(for: box)
        #expect(abs(held.x - 30) < 1e-3 && abs(held.y - 40) < 1e-3, "v \(held), expected (30, 40)")
    }
}
