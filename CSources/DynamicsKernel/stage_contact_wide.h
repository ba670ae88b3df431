// SPDX-License-Identifier: Apache-2.0
// Stage template: the contact solver's per-substep kernels over the wide layout (contact_soa.h), one batch
// of DK_W constraints of one colour at a time. Instantiated per SIMD level and at DK_W = 1, which is the
// scalar path; all levels give the same bits. The laws are those of contact_solver.c.

#include "stage_bodies_wide.h"

#define DK_AT(field) (row + (field) * DK_CONSTRAINT_PAD)
#define DK_LOAD(field) dkV_load(DK_AT(field))

// A point's frame now. The manifold was computed when the step began, and items turn within it. Each point
// goes with the item whose vertex or circle it is (dkManifold.owners) and lies on the other item's face, so
// its normal turns with that other item (between two circles, with neither). Each side's surface point (the
// point of the manifold, half the separation from either surface) turns with its item, or with the normal for
// a centred circle, whose point stays on the normal through its centre however it spins; the separation is
// measured between them along the normal. Both arms reach to the point of the item the point goes with, set
// back to halfway across the separation the step began with. (With the frame fixed for the step, a face that
// turned under a frictionless item pushed it sideways, and boxes jammed on balls in a funnel's stem rocked at
// tens of pt/s without end. Turning the halfway point itself, a box 150 pt from a wall at 10 000 pt/s swung
// an arm 75 pt long and spun off the wall.) The effective masses stay those of the step's start.
typedef struct DK_FN(dkPointFrame) {
	dkVf nx, ny, tx, ty, rAx, rAy, rBx, rBy;
	dkVf s; // separation now, pt
} DK_FN(dkPointFrame);

static inline dkVm DK_FN(has)(dkVm bits, uint32_t bit) { return (bits & (int32_t)bit) != 0; }

// What both points of a constraint's frame share: its frame bits and normal at the step's start, and which
// of its lanes keep the step's frame whole (`whole`) or its arms (`keep`).
typedef struct DK_FN(dkFrameShared) {
	dkVm bits, whole, keep, aN, bN;
	dkVf n0x, n0y;
} DK_FN(dkFrameShared);

static inline DK_FN(dkFrameShared) DK_FN(frameShared)(const float* row, const DK_FN(dkBodyVec) * a, const DK_FN(dkBodyVec) * b)
{
	DK_FN(dkFrameShared) sh;
	sh.bits = (dkVm)DK_LOAD(dkSoaFrame);
	// The step's whole frame is kept by:
	// - an item that turned more than DK_RECYCLE_COS allows since the step began (a spinning one): the
	//   effective masses are the step's start's, and with arms turned far from them, impulses on an item spun
	//   by a field overshot until the world was no longer finite;
	// - a contact with friction whose items hardly moved against each other since the step began (the sine of
	//   each one's turn under DK_FRAME_STILL_TURN, and |Δx| + |Δy| of their relative move under
	//   DK_FRAME_STILL_MOVE): turning its frame would change its normal by less than that turn and its arms by
	//   less than that move plus the turn times their length, and friction holds the sliding that a normal so
	//   little off would cause. Most contacts of a settled stack are such, and the step's frame costs a
	//   fraction of the turned one (Benchmarks/results has the measurement). Without friction nothing holds
	//   it: a box on a frictionless ball would be pushed along the ball's face, the jam the turned frame cured.
	dkVf moved = dkV_abs(b->dx - a->dx) + dkV_abs(b->dy - a->dy);
	dkVm still = (dkV_abs(a->ds) < DK_FRAME_STILL_TURN) & (dkV_abs(b->ds) < DK_FRAME_STILL_TURN) &
				 (moved < DK_FRAME_STILL_MOVE) & (DK_LOAD(dkSoaFriction) >= DK_FRAME_STILL_FRICTION);
	sh.whole = DK_FN(has)(sh.bits, dkFrameKeepNormal) | (a->dc < DK_RECYCLE_COS) | (b->dc < DK_RECYCLE_COS) | still;
	sh.keep = DK_FN(has)(sh.bits, dkFrameKeepArms) | sh.whole;
	sh.aN = DK_FN(has)(sh.bits, dkFrameAWithNormal);
	sh.bN = DK_FN(has)(sh.bits, dkFrameBWithNormal);
	sh.n0x = DK_LOAD(dkSoaNx);
	sh.n0y = DK_LOAD(dkSoaNy);
	return sh;
}

