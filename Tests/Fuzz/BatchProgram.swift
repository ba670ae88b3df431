// SPDX-License-Identifier: Apache-2.0
// The batch API's bulk calls under the fuzzer: the input's bytes are read as a program of calls on one
// `DynamicWorld` (create, remove, shapes, attachments and whether their items collide, fields, forces,
// velocities, impulses, snaps, materials, boundaries, steps), with numbers that include NaN, infinities,
// subnormals and values past every documented bound, and ids that are live, removed, repeated or made up. Every call either succeeds
// or throws a `DynamicsError`; one that throws must leave the world exactly as it was (every column's
// bits and the item, attachment and field counts). Anything else (a trap, a crash, a changed world after
// a throw) is a finding.
//
// A program also opens column views (`withColumn`): inside one it makes every read the API offers and then
// checks that the view still holds the bits it held when opened (under ASan, a read that moved or freed the
// column is a finding too); and it makes a mutating call inside a view in a forked child process, which
// must trap with the message naming the call, before the column is touched.
import Dynamics
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads an input's bytes as the operands of a program; past the end it reads zeros.
struct FuzzBytes {
    private let bytes: [UInt8]
    private var at = 0

    init(_ data: Data) { bytes = Array(data) }

    var isAtEnd: Bool { at >= bytes.count }

    mutating func byte() -> UInt8 {
        defer { at += 1 }
        return at < bytes.count ? bytes[at] : 0
    }

    /// A count in 0…`limit`.
    mutating func count(_ limit: Int) -> Int { Int(byte()) % (limit + 1) }

    /// A number: mostly one of the values that sit on or past a documented bound, else any Float's bits.
    mutating func number() -> CGFloat {
        let special: [CGFloat] = [0, 1, -1, 0.5, 100, -250, 1e-45, 1e-30, 1e-3, 1e6, 1e7, 1e15, 1e16, 1e20,
                                  3e38, -3e38, .infinity, -.infinity, .nan, .greatestFiniteMagnitude]
        let pick = Int(byte())
        if pick < 200 { return special[pick % special.count] * (pick % 3 == 2 ? 7 : 1) }
        let bits = (0..<4).reduce(UInt32(0)) { value, _ in value << 8 | UInt32(byte()) }
        return CGFloat(Float(bitPattern: bits))
    }

    mutating func point() -> CGPoint { CGPoint(x: number(), y: number()) }

    mutating func vector() -> CGVector { CGVector(dx: number(), dy: number()) }
}

/// A program of batch calls on a fresh world, read from `data`.
struct BatchProgram {
    private var input: FuzzBytes
    private let world: DynamicWorld
    private var live: [ItemID] = [], removed: [ItemID] = []
    private var attachments: [AttachmentID] = [], fields: [FieldID] = []

    /// The most items the program creates, so that a step stays cheap.
    static let itemLimit = 64

    init(_ data: Data) throws {
        input = FuzzBytes(data)
        var configuration = DynamicsConfiguration()
        configuration.workerCount = 1
        world = try DynamicWorld(configuration: configuration)
    }

    /// Runs the program to the end of its bytes (at most 64 calls).
    mutating func run() {
        var calls = 0
        while !input.isAtEnd, calls < 64 {
            call(input.byte())
            calls += 1
        }
    }

    /// Some ids: live ones, removed ones, repeats and made-up ones, as the bytes say.
    private mutating func ids() -> [ItemID] {
        (0..<input.count(6)).map { _ in
            let pick = Int(input.byte())
            switch pick % 8 {
            case 0 where !removed.isEmpty: return removed[pick / 8 % removed.count]
            case 1: return ItemID(index: UInt32(input.byte()), generation: UInt32(input.byte()))
            default: return live.isEmpty ? ItemID(index: 0, generation: 0) : live[pick / 8 % live.count]
            }
        }
    }

    /// Everything a failed call must leave as it was: every column's bits and the counts.
    private func snapshot() -> [UInt32] {
        var bits = [UInt32(world.itemCount), UInt32(world.attachmentCount), UInt32(world.fieldCount)]
        for column in DynamicWorld.Column.allCases {
            world.withColumn(column) { span in
                for i in span.indices { bits.append(span[i].bitPattern) }
            }
        }
        return bits
    }

    /// Runs one call: it succeeds, or throws a `DynamicsError` and leaves the world unchanged.
    private mutating func attempt(_ what: String, _ body: (inout BatchProgram) throws -> Void) {
        let before = snapshot()
        do {
            try body(&self)
        } catch {
            precondition(error is DynamicsError, "\(what) threw \(error), not a DynamicsError")
            precondition(snapshot() == before, "\(what) threw (\(error)) and changed the world")
        }
    }

