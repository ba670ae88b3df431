// SPDX-License-Identifier: Apache-2.0
import DynamicsKernel
import Testing

@Suite struct ContactTests {
    @Test("a box lands on a floor and rests on it")
    func boxOnFloor() {
        let s = KernelScene()
        s.segment(-1000, 0, 1000, 0)
        let box = s.box(x: 0, y: -200)
        s.step(120)
        let y = s.value(dkColumnPositionY, box)
        #expect(abs(y - -50) < 1, "centre y \(y), expected −50 (half the box above the floor at y = 0)")
        #expect(abs(s.value(dkColumnVelocityY, box)) < 1)
    }

    @Test("a stack of 10 boxes stands for 10 s")
    func stack() {
        let s = KernelScene()
        s.segment(-1000, 0, 1000, 0)
        let boxes = (0..<10).map { s.box(x: 0, y: -50 - 100 * Float($0)) }
        s.step(600)
        let top = boxes.last!
        #expect(abs(s.value(dkColumnPositionY, top) - -950) < 5, "top y \(s.value(dkColumnPositionY, top))")
        #expect(abs(s.value(dkColumnPositionX, top)) < 5)
    }

    @Test("a ball of elasticity 1 keeps its bounce; elasticity 0 does not bounce")
    func bounce() {
        func peak(after bounces: Int, elasticity: Float) -> Float {
            let s = KernelScene()
            s.segment(-1000, 0, 1000, 0)
            let ball = s.ball(x: 0, y: -550, d: 100, elasticity: elasticity)
            var apexes: [Float] = []
            var prev = s.value(dkColumnVelocityY, ball)
            var top: Float = 0
            for _ in 0..<900 {
                s.step(1)
                let v = s.value(dkColumnVelocityY, ball), y = s.value(dkColumnPositionY, ball)
                top = min(top, y)
                if prev < 0 && v >= 0 { apexes.append(top); top = 0 }  // rising → falling
                prev = v
            }
            return apexes.count > bounces ? -(apexes[bounces] + 50) : 0  // height of the ball's bottom
        }
        let height = peak(after: 5, elasticity: 1)
        #expect(height > 0.95 * 500, "bounce height after 5 bounces: \(height)")
        #expect(peak(after: 0, elasticity: 0) < 5)
    }

    /// Collisions of elasticity at most 1 add no energy, but restitution solved contact by contact adds some when
    /// one item bounces off two at once. A column of 25 balls 30 pt wide, 30 pt apart, dropped onto a floor: its
    /// mechanical energy (per unit mass: ½v² + ½(r²/2)ω² + g·height) stays within a quarter above where it
    /// started, every step for 10 s, and ends below it. (Elasticity 1 peaks 11 % above; Box2D's rule, the
    /// speeds at the start of the step alone, 3.5 %. Restitution that answered the approach speeds read during
    /// a solve pass took this column from 10⁷ to 10²⁰ within a second of the first impact.)
    @Test("a column of elastic balls gains no energy without bound", arguments: [Float(1), 0.9])
    func elasticColumn(elasticity: Float) {
        let s = KernelScene()
        s.segment(-1000, 0, 1000, 0)
        let balls = (0..<25).map { s.ball(x: 0, y: -215 - 60 * Float($0), d: 30, elasticity: elasticity) }
        func energy() -> Float {
            balls.reduce(0) { e, b in
                let vx = s.value(dkColumnVelocityX, b), vy = s.value(dkColumnVelocityY, b)
                let w = s.value(dkColumnAngularVelocity, b)
                return e + 0.5 * (vx * vx + vy * vy) + 0.25 * 15 * 15 * w * w + 1000 * (-15 - s.value(dkColumnPositionY, b))
            }
        }
        let start = energy()
        var most = start
        for _ in 0..<600 {
            s.step(1)
            most = max(most, energy())
        }
        #expect(most <= 1.25 * start, "most energy \(most) against \(start) at the start")
        #expect(energy() < start, "energy after 10 s: \(energy()) against \(start)")
    }

    @Test("broadphase pairs equal the brute-force oracle on random worlds", arguments: [1, 2, 3])
    func broadphaseOracle(seed: UInt64) {
        let s = KernelScene()
        var rng = SplitMix(seed: seed)
        for _ in 0..<400 {
            let w = rng.float(5, 200), h = rng.float(5, 200)
            s.box(x: rng.float(-2000, 2000), y: rng.float(-2000, 2000), w: w, h: h, angle: rng.float(-3, 3))
        }
        for _ in 0..<40 { s.ball(x: rng.float(-2000, 2000), y: rng.float(-2000, 2000), d: rng.float(5, 400), elasticity: 0) }
        s.segment(-3000, 100, 3000, 300)
        expectOraclePairs(s, atLeast: 50)
    }