// The separation in the step's whole frame, as Box2D measures it: the step's start's plus how far the two
// arms' ends moved apart along the step's normal, each arm turned with its item.
static inline dkVf DK_FN(wholeSeparation)(const float* row, int o, const DK_FN(dkBodyVec) * a, const DK_FN(dkBodyVec) * b,
										  const DK_FN(dkFrameShared) * sh)
{
	dkVf ax = DK_LOAD(dkSoaRAx + o), ay = DK_LOAD(dkSoaRAy + o), bx = DK_LOAD(dkSoaRBx + o), by = DK_LOAD(dkSoaRBy + o);
	dkVf h = 0.5f * DK_LOAD(dkSoaBase + o);
	dkVf mAx = a->dc * ax - a->ds * ay, mAy = a->ds * ax + a->dc * ay;
	dkVf mBx = b->dc * bx - b->ds * by, mBy = b->ds * bx + b->dc * by;
	dkVf mx = (b->dx - a->dx) + ((mBx - bx) - (mAx - ax)), my = (b->dy - a->dy) + ((mBy - by) - (mAy - ay));
	return mx * sh->n0x + my * sh->n0y + 2.0f * h;
}

static inline DK_FN(dkPointFrame) DK_FN(pointFrame)(const float* row, int j, const DK_FN(dkBodyVec) * a,
													 const DK_FN(dkBodyVec) * b, const DK_FN(dkFrameShared) * sh)
{
	int o = j * dkSoaPoint;
	dkVm whole = sh->whole;
	dkVf n0x = sh->n0x, n0y = sh->n0y;
	dkVf ax = DK_LOAD(dkSoaRAx + o), ay = DK_LOAD(dkSoaRAy + o), bx = DK_LOAD(dkSoaRBx + o), by = DK_LOAD(dkSoaRBy + o);
	DK_FN(dkPointFrame) f;
	if (!dkV_any(~whole)) { // every lane keeps the whole frame: the same bits as the selects below give it
		dkVf one = dkV_splat(1.0f), zero = dkV_splat(0.0f);
		f.nx = one * n0x - zero * n0y, f.ny = zero * n0x + one * n0y;
		f.tx = f.ny, f.ty = -f.nx;
		f.s = DK_FN(wholeSeparation)(row, o, a, b, sh);
		f.rAx = ax, f.rAy = ay, f.rBx = bx, f.rBy = by;
		return f;
	}
	dkVm onA = DK_FN(has)(sh->bits, j == 0 ? dkFramePoint0OnA : dkFramePoint1OnA);
	dkVm onB = DK_FN(has)(sh->bits, j == 0 ? dkFramePoint0OnB : dkFramePoint1OnB);
	dkVf nc = dkV_select(whole, dkV_splat(1.0f), dkV_select(onB, a->dc, dkV_select(onA, b->dc, dkV_splat(1.0f))));
	dkVf ns = dkV_select(whole, dkV_splat(0.0f), dkV_select(onB, a->ds, dkV_select(onA, b->ds, dkV_splat(0.0f))));
	dkVf aC = dkV_select(sh->aN, nc, a->dc), aS = dkV_select(sh->aN, ns, a->ds);
	dkVf bC = dkV_select(sh->bN, nc, b->dc), bS = dkV_select(sh->bN, ns, b->ds);
	dkVf h = 0.5f * DK_LOAD(dkSoaBase + o);
	dkVf uAx = ax - h * n0x, uAy = ay - h * n0y, uBx = bx + h * n0x, uBy = by + h * n0y; // the surface points
	dkVf pAx = aC * uAx - aS * uAy, pAy = aS * uAx + aC * uAy;
	dkVf pBx = bC * uBx - bS * uBy, pBy = bS * uBx + bC * uBy;
	dkVf cx = (ax - bx) + (b->dx - a->dx), cy = (ay - by) + (b->dy - a->dy); // B's centre from A's, now
	f.nx = nc * n0x - ns * n0y, f.ny = ns * n0x + nc * n0y;
	f.tx = f.ny, f.ty = -f.nx;
	f.s = (cx + (pBx - pAx)) * f.nx + (cy + (pBy - pAy)) * f.ny;
	dkVf qAx = pAx + h * f.nx, qAy = pAy + h * f.ny, qBx = pBx - h * f.nx, qBy = pBy - h * f.ny;
	dkVm keep = sh->keep;
	// The step's frame whole (a joint chain's item, a spun item, a still contact): its separation as Box2D
	// measures it, from the halfway point turned with each item. (Measured from the turned surface points
	// against the step's arms, the bridge's boxes kept it swinging at a kinetic energy of about 2 000, where it
	// otherwise rests after 40 s.) Only batches with such a lane compute it; the other lanes' bits are the same
	// either way.
	if (dkV_any(whole)) f.s = dkV_select(whole, DK_FN(wholeSeparation)(row, o, a, b, sh), f.s);
	f.rAx = dkV_select(keep, ax, dkV_select(onB, qBx + cx, qAx)), f.rAy = dkV_select(keep, ay, dkV_select(onB, qBy + cy, qAy));
	f.rBx = dkV_select(keep, bx, dkV_select(onA, qAx - cx, qBx)), f.rBy = dkV_select(keep, by, dkV_select(onA, qAy - cy, qBy));
	return f;
}

