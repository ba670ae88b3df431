import DynamicsKernel
import Foundation

extension Region {
    /// The region as the kernel's postfix program. The operand that needs the deeper stack is emitted
    /// first (Sethi–Ullman order), so evaluation needs at most log2(leaves) + 1 stack entries whatever the
    /// tree's depth; a difference whose subtrahend goes first uses the reversed operator.
    var kernelProgram: [dkRegionInstr] {
        var program: [dkRegionInstr] = []
        node.emit(into: &program)
        return program
    }
}

extension Region.Node {
    /// The stack entries evaluating this node needs.
    var stackNeed: Int {
        switch self {
        case .infinite, .empty, .circle, .rectangle: 1
        case .inverse(let inner): inner.stackNeed
        case .union(let a, let b), .intersection(let a, let b), .difference(let a, let b):
            a.stackNeed == b.stackNeed ? a.stackNeed + 1 : Swift.max(a.stackNeed, b.stackNeed)
        }
    }

    func emit(into program: inout [dkRegionInstr]) {
        func leaf(_ op: dkRegionOp, _ a: CGFloat = 0, _ b: CGFloat = 0) {
            program.append(dkRegionInstr(op: Int32(op.rawValue), a: Float(a), b: Float(b)))
        }
        func binary(_ a: Region.Node, _ b: Region.Node, _ op: dkRegionOp, reversed: dkRegionOp) {
            if b.stackNeed > a.stackNeed {
                b.emit(into: &program)
                a.emit(into: &program)
                leaf(reversed)
            } else {
                a.emit(into: &program)
                b.emit(into: &program)
                leaf(op)
            }
        }
        switch self {
        case .infinite: leaf(dkRegionInfinite)
        case .empty: leaf(dkRegionEmpty)
        case .circle(let r): leaf(dkRegionCircle, r)
        case .rectangle(let hw, let hh): leaf(dkRegionRectangle, hw, hh)
        case .inverse(let inner):
            inner.emit(into: &program)
            leaf(dkRegionInverse)
        case .union(let a, let b): binary(a, b, dkRegionUnion, reversed: dkRegionUnion)
        case .intersection(let a, let b): binary(a, b, dkRegionIntersection, reversed: dkRegionIntersection)
        case .difference(let a, let b): binary(a, b, dkRegionDifference, reversed: dkRegionReverseDifference)
        }
    }
}
