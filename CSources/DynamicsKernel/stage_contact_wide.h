// SPDX-License-Identifier: Apache-2.0
// Stage template: the contact solver's per-substep kernels over the wide layout (contact_soa.h), one batch
// of DK_W constraints of one colour at a time. Instantiated per SIMD level and at DK_W = 1, which is the
// scalar path; all levels give the same bits. The laws are those of contact_solver.c.

#include "stage_bodies_wide.h"

#define DK_AT(field) (row + (field) * DK_CONSTRAINT_PAD)
#define DK_LOAD(field) dkV_load(DK_AT(field))

// A point's separation now: its separation when the step began plus how far its anchors, turned with their
// items, moved apart along the normal since.
static inline dkVf DK_FN(separation)(const DK_FN(dkBodyVec) * a, const DK_FN(dkBodyVec) * b, dkVf rAx, dkVf rAy,
									 dkVf rBx, dkVf rBy, dkVf nx, dkVf ny, dkVf base)
{
	dkVf prAx = a->dc * rAx - a->ds * rAy, prAy = a->ds * rAx + a->dc * rAy;
	dkVf prBx = b->dc * rBx - b->ds * rBy, prBy = b->ds * rBx + b->dc * rBy;
	dkVf dx = (b->dx - a->dx) + (prBx - prAx), dy = (b->dy - a->dy) + (prBy - prAy);
	return dx * nx + dy * ny + base;
}

static void DK_FN(dkContactWarmStart)(dkContactSoA* c, int32_t begin, int32_t end, dkBodyState* states)
{
	for (int32_t k = begin; k < end; k += DK_W) {
		float* row = dkSoaRow(c, k);
		DK_FN(dkBodyVec) a = DK_FN(gatherBodies)(states, c->stateA + k);
		DK_FN(dkBodyVec) b = DK_FN(gatherBodies)(states, c->stateB + k);
		dkVf nx = DK_LOAD(dkSoaNx), ny = DK_LOAD(dkSoaNy), tx = ny, ty = -nx;
		dkVf mA = DK_LOAD(dkSoaMassA), iA = DK_LOAD(dkSoaInertiaA), mB = DK_LOAD(dkSoaMassB), iB = DK_LOAD(dkSoaInertiaB);
		for (int j = 0; j < 2; ++j) {
			int o = j * dkSoaPoint;
			dkVf ni = DK_LOAD(dkSoaNormalImpulse + o), ti = DK_LOAD(dkSoaTangentImpulse + o);
			DK_FN(applyImpulse)(&a, &b, mA, iA, mB, iB, DK_LOAD(dkSoaRAx + o), DK_LOAD(dkSoaRAy + o),
								DK_LOAD(dkSoaRBx + o), DK_LOAD(dkSoaRBy + o), ni * nx + ti * tx, ni * ny + ti * ty);
		}
		DK_FN(scatterBodies)(states, c->stateA + k, &a, c->zeroState);
		DK_FN(scatterBodies)(states, c->stateB + k, &b, c->zeroState);
	}
}