// A point's effective masses along the normal and the tangent of the step's start, from the arms of the
// step's start, written over the fill's mark (dkSoaNormalMass: 1 for a point, 0 for none or an inert row).
// The step's first warm start computes them a batch at a time, before any kernel reads them; the fill
// computed them one contact at a time.
static inline void DK_FN(effectiveMasses)(float* row, int o, dkVf mA, dkVf iA, dkVf mB, dkVf iB, dkVf nx, dkVf ny)
{
	dkVf rAx = DK_LOAD(dkSoaRAx + o), rAy = DK_LOAD(dkSoaRAy + o), rBx = DK_LOAD(dkSoaRBx + o), rBy = DK_LOAD(dkSoaRBy + o);
	dkVf tx = ny, ty = -nx;
	dkVf rnA = rAx * ny - rAy * nx, rnB = rBx * ny - rBy * nx;
	dkVf kn = mA + mB + iA * rnA * rnA + iB * rnB * rnB;
	dkVf rtA = rAx * ty - rAy * tx, rtB = rBx * ty - rBy * tx;
	dkVf kt = mA + mB + iA * rtA * rtA + iB * rtB * rtB;
	dkVf one = dkV_splat(1.0f), zero = dkV_splat(0.0f);
	dkVm point = DK_LOAD(dkSoaNormalMass + o) != 0.0f;
	dkVm n = point & (kn > 0.0f), t = point & (kt > 0.0f);
	dkV_store(DK_AT(dkSoaNormalMass + o), dkV_select(n, one / dkV_select(n, kn, one), zero));
	dkV_store(DK_AT(dkSoaTangentMass + o), dkV_select(t, one / dkV_select(t, kt, one), zero));
}

static void DK_FN(dkContactWarmStart)(dkContactSoA* c, int32_t begin, int32_t end, dkBodyState* states, bool masses)
{
	for (int32_t k = begin; k < end; k += DK_W) {
		float* row = dkSoaRow(c, k);
		DK_FN(dkBodyVec) a = DK_FN(gatherBodies)(states, c->stateA + k);
		DK_FN(dkBodyVec) b = DK_FN(gatherBodies)(states, c->stateB + k);
		dkVf mA = DK_LOAD(dkSoaMassA), iA = DK_LOAD(dkSoaInertiaA), mB = DK_LOAD(dkSoaMassB), iB = DK_LOAD(dkSoaInertiaB);
		DK_FN(dkFrameShared) sh = DK_FN(frameShared)(row, &a, &b);
		if (masses)
			for (int j = 0; j < 2; ++j) DK_FN(effectiveMasses)(row, j * dkSoaPoint, mA, iA, mB, iB, sh.n0x, sh.n0y);
		for (int j = 0; j < 2; ++j) {
			int o = j * dkSoaPoint;
			DK_FN(dkPointFrame) f = DK_FN(pointFrame)(row, j, &a, &b, &sh);
			dkVf ni = DK_LOAD(dkSoaNormalImpulse + o), ti = DK_LOAD(dkSoaTangentImpulse + o);
			DK_FN(applyImpulse)(&a, &b, mA, iA, mB, iB, f.rAx, f.rAy, f.rBx, f.rBy, ni * f.nx + ti * f.tx,
								ni * f.ny + ti * f.ty);
		}
		DK_FN(scatterBodies)(states, c->stateA + k, &a, c->zeroState);
		DK_FN(scatterBodies)(states, c->stateB + k, &b, c->zeroState);
	}
}