    private mutating func call(_ code: UInt8) {
        if code == 255 { return snapshots() }
        switch code % 20 {
        case 17: view()
        case 18: query()
        case 0: create()
        case 1:
            let shape: CollisionShape
            switch input.count(3) {
            case 0: shape = .rectangle(width: input.number(), height: input.number())
            case 1: shape = .circle(radius: input.number())
            case 2: shape = .ellipse(width: input.number(), height: input.number())
            default: shape = .polygon((0..<input.count(17)).map { _ in input.point() })
            }
            let ids = ids(), offset = input.point(), angle = input.number()
            attempt("addCollisionShape") { try $0.world.addCollisionShape(shape, offset: offset, angle: angle, to: ids) }
        case 2:
            let ids = ids()
            attempt("removeItems") { program in
                try program.world.removeItems(ids)
                program.removed += ids
                program.live.removeAll(where: ids.contains)
            }
        case 3: attach()
        case 4:
            let picked = attachments.isEmpty ? [] : (0..<input.count(3)).map { _ in attachments[Int(input.byte()) % attachments.count] }
            if input.byte() & 1 == 0 {
                let collide = input.byte() & 1 == 1
                attempt("setItemsCollide") { try $0.world.setItemsCollide(collide, for: picked) }
            } else {
                attempt("removeAttachments") { program in
                    try program.world.removeAttachments(picked)
                    program.attachments.removeAll(where: picked.contains)
                }
            }
        case 5: addField()
        case 6:
            let ids = ids(), velocities = ids.map { _ in input.vector() }, angular = ids.map { _ in input.number() }
            attempt("setVelocities") { try $0.world.setVelocities(velocities, angular: angular, for: ids) }
        case 7:
            let ids = ids(), positions = ids.map { _ in input.point() }, angles = ids.map { _ in input.number() }
            attempt("setPositions") { try $0.world.setPositions(positions, angles: angles, for: ids) }
        case 8:
            let ids = ids(), velocity = input.vector(), angular = input.number()
            attempt("addVelocity") { try $0.world.addVelocity(velocity, angular: angular, for: ids) }
        case 9:
            let ids = ids(), impulse = input.vector(), offset = Offset(horizontal: input.number(), vertical: input.number())
            attempt("applyImpulse") { try $0.world.applyImpulse(impulse, at: offset, for: ids) }
        case 10:
            let ids = ids(), point = input.point(), frequency = input.number(), damping = input.number()
            attempt("setSnap") { try $0.world.setSnap(to: point, frequency: frequency, dampingRatio: damping, for: ids) }
        case 11:
            let ids = ids(), (e, f, c) = (input.number(), input.number(), input.number())
            attempt("setMaterial") { try $0.world.setMaterial(elasticity: e, friction: f, charge: c, for: ids) }
        case 12:
            let ids = ids(), (linear, angular) = (input.number(), input.number())
            attempt("setResistance") { try $0.world.setResistance(linear, angular: angular, for: ids) }
        case 13:
            let ids = ids(), description = itemDescription()
            attempt("setMassProperties") { try $0.world.setMassProperties(description, for: ids) }
        case 14:
            let ids = ids(), gravity = input.vector(), force = input.vector()
            attempt("setGravity") { try $0.world.setGravity(gravity, for: ids) }
            attempt("setForce") { try $0.world.setForce(force, for: ids) }
        case 15:
            let ids = ids(), x = ids.map { _ in Float(input.number()) }, y = ids.map { _ in Float(input.number()) }
            attempt("setCustomFieldForces") { try $0.world.setCustomFieldForces(x: x, y: y, for: ids) }
        case 16:
            let start = input.point(), end = input.point()
            attempt("addBoundary") { _ = try $0.world.addBoundary(from: start, to: end) }
        default:
            let steps = input.count(3), duration = input.number()
            if input.byte() & 1 == 0 {
                attempt("step(count:)") { try $0.world.step(count: steps) }
            } else if duration.isNaN || abs(duration) < 0.2 {  // longer steps cost too much for the fuzzer
                attempt("step(by:)") { try $0.world.step(by: TimeInterval(duration)) }
            }
        }
    }

