// SPDX-License-Identifier: Apache-2.0
import Dynamics
import Foundation
import Testing

/// A column view (`DynamicWorld.withColumn`) borrows the kernel's memory: every call that could move, free
/// or rewrite it traps while the view is open, naming the call, instead of leaving the view dangling.
@Suite("Column views")
struct ColumnViewTests {
    /// Every call that changes a world, with the name its trap message gives.
    enum Mutation: String, CaseIterable, Codable, Sendable {
        case createItems, removeItems, wake, putToRest, stepBy = "step(by:)", stepCount = "step(count:)"
        case animatorStep = "DynamicAnimator.step(by:)", animatorRun = "DynamicAnimator.runUntilPaused", reconfigure
        case setGravity, setGravityColumns = "setGravity(x:y:for:)", setForce, setForces, setResistance, setMaterial
        case setMassProperties, setPositions, setVelocities, addVelocity, applyImpulse, setSnap
        case addCollisionShape, removeCollisionShapes, setCollisionFilter, addBoundary, addBoundaryPath = "addBoundary(_:)"
        case removeBoundary, addAttachments, removeAttachments, moveAnchor, updateAttachment, setItemsCollide
        case addField, updateField, addItemsToField = "addItems(_:toField:)", removeItemsFromField = "removeItems(_:fromField:)"
        case removeField, setCustomFieldForces

        /// The call's name in the trap message.
        var callName: String {
            switch self {
            case .setGravityColumns: "DynamicWorld.setGravity"
            case .addBoundaryPath: "DynamicWorld.addBoundary"
            case .animatorStep, .animatorRun: rawValue
            default: "DynamicWorld." + rawValue
            }
        }

        /// Builds a world with an item, an attachment, a boundary and a field, opens a view of its positions
        /// and makes the call inside it.
        func performInsideView() throws {
            let animator = DynamicAnimator()
            let world = animator.world
            let ids = try world.createItems(ItemDescription(), at: [CGPoint(x: 0, y: 0), CGPoint(x: 300, y: 0)])
            let joint = try world.addAttachments(.rod(), items: [ids[0]], to: [nil], anchors: [CGPoint(x: 0, y: -200)])[0]
            let boundary = try world.addBoundary(from: CGPoint(x: -500, y: 500), to: CGPoint(x: 500, y: 500))
            let field = try world.addField(FieldDescription(kind: .drag), for: ids)
            let one = [ids[0]]
            try world.withColumn(.positionY) { ys in
                _ = ys.count
                switch self {
                case .createItems: try world.createItems(ItemDescription(), at: [CGPoint(x: 900, y: 0)])
                case .removeItems: try world.removeItems([ids[1]])
                case .wake: world.wake()
                case .putToRest: try world.putToRest(one)
                case .stepBy: try world.step(by: 1.0 / 60)
                case .stepCount: try world.step(count: 1)
                case .animatorStep: animator.step(by: 1.0 / 60)
                case .animatorRun: _ = animator.runUntilPaused(timeout: 1)
                case .reconfigure: try world.reconfigure(world.configuration)
                case .setGravity: try world.setGravity(CGVector(dx: 0, dy: 1000), for: one)
                case .setGravityColumns: try world.setGravity(x: [0], y: [1000], for: one)
                case .setForce: try world.setForce(CGVector(dx: 1, dy: 0), for: one)
                case .setForces: try world.setForces(x: [1], y: [0], torqueCross: [0], torqueDot: [0], for: one)
                case .setResistance: try world.setResistance(1, angular: 1, for: one)
                case .setMaterial: try world.setMaterial(elasticity: 0.5, friction: 0.5, charge: 0, for: one)
                case .setMassProperties: try world.setMassProperties(ItemDescription(), for: one)
                case .setPositions: try world.setPositions([CGPoint(x: 5, y: 5)], for: one)
                case .setVelocities: try world.setVelocities([CGVector(dx: 5, dy: 5)], for: one)
                case .addVelocity: try world.addVelocity(CGVector(dx: 5, dy: 5), for: one)
                case .applyImpulse: try world.applyImpulse(CGVector(dx: 5, dy: 5), for: one)
                case .setSnap: try world.setSnap(to: .zero, dampingRatio: 0.5, for: one)
                case .addCollisionShape: try world.addCollisionShape(.circle(radius: 10), to: one)
                case .removeCollisionShapes: try world.removeCollisionShapes(from: one)
                case .setCollisionFilter: try world.setCollisionFilter(.all, for: one)
                case .addBoundary: try world.addBoundary(from: .zero, to: CGPoint(x: 10, y: 0))
                case .addBoundaryPath: try world.addBoundary(BezierPath(rect: CGRect(x: 0, y: 0, width: 50, height: 50)))
                case .removeBoundary: try world.removeBoundary(boundary)
                case .addAttachments: try world.addAttachments(.rope(), items: one, to: [ids[1]], anchors: [.zero])
                case .removeAttachments: try world.removeAttachments([joint])
                case .moveAnchor: try world.moveAnchor(of: joint, to: CGPoint(x: 10, y: -200))
                case .updateAttachment: try world.updateAttachment(joint, to: .rope(), length: 100)
                case .setItemsCollide: try world.setItemsCollide(true, for: [joint])
                case .addField: try world.addField(FieldDescription(kind: .drag), for: one)
                case .updateField: try world.updateField(field, FieldDescription(kind: .drag))
                case .addItemsToField: try world.addItems(one, toField: field)
                case .removeItemsFromField: try world.removeItems(one, fromField: field)
                case .removeField: try world.removeField(field)
                case .setCustomFieldForces: try world.setCustomFieldForces(x: [1], y: [1], for: one)
                }
            }
        }
    }

    @Test("every call that changes a world traps inside withColumn, naming the call", arguments: Mutation.allCases)
    func mutationInsideView(_ mutation: Mutation) async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { [mutation] in
            try mutation.performInsideView()
        }
        let message = BadInputTests.message(result)
        #expect(message.contains("\(mutation.callName) called inside withColumn"), "\(message)")
    }

    @Test("each of those calls, made after the view closes, is allowed and does what it says")
    func mutationAfterView() throws {
        let world = try DynamicWorld()
        let ids = try world.createItems(ItemDescription(), at: [CGPoint(x: 0, y: 0)])
        let y = world.withColumn(.positionY) { $0[0] }
        try world.setPositions([CGPoint(x: 0, y: CGFloat(y) + 10)], for: ids)
        #expect(world.pose(of: ids[0]).center.y == 10)
    }

    @Test("reads inside a view are allowed, and views nest")
    func readsInsideView() throws {
        let world = try DynamicWorld()
        let ids = try world.createItems(ItemDescription(), at: [CGPoint(x: 3, y: 4), CGPoint(x: 5, y: 6)])
        let sum = world.withColumn(.positionX) { xs in
            world.withColumn(.positionY) { ys in xs[0] + xs[1] + ys[0] + ys[1] }
        }
        #expect(sum == 18)
        let hash = world.withColumn(.angle) { _ in world.stateHash() }
        #expect(hash == world.stateHash())
        #expect(world.withColumn(.positionX) { _ in world.pose(of: ids[1]).center.x } == 5)
        // Closed again: a mutation after nested views is allowed.
        try world.step(count: 1)
        #expect(world.stepCount == 1)
    }
}