#ifndef DK_SOLVE_BATCHES
#define DK_SOLVE_BATCHES 3 // side by side; 2 measured 6 % slower on the pyramid at AVX2, 4 the same as 3
#endif

// Solves n batches from constraint k (n at most DK_SOLVE_BATCHES, a constant where it is inlined), their
// steps interleaved. A batch is a long chain of dependent steps (each impulse changes the velocities the
// next one reads), longer than the processor looks ahead, so one batch at a time leaves most of it waiting;
// batches of one colour share no item that moves (the zero state and the kinematic copies are read only),
// so each gives the bits it gives alone.
__attribute__((always_inline)) static inline void DK_FN(solveBatches)(dkContactSoA* c, int32_t k, int n,
																	   dkBodyState* states, float invH, dkSoftness soft,
																	   dkSoftness stiff, bool useBias)
{
	float* rows[DK_SOLVE_BATCHES];
	DK_FN(dkBodyVec) a[DK_SOLVE_BATCHES], b[DK_SOLVE_BATCHES];
	dkVf mA[DK_SOLVE_BATCHES], iA[DK_SOLVE_BATCHES], mB[DK_SOLVE_BATCHES], iB[DK_SOLVE_BATCHES];
	dkVf biasRate[DK_SOLVE_BATCHES], softMass[DK_SOLVE_BATCHES], softImpulse[DK_SOLVE_BATCHES];
	DK_FN(dkPointFrame) f[DK_SOLVE_BATCHES][2];
	for (int q = 0; q < n; ++q) {
		float* row = rows[q] = dkSoaRow(c, k + q * DK_W);
		a[q] = DK_FN(gatherBodies)(states, c->stateA + k + q * DK_W);
		b[q] = DK_FN(gatherBodies)(states, c->stateB + k + q * DK_W);
		mA[q] = DK_LOAD(dkSoaMassA), iA[q] = DK_LOAD(dkSoaInertiaA), mB[q] = DK_LOAD(dkSoaMassB), iB[q] = DK_LOAD(dkSoaInertiaB);
		dkVf stiffness = DK_LOAD(dkSoaStiff);
		dkVm isStiff = stiffness > 0.0f, isRigid = stiffness > 1.0f;
		biasRate[q] = dkV_select(isStiff, dkV_splat(stiff.biasRate), dkV_splat(soft.biasRate));
		softMass[q] = dkV_select(isRigid, dkV_splat(1.0f),
								 dkV_select(isStiff, dkV_splat(stiff.massScale), dkV_splat(soft.massScale)));
		softImpulse[q] = dkV_select(isRigid, dkV_splat(0.0f),
									dkV_select(isStiff, dkV_splat(stiff.impulseScale), dkV_splat(soft.impulseScale)));
		// Both frames before any impulse: they read the items' movement, which impulses do not change.
		DK_FN(dkFrameShared) sh = DK_FN(frameShared)(row, &a[q], &b[q]);
		f[q][0] = DK_FN(pointFrame)(row, 0, &a[q], &b[q], &sh);
		f[q][1] = DK_FN(pointFrame)(row, 1, &a[q], &b[q], &sh);
	}
	for (int j = 0; j < 2; ++j) {
		int o = j * dkSoaPoint;
		for (int q = 0; q < n; ++q) {
			float* row = rows[q];
			dkVf rAx = f[q][j].rAx, rAy = f[q][j].rAy, rBx = f[q][j].rBx, rBy = f[q][j].rBy, nx = f[q][j].nx,
				 ny = f[q][j].ny, s = f[q][j].s;
			dkVm speculative = s > 0.0f;
			dkVf bias = dkV_select(speculative, s * invH, dkV_splat(0.0f));
			dkVf massScale = dkV_splat(1.0f), impulseScale = dkV_splat(0.0f);
			if (useBias) {
				dkVf pushed = DK_FN(vmax)(biasRate[q] * s, dkV_splat(-DK_CONTACT_PUSH_MAX_VELOCITY));
				bias = dkV_select(speculative, bias, pushed);
				massScale = dkV_select(speculative, massScale, softMass[q]);
				impulseScale = dkV_select(speculative, impulseScale, softImpulse[q]);
			}
			dkVf vn = DK_FN(relativeAlong)(&a[q], &b[q], rAx, rAy, rBx, rBy, nx, ny);
			dkVf ni = DK_LOAD(dkSoaNormalImpulse + o);
			dkVf impulse = -DK_LOAD(dkSoaNormalMass + o) * massScale * (vn + bias) - impulseScale * ni;
			dkVf total = DK_FN(vmax)(ni + impulse, dkV_splat(0.0f));
			impulse = total - ni;
			dkV_store(DK_AT(dkSoaNormalImpulse + o), total);
			dkV_store(DK_AT(dkSoaMaxNormalImpulse + o), DK_FN(vmax)(DK_LOAD(dkSoaMaxNormalImpulse + o), impulse));
			DK_FN(applyImpulse)(&a[q], &b[q], mA[q], iA[q], mB[q], iB[q], rAx, rAy, rBx, rBy, impulse * nx, impulse * ny);
		}
	}
	for (int j = 0; j < 2; ++j) {
		int o = j * dkSoaPoint;
		for (int q = 0; q < n; ++q) {
			float* row = rows[q];
			dkVf rAx = f[q][j].rAx, rAy = f[q][j].rAy, rBx = f[q][j].rBx, rBy = f[q][j].rBy, tx = f[q][j].tx,
				 ty = f[q][j].ty;
			dkVf vt = DK_FN(relativeAlong)(&a[q], &b[q], rAx, rAy, rBx, rBy, tx, ty);
			dkVf ti = DK_LOAD(dkSoaTangentImpulse + o);
			dkVf impulse = -DK_LOAD(dkSoaTangentMass + o) * vt;
			dkVf limit = DK_LOAD(dkSoaFriction) * DK_LOAD(dkSoaNormalImpulse + o);
			dkVf total = DK_FN(vmin)(DK_FN(vmax)(ti + impulse, -limit), limit);
			impulse = total - ti;
			dkV_store(DK_AT(dkSoaTangentImpulse + o), total);
			DK_FN(applyImpulse)(&a[q], &b[q], mA[q], iA[q], mB[q], iB[q], rAx, rAy, rBx, rBy, impulse * tx, impulse * ty);
		}
	}
	for (int q = 0; q < n; ++q) {
		DK_FN(scatterBodies)(states, c->stateA + k + q * DK_W, &a[q], c->zeroState);
		DK_FN(scatterBodies)(states, c->stateB + k + q * DK_W, &b[q], c->zeroState);
	}
}