static void DK_FN(dkContactSolve)(dkContactSoA* c, int32_t begin, int32_t end, dkBodyState* states, float invH,
								  dkSoftness soft, dkSoftness stiff, bool useBias)
{
	for (int32_t k = begin; k < end; k += DK_W) {
		float* row = dkSoaRow(c, k);
		DK_FN(dkBodyVec) a = DK_FN(gatherBodies)(states, c->stateA + k);
		DK_FN(dkBodyVec) b = DK_FN(gatherBodies)(states, c->stateB + k);
		dkVf nx = DK_LOAD(dkSoaNx), ny = DK_LOAD(dkSoaNy), tx = ny, ty = -nx;
		dkVf mA = DK_LOAD(dkSoaMassA), iA = DK_LOAD(dkSoaInertiaA), mB = DK_LOAD(dkSoaMassB), iB = DK_LOAD(dkSoaInertiaB);
		dkVf stiffness = DK_LOAD(dkSoaStiff);
		dkVm isStiff = stiffness > 0.0f, isRigid = stiffness > 1.0f;
		dkVf biasRate = dkV_select(isStiff, dkV_splat(stiff.biasRate), dkV_splat(soft.biasRate));
		dkVf softMass = dkV_select(isRigid, dkV_splat(1.0f),
								   dkV_select(isStiff, dkV_splat(stiff.massScale), dkV_splat(soft.massScale)));
		dkVf softImpulse = dkV_select(isRigid, dkV_splat(0.0f),
									  dkV_select(isStiff, dkV_splat(stiff.impulseScale), dkV_splat(soft.impulseScale)));
		for (int j = 0; j < 2; ++j) {
			int o = j * dkSoaPoint;
			dkVf rAx = DK_LOAD(dkSoaRAx + o), rAy = DK_LOAD(dkSoaRAy + o);
			dkVf rBx = DK_LOAD(dkSoaRBx + o), rBy = DK_LOAD(dkSoaRBy + o);
			dkVf s = DK_FN(separation)(&a, &b, rAx, rAy, rBx, rBy, nx, ny, DK_LOAD(dkSoaBase + o));
			dkVm speculative = s > 0.0f;
			dkVf bias = dkV_select(speculative, s * invH, dkV_splat(0.0f));
			dkVf massScale = dkV_splat(1.0f), impulseScale = dkV_splat(0.0f);
			if (useBias) {
				dkVf pushed = DK_FN(vmax)(biasRate * s, dkV_splat(-DK_CONTACT_PUSH_MAX_VELOCITY));
				bias = dkV_select(speculative, bias, pushed);
				massScale = dkV_select(speculative, massScale, softMass);
				impulseScale = dkV_select(speculative, impulseScale, softImpulse);
			}
			dkVf vn = DK_FN(relativeAlong)(&a, &b, rAx, rAy, rBx, rBy, nx, ny);
			dkVf ni = DK_LOAD(dkSoaNormalImpulse + o);
			dkVf impulse = -DK_LOAD(dkSoaNormalMass + o) * massScale * (vn + bias) - impulseScale * ni;
			dkVf total = DK_FN(vmax)(ni + impulse, dkV_splat(0.0f));
			impulse = total - ni;
			dkV_store(DK_AT(dkSoaNormalImpulse + o), total);
			dkV_store(DK_AT(dkSoaMaxNormalImpulse + o), DK_FN(vmax)(DK_LOAD(dkSoaMaxNormalImpulse + o), impulse));
			DK_FN(applyImpulse)(&a, &b, mA, iA, mB, iB, rAx, rAy, rBx, rBy, impulse * nx, impulse * ny);
		}
		dkVf friction = DK_LOAD(dkSoaFriction);
		for (int j = 0; j < 2; ++j) {
			int o = j * dkSoaPoint;
			dkVf rAx = DK_LOAD(dkSoaRAx + o), rAy = DK_LOAD(dkSoaRAy + o);
			dkVf rBx = DK_LOAD(dkSoaRBx + o), rBy = DK_LOAD(dkSoaRBy + o);
			dkVf vt = DK_FN(relativeAlong)(&a, &b, rAx, rAy, rBx, rBy, tx, ty);
			dkVf ti = DK_LOAD(dkSoaTangentImpulse + o);
			dkVf impulse = -DK_LOAD(dkSoaTangentMass + o) * vt;
			dkVf limit = friction * DK_LOAD(dkSoaNormalImpulse + o);
			dkVf total = DK_FN(vmin)(DK_FN(vmax)(ti + impulse, -limit), limit);
			impulse = total - ti;
			dkV_store(DK_AT(dkSoaTangentImpulse + o), total);
			DK_FN(applyImpulse)(&a, &b, mA, iA, mB, iB, rAx, rAy, rBx, rBy, impulse * tx, impulse * ty);
		}
		DK_FN(scatterBodies)(states, c->stateA + k, &a, c->zeroState);
		DK_FN(scatterBodies)(states, c->stateB + k, &b, c->zeroState);
	}
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
		dkVf nx = DK_LOAD(dkSoaNx), ny = DK_LOAD(dkSoaNy);
		for (int j = 0; j < 2; ++j) {
			int o = j * dkSoaPoint;
			dkVf rAx = DK_LOAD(dkSoaRAx + o), rAy = DK_LOAD(dkSoaRAy + o);
			dkVf rBx = DK_LOAD(dkSoaRBx + o), rBy = DK_LOAD(dkSoaRBy + o);
			dkVf s = DK_FN(separation)(&a, &b, rAx, rAy, rBx, rBy, nx, ny, DK_LOAD(dkSoaBase + o));
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
		dkVf nx = DK_LOAD(dkSoaNx), ny = DK_LOAD(dkSoaNy);
		dkVf mA = DK_LOAD(dkSoaMassA), iA = DK_LOAD(dkSoaInertiaA), mB = DK_LOAD(dkSoaMassB), iB = DK_LOAD(dkSoaInertiaB);
		for (int j = 0; j < 2; ++j) {
			int o = j * dkSoaPoint;
			dkVf rv = DK_LOAD(dkSoaRelativeVelocity + o);
			// Every lane applies an impulse (zero where inactive), so all widths round identically.
			dkVm active = (restitution != 0.0f) & ~(rv > -DK_RESTITUTION_THRESHOLD) & (DK_LOAD(dkSoaMaxNormalImpulse + o) != 0.0f);
			dkVf rAx = DK_LOAD(dkSoaRAx + o), rAy = DK_LOAD(dkSoaRAy + o);
			dkVf rBx = DK_LOAD(dkSoaRBx + o), rBy = DK_LOAD(dkSoaRBy + o);
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
