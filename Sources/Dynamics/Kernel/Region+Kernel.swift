// SPDX-License-Identifier: Apache-2.0
import DynamicsKernel
import Foundation

extension Region {
    /// The region as the kernel's postfix program. The operand that needs the deeper stack is emitted
    /// first (Sethi–Ullman order), so evaluation needs at most log2(leaves) + 1 stack entries whatever the
    /// tree's depth; a difference whose subtrahend goes first uses the reversed operator.
    var kernelProgram: [dkRegionInstr] { node.compiled().program }
}

extension Region.Node {
    /// The postfix program of this node and the stack entries its evaluation needs.
    func compiled() -> (program: [dkRegionInstr], need: Int) {
        func leaf(_ op: dkRegionOp, _ a: CGFloat = 0, _ b: CGFloat = 0) -> dkRegionInstr {
            dkRegionInstr(op: Int32(op.rawValue), a: Float(a), b: Float(b))
        }
        func binary(_ a: Region.Node, _ b: Region.Node, _ op: dkRegionOp, reversed: dkRegionOp)
            -> (program: [dkRegionInstr], need: Int)
        {
            let (pa, na) = a.compiled(), (pb, nb) = b.compiled()
            let need = na == nb ? na + 1 : Swift.max(na, nb)
            return nb > na ? (pb + pa + [leaf(reversed)], need) : (pa + pb + [leaf(op)], need)
        }
        switch self {
        case .infinite: return ([leaf(dkRegionInfinite)], 1)
        case .empty: return ([leaf(dkRegionEmpty)], 1)
        case .circle(let r): return ([leaf(dkRegionCircle, r)], 1)
        case .rectangle(let hw, let hh): return ([leaf(dkRegionRectangle, hw, hh)], 1)
        case .inverse(let inner):
            let (p, n) = inner.compiled()
            return (p + [leaf(dkRegionInverse)], n)
        case .union(let a, let b): return binary(a, b, dkRegionUnion, reversed: dkRegionUnion)
        case .intersection(let a, let b): return binary(a, b, dkRegionIntersection, reversed: dkRegionIntersection)
        case .difference(let a, let b): return binary(a, b, dkRegionDifference, reversed: dkRegionReverseDifference)
        }
    }
}