static void DK_FN(dkContactSolve)(dkContactSoA* c, int32_t begin, int32_t end, dkBodyState* states, float invH,
								  dkSoftness soft, dkSoftness stiff, bool useBias)
{
	int32_t k = begin;
#if DK_W > 1 // width 1 also solves the overflow group, whose constraints may share items
	for (; k + DK_SOLVE_BATCHES * DK_W <= end; k += DK_SOLVE_BATCHES * DK_W)
		DK_FN(solveBatches)(c, k, DK_SOLVE_BATCHES, states, invH, soft, stiff, useBias);
#endif
	for (; k < end; k += DK_W) DK_FN(solveBatches)(c, k, 1, states, invH, soft, stiff, useBias);
}

// The approach speed restitution answers, once per substep after its velocities and before any impulse:
// while a point is apart and no impulse has pushed it this step, its relative normal velocity lowers the one
// the step bounces with, so an item that falls faster through the step than at its start bounces from its
// speed at impact (a ball of elasticity 1 kept 0.83 of its height after 5 bounces with the speed at the start
// of the step). Read during a solve pass, velocities include the impulses of constraints solved before this
// one in the pass: a column of elastic balls bounced with those and gained energy without bound.
static void DK_FN(dkContactApproach)(dkContactSoA* c, int32_t begin, int32_t end, dkBodyState* states)
{
	for (int32_t k = begin; k < end; k += DK_W) {
		float* row = dkSoaRow(c, k);
		if (!dkV_any(DK_LOAD(dkSoaRestitution) != 0.0f)) continue;
		DK_FN(dkBodyVec) a = DK_FN(gatherBodies)(states, c->stateA + k);
		DK_FN(dkBodyVec) b = DK_FN(gatherBodies)(states, c->stateB + k);
		DK_FN(dkFrameShared) sh = DK_FN(frameShared)(row, &a, &b);
		for (int j = 0; j < 2; ++j) {
			int o = j * dkSoaPoint;
			DK_FN(dkPointFrame) f = DK_FN(pointFrame)(row, j, &a, &b, &sh);
			dkVf rAx = f.rAx, rAy = f.rAy, rBx = f.rBx, rBy = f.rBy, nx = f.nx, ny = f.ny, s = f.s;
			dkVm apart = (s > 0.0f) & (DK_LOAD(dkSoaNormalImpulse + o) == 0.0f);
			dkVf vn = DK_FN(relativeAlong)(&a, &b, rAx, rAy, rBx, rBy, nx, ny), rv = DK_LOAD(dkSoaRelativeVelocity + o);
			dkV_store(DK_AT(dkSoaRelativeVelocity + o), dkV_select(apart, DK_FN(vmin)(vn, rv), rv));
		}
	}
}