    /// The broadphase's pairs equal the brute-force oracle's, in the same order; there are at least `atLeast`.
    func expectOraclePairs(_ s: KernelScene, atLeast: Int32, sourceLocation: SourceLocation = #_sourceLocation) {
        let capacity: Int32 = 2_000_000
        var grid = [Int32](repeating: 0, count: 2 * Int(capacity)), brute = grid
        let n = dkWorld_FindPairs(s.world, &grid, capacity), m = dkWorld_FindPairsBruteForce(s.world, &brute, capacity)
        #expect(n == m && n > atLeast, "grid \(n), brute force \(m)", sourceLocation: sourceLocation)
        for k in 0..<Int(min(n, m)) {
            let (a, b) = ((grid[2 * k], grid[2 * k + 1]), (brute[2 * k], brute[2 * k + 1]))
            if a != b {
                Issue.record("pair \(k): grid \(a), brute force \(b)", sourceLocation: sourceLocation)
                return
            }
        }
    }

    /// The grid works in blocks of 2 048 shapes; this world has four, with large shapes (boundaries and
    /// giant boxes) between the small ones in slot order.
    @Test("broadphase pairs equal the brute-force oracle across blocks, with large shapes among small ones, for 1–3 workers",
          arguments: [Int32(1), 2, 3])
    func broadphaseOracleBlocks(workers: Int32) {
        let s = KernelScene(workers: workers)
        var rng = SplitMix(seed: 7)
        for i in 0..<7000 {
            if i % 1500 == 700 { s.segment(-4000, rng.float(-4000, 4000), 4000, rng.float(-4000, 4000)) }
            if i % 2500 == 1200 {
                s.box(x: rng.float(-3000, 3000), y: rng.float(-3000, 3000), w: 3000, h: 400, angle: rng.float(-3, 3))
            }
            s.box(x: rng.float(-4000, 4000), y: rng.float(-4000, 4000), w: rng.float(20, 120), h: rng.float(20, 120),
                  angle: rng.float(-3, 3))
        }
        expectOraclePairs(s, atLeast: 3000)
    }

    /// Large shapes (8 grid cells and more) find their partners through the coarse grid, the grid's cells
    /// under their boxes, or one by one; here 300 of them, from 400 to 6 000 pt, some early and some late in
    /// slot order, among 6 000 small boxes, with long segments that span the coarse grid.
    @Test("broadphase pairs equal the brute-force oracle with hundreds of large shapes of mixed sizes, for 1–3 workers",
          arguments: [Int32(1), 2, 3])
    func broadphaseOracleMixedSizes(workers: Int32) {
        let s = KernelScene(workers: workers)
        var rng = SplitMix(seed: 23)
        for i in 0..<6300 {
            if i % 21 == 0 {
                let side = rng.float(400, 6000)
                s.box(x: rng.float(-8000, 8000), y: rng.float(-8000, 8000), w: side, h: rng.float(100, side),
                      angle: rng.float(-3, 3))
            } else if i % 1000 == 500 {
                s.segment(-9000, rng.float(-9000, 9000), 9000, rng.float(-9000, 9000))
            } else {
                s.box(x: rng.float(-8000, 8000), y: rng.float(-8000, 8000), w: rng.float(10, 80), h: rng.float(10, 80),
                      angle: rng.float(-3, 3))
            }
        }
        expectOraclePairs(s, atLeast: 10_000)
    }

    /// Contacts are merged in ranges of about 2 048 pairs and contacts; this pile has about seven (some
    /// 12 000 pairs of fat boxes and 3 800 contacts). Events must come in the
    /// order of the contact list, (shape A, shape B) ascending, and alternate began / ended for every pair.
    @Test("contact events come in list order and pair up exactly across the merge's ranges")
    func eventsAcrossRanges() {
        let s = KernelScene()
        s.segment(-5000, 0, 5000, 0)
        var rng = SplitMix(seed: 11)
        for row in 0..<50 {
            for col in 0..<60 {
                s.box(x: -3300 + 110 * Float(col) + rng.float(-5, 5), y: -60 - 110 * Float(row), angle: rng.float(-0.1, 0.1))
            }
        }
        var touching: [UInt64: Bool] = [:]
        var began = 0, ended = 0
        for step in 0..<120 {
            s.step(1)
            var count: Int32 = 0
            let events = dkWorld_ContactEvents(s.world, &count)!
            var last: (UInt32, UInt32) = (0, 0)
            for k in 0..<Int(count) {
                let e = events[k]
                let key = (e.shapeA.index1, e.shapeB.index1)
                #expect(key >= last, "step \(step): event \(k) for \(key) after \(last)")
                last = key
                let id = UInt64(e.shapeA.index1) << 32 | UInt64(e.shapeB.index1)
                #expect(touching[id, default: false] != e.began, "step \(step): \(e.began ? "began" : "ended") twice for \(key)")
                touching[id] = e.began
                if e.began { began += 1 } else { ended += 1 }
            }
        }
        #expect(began > 5000 && ended > 500, "began \(began), ended \(ended)")
        #expect(dkWorld_ContactCount(s.world) > 3000, "contacts \(dkWorld_ContactCount(s.world))")
    }
}