    /// A snapshot of the world reads back into a world with the same state hash, before and after a step; then
    /// the snapshot with bytes changed (and, as the input says, its checksum made right again, so that the
    /// checks behind it are reached) reads into a world that steps, or throws `invalidSnapshot`.
    private mutating func snapshots() {
        let bytes = world.snapshot(), workers = 1 + Int(input.byte() & 1)
        let back: DynamicWorld
        do { back = try DynamicWorld(snapshot: bytes, workerCount: workers) } catch {
            preconditionFailure("a snapshot does not read back: \(error)")
        }
        precondition(back.stateHash() == world.stateHash(), "a snapshot read back has another state hash")
        if (try? world.step(count: 1)) != nil, (try? back.step(count: 1)) != nil {
            precondition(back.stateHash() == world.stateHash(), "a world read from a snapshot steps to another state hash")
        }
        var forged = [UInt8](bytes)
        for _ in 0...input.count(3) {
            let at = (Int(input.byte()) << 8 | Int(input.byte())) % forged.count
            forged[at] = input.byte()
        }
        if input.byte() & 1 == 1 { // the checksum made right: the frame holds, the parts are checked
            let sum = Self.checksum(forged.dropLast(8))
            for j in 0..<8 { forged[forged.count - 8 + j] = UInt8(truncatingIfNeeded: sum >> (8 * UInt64(j))) }
        }
        do {
            let read = try DynamicWorld(snapshot: Data(forged), workerCount: 1)
            for _ in 0..<2 { try? read.step(count: 1) }
        } catch {
            guard case .invalidSnapshot = error else { preconditionFailure("a forged snapshot threw \(error)") }
        }
    }