static void DK_FN(dkContactRestitution)(dkContactSoA* c, int32_t begin, int32_t end, dkBodyState* states)
{
	for (int32_t k = begin; k < end; k += DK_W) {
		float* row = dkSoaRow(c, k);
		dkVf restitution = DK_LOAD(dkSoaRestitution);
		DK_FN(dkBodyVec) a = DK_FN(gatherBodies)(states, c->stateA + k);
		DK_FN(dkBodyVec) b = DK_FN(gatherBodies)(states, c->stateB + k);
		dkVf mA = DK_LOAD(dkSoaMassA), iA = DK_LOAD(dkSoaInertiaA), mB = DK_LOAD(dkSoaMassB), iB = DK_LOAD(dkSoaInertiaB);
		DK_FN(dkFrameShared) sh = DK_FN(frameShared)(row, &a, &b);
		for (int j = 0; j < 2; ++j) {
			int o = j * dkSoaPoint;
			DK_FN(dkPointFrame) f = DK_FN(pointFrame)(row, j, &a, &b, &sh);
			dkVf rv = DK_LOAD(dkSoaRelativeVelocity + o);
			// Every lane applies an impulse (zero where inactive), so all widths round identically.
			dkVm active = (restitution != 0.0f) & ~(rv > -DK_RESTITUTION_THRESHOLD) & (DK_LOAD(dkSoaMaxNormalImpulse + o) != 0.0f);
			dkVf rAx = f.rAx, rAy = f.rAy, rBx = f.rBx, rBy = f.rBy, nx = f.nx, ny = f.ny;
			dkVf vn = DK_FN(relativeAlong)(&a, &b, rAx, rAy, rBx, rBy, nx, ny);
			dkVf ni = DK_LOAD(dkSoaNormalImpulse + o);
			dkVf impulse = -DK_LOAD(dkSoaNormalMass + o) * (vn + restitution * rv);
			dkVf total = DK_FN(vmax)(ni + impulse, dkV_splat(0.0f));
			impulse = dkV_select(active, total - ni, dkV_splat(0.0f));
			dkV_store(DK_AT(dkSoaNormalImpulse + o), dkV_select(active, total, ni));
			DK_FN(applyImpulse)(&a, &b, mA, iA, mB, iB, rAx, rAy, rBx, rBy, impulse * nx, impulse * ny);
		}
		DK_FN(scatterBodies)(states, c->stateA + k, &a, c->zeroState);
		DK_FN(scatterBodies)(states, c->stateB + k, &b, c->zeroState);
	}
}

#undef DK_LOAD
#undef DK_AT