    /// A snapshot's checksum (the Checkpoints article's format): 64-bit FNV-1a over its bytes eight at a time
    /// (little-endian words), then the remaining bytes one at a time.
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325, k = bytes.startIndex
        while k + 8 <= bytes.endIndex {
            var word: UInt64 = 0
            for j in 0..<8 { word |= UInt64(bytes[k + j]) << (8 * UInt64(j)) }
            hash = (hash ^ word) &* 0x0000_0100_0000_01b3
            k += 8
        }
        while k < bytes.endIndex {
            hash = (hash ^ UInt64(bytes[k])) &* 0x0000_0100_0000_01b3
            k += 1
        }
        return hash
    }

    /// Asks the world every kind of query (a shape from the bytes, a ray between two points, both in bulk): each
    /// answers or throws a `DynamicsError`, and none changes the world.
    private mutating func query() {
        let shape: QueryShape
        switch input.count(4) {
        case 0: shape = .point(input.point())
        case 1: shape = .circle(center: input.point(), radius: input.number())
        case 2: shape = .rectangle(CGRect(origin: input.point(), size: CGSize(width: input.number(), height: input.number())))
        default: shape = .polygon((0..<input.count(17)).map { _ in input.point() }, radius: input.number())
        }
        let a = input.point(), b = input.point()
        attempt("items(overlapping:)") { _ = try $0.world.items(overlapping: shape) }
        attempt("parties(overlapping:)") { _ = try $0.world.parties(overlapping: shape, filter: .all) }
        attempt("rayCast") { _ = try $0.world.rayCast(from: a, to: b) }
        attempt("rayCastAll") { _ = try $0.world.rayCastAll(from: a, to: b) }
        attempt("rayCast(into:)") { program in
            var hits: [RayHit?] = []
            try program.world.rayCast(from: [a, b], to: [b, a], into: &hits)
        }
        attempt("items(at:into:)") { program in
            var items: [ItemID?] = []
            try program.world.items(at: [a, b], into: &items)
        }
    }

    /// Opens a view of a column, reads the world every way it can be read, checks the view is unchanged, and
    /// (when the bytes say) makes a mutating call inside the view in a child process, which must trap.
    private mutating func view() {
        let column = DynamicWorld.Column.allCases[input.count(DynamicWorld.Column.allCases.count - 1)]
        let mutation = input.byte() & 3 == 0 ? Int(input.byte()) : nil
        let ids = ids(), picked = attachments.first
        let world = self.world
        world.withColumn(column) { span in
            let opened = span.indices.map { span[$0].bitPattern }
            _ = (world.itemIDs(), world.rows(of: ids), world.islandCount, world.awakeItemCount, world.contactEvents)
            _ = (world.kineticEnergy, world.momentum, world.maxAwakeSpeedComponent, world.stateHash(), world.contactCount)
            for id in ids where world.contains(id) {
                _ = (world.pose(of: id), world.velocity(of: id), world.mass(of: id), world.isResting(id))
            }
            if let picked { _ = world.anchors(of: picked) }
            world.withColumn(.positionX) { inner in _ = inner.indices.map { inner[$0] } }
            precondition(span.indices.map { span[$0].bitPattern } == opened, "a read inside withColumn changed the column")
            if let mutation { Self.expectTrap(mutation, world: world, ids: ids, span: span) }
        }
    }

    /// Forks; the child makes mutating call number `which` (of five) on `world` inside the open view and then
    /// reads `span`. The child must die of the trap, having written the message naming the call.
    private static func expectTrap(_ which: Int, world: DynamicWorld, ids: [ItemID], span: borrowing Span<Float>) {
        let names = ["createItems", "removeItems", "setPositions", "wake", "step(count:)"]
        let positions = ids.map { _ in CGPoint(x: 1, y: 2) }
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { return }
        let child = fork()
        if child == 0 {
            close(pipeEnds[0])
            dup2(pipeEnds[1], STDERR_FILENO)
            // The default action, so that the fuzzer's and the runtime's handlers write no crash report.
            for sig in [SIGILL, SIGTRAP, SIGABRT, SIGALRM] { signal(sig, SIG_DFL) }
            var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
            setrlimit(Int32(RLIMIT_CORE.rawValue), &noCore)
            alarm(20)
            switch which % names.count {
            case 0: _ = try? world.createItems(ItemDescription(), at: [.zero])
            case 1: try? world.removeItems(ids)
            case 2: try? world.setPositions(positions, for: ids)
            case 3: world.wake()
            default: try? world.step(count: 1)
            }
            var sum: Float = 0
            for i in span.indices { sum += span[i] }  // a use after free under ASan, if the call had run
            _exit(sum.isNaN ? 3 : 4)
        }
        close(pipeEnds[1])
        guard child > 0 else { close(pipeEnds[0]); return }
        var output = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while case let n = read(pipeEnds[0], &chunk, chunk.count), n > 0 { output += chunk[0..<n] }
        close(pipeEnds[0])
        var status: Int32 = 0
        while waitpid(child, &status, 0) < 0 && errno == EINTR {}
        let signalled = status & 0x7f, message = String(decoding: output, as: UTF8.self)
        if signalled == SIGALRM { return }  // the child hung (a lock held at the fork): no verdict
        let name = names[which % names.count]
        precondition(signalled != 0 && message.contains("DynamicWorld.\(name) called inside withColumn"),
                     "\(name) inside withColumn did not trap (status \(status)): \(message)")
    }

    private mutating func itemDescription() -> ItemDescription {
        let (width, height) = (input.number(), input.number())
        var description = ItemDescription(shape: input.byte() & 1 == 0 ? .rectangle(width: width, height: height)
                                                                    : .ellipse(width: width, height: height),
                                          density: input.number())
        description.isAnchored = input.byte() & 7 == 0
        description.allowsRotation = input.byte() & 7 != 0
        description.elasticity = input.number()
        description.friction = input.number()
        return description
    }

    private mutating func create() {
        let description = itemDescription()
        let count = min(input.count(8), Self.itemLimit - world.itemCount)
        let positions = (0..<count).map { _ in input.point() }
        let angles = (0..<count).map { _ in input.number() }
        attempt("createItems") { program in
            program.live += try program.world.createItems(description, at: positions, angles: angles)
        }
    }

    private mutating func attach() {
        let kind: AttachmentKind
        switch input.count(4) {
        case 0: kind = .rod(length: input.byte() & 1 == 0 ? nil : input.number(), frequency: input.number(), damping: input.number())
        case 1: kind = .rope(length: input.number())
        case 2: kind = .weld(frequency: input.number(), damping: input.number())
        case 3:
            let motor = input.byte() % 2 == 0 ? nil : AttachmentMotor(speed: input.number(), maximumTorque: input.number())
            let spring = input.byte() % 2 == 0 ? nil : AngularSpring(frequency: input.number(), damping: input.number(),
                                                                    restAngle: input.number())
            kind = .pin(range: FloatRange(minimum: input.number(), maximum: input.number()), frictionTorque: input.number(),
                        motor: motor, spring: spring)
        default: kind = .slider(axis: input.vector(), range: FloatRange(minimum: input.number(), maximum: input.number()))
        }
        let items = ids()
        let others: [ItemID?] = items.map { _ in input.byte() & 3 == 0 ? nil : ids().first }
        let anchors = items.map { _ in input.point() }
        let collide = input.byte() & 1 == 1
        attempt("addAttachments") { program in
            program.attachments += try program.world.addAttachments(kind, items: items, to: others, anchors: anchors,
                                                                    itemsCollide: collide)
        }
    }

    private mutating func addField() {
        var description = FieldDescription(kind: FieldKind.allCases[input.count(FieldKind.allCases.count - 1)])
        description.position = input.point()
        description.strength = input.number()
        description.falloff = input.number()
        description.minimumRadius = input.number()
        description.direction = input.vector()
        description.smoothness = input.number()
        description.animationSpeed = input.number()
        // Region(radius:) traps on a radius that is negative or not finite (API misuse, as documented).
        if input.byte() & 1 == 1, case let radius = input.number(), radius.isFinite, radius >= 0 {
            description.region = Region(radius: radius)
        }
        let ids = ids()
        if input.byte() & 3 == 0, !fields.isEmpty {
            let id = fields[Int(input.byte()) % fields.count]
            attempt("updateField") { try $0.world.updateField(id, description) }
        } else {
            attempt("addField") { program in program.fields.append(try program.world.addField(description, for: ids)) }
        }
    }
}
