// SPDX-License-Identifier: Apache-2.0
// Stage: a contact's manifold for this step, computed again (its points inherit last step's impulses by
// feature id: warm starting) or, while the pair moved little since it was computed, reused: its normal and
// points turned and moved with the items (Box2D v3's contact recycling, with our own bound).
#include "contact_merge.h"
#include "island.h"
#include "team.h"

#include <float.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static inline bool sameBits(float a, float b) { return memcmp(&a, &b, sizeof a) == 0; }

// Reuses a contact's manifold when its items moved little since it was computed, the idea of Box2D v3's
// contact recycling (Erin Catto, physics_world.c, 2025), with a bound of our own. `pose` holds each
// shape's item pose now (x, y, cos, sin). The bound: B moved relative to A, in A's frame, by `moved` at most
// at any of its points (the distance its centre moved plus its reach times the turn). Points the manifold
// left out were more than DK_SPECULATIVE_DISTANCE apart when it was computed, so while `moved` plus how far
// the pair can close this step (`reach` less the speculative distance) stays under that distance, none of
// them can meet within the step. Neither item may have turned more than DK_RECYCLE_COS allows either. The
// normal turns with the item whose face it is and each point goes with the item whose vertex or circle it is
// (dkManifold.owners): kept on A while B's corner or a ball slid along A, a point would leave the line of the
// normal through the point of contact, and its impulses would turn a frictionless ball. The points keep
// their ids and impulses; each point's anchors turn with their items (a centred circle's with the normal:
// its point lies on the normal through its centre, wherever the circle turned), and its separation is the
// base separation plus how far the anchors moved apart along the normal. Returns false when the manifold
// must be computed again.
static bool recycle(dkContact* c, const float pose[2][4], float reach)
{
	const float cA = pose[0][2], sA = pose[0][3], cB = pose[1][2], sB = pose[1][3];
	// Each item's turn since: the rotation now times the inverse of the cached one.
	float qAc = cA * c->cachedCosA + sA * c->cachedSinA, qAs = sA * c->cachedCosA - cA * c->cachedSinA;
	float qBc = cB * c->cachedCosB + sB * c->cachedSinB, qBs = sB * c->cachedCosB - cB * c->cachedSinB;
	if (qAc < DK_RECYCLE_COS || qBc < DK_RECYCLE_COS) return false;
	float dx = pose[1][0] - pose[0][0], dy = pose[1][1] - pose[0][1];
	// B's centre in A's frame, now and then.
	float tx = cA * dx + sA * dy, ty = cA * dy - sA * dx;
	float ux = c->cachedCosA * c->cachedDx + c->cachedSinA * c->cachedDy;
	float uy = c->cachedCosA * c->cachedDy - c->cachedSinA * c->cachedDx;
	// The sine of B's turn relative to A since then: qB times the inverse of qA. A point r from B's centre
	// moves 2·sin(φ/2)·r, under 1.01·|sin φ|·r for the turns DK_RECYCLE_COS allows.
	float turn = 1.01f * fabsf(qBs * qAc - qBc * qAs);
	float moved = sqrtf((tx - ux) * (tx - ux) + (ty - uy) * (ty - uy)) + c->extent * turn;
	if (!(moved + (reach - DK_SPECULATIVE_DISTANCE) < DK_SPECULATIVE_DISTANCE)) return false;
	int k0 = c->bodyA >= 0 ? 0 : 1; // the origin: A's centre, or B's for a boundary
	// At the very poses it was computed at, a manifold not moved since is already what computing it gives.
	// (Moved by the turn of rounding, it would differ in its last bits: a step that ran out of memory after
	// computing manifolds in place would not give, once run again, the bits of a step that never failed.)
	if (c->fresh && sameBits(pose[k0][0], c->originX) && sameBits(pose[k0][1], c->originY) && sameBits(dx, c->cachedDx) &&
		sameBits(dy, c->cachedDy) && sameBits(cA, c->cachedCosA) && sameBits(sA, c->cachedSinA) &&
		sameBits(cB, c->cachedCosB) && sameBits(sB, c->cachedSinB))
		return true;
	c->fresh = false;
	c->originX = pose[k0][0];
	c->originY = pose[k0][1];
	uint32_t owners = c->manifold.owners;
	float qNc = (owners & dkNormalOnB) ? qBc : qAc, qNs = (owners & dkNormalOnB) ? qBs : qAs;
	float nx = qNc * c->cachedNx - qNs * c->cachedNy, ny = qNs * c->cachedNx + qNc * c->cachedNy;
	c->manifold.nx = nx;
	c->manifold.ny = ny;
	if (c->kinds & dkContactCentredA) {
		qAc = qNc;
		qAs = qNs;
	}
	if (c->kinds & dkContactCentredB) {
		qBc = qNc;
		qBs = qNs;
	}
	for (int32_t i = 0; i < c->manifold.count; ++i) {
		dkManifoldPoint* p = &c->manifold.points[i];
		float ax = p->anchorX, ay = p->anchorY, bx = ax - c->cachedDx, by = ay - c->cachedDy;
		float rAx = qAc * ax - qAs * ay, rAy = qAs * ax + qAc * ay;
		float rBx = qBc * bx - qBs * by, rBy = qBs * bx + qBc * by;
		float px = dx + rBx - rAx, py = dy + rBy - rAy; // how far B's anchor moved from A's
		p->separation = p->baseSeparation + (px * nx + py * ny);
		bool onB = owners & (i == 0 ? dkPoint0OnB : dkPoint1OnB);
		p->px = onB ? (k0 == 0 ? dx + rBx : rBx) : (k0 == 0 ? rAx : rAx - dx);
		p->py = onB ? (k0 == 0 ? dy + rBy : rBy) : (k0 == 0 ? rAy : rAy - dy);
	}
	return true;
}

// Recomputes a contact's manifold at the current poses, keeping impulses of matching features, or reuses
// it (recycle).
void dkContact_UpdateManifold(const dkWorld* world, dkContact* c, float dt)
{
	float reach = pairReach(world, c->shapeA, c->shapeB, dt);
	if (outOfReach(world, c->shapeA, c->shapeB, reach)) {
		c->manifold.count = 0; // no point is within reach
		c->cached = false;
		return;
	}
	float pose[2][4]; // x, y, cos, sin: the box pass's copy of each item's (broadphase.c)
	const float *ma = world->motion + dkMotionFloats * c->shapeA, *mb = world->motion + dkMotionFloats * c->shapeB;
	memcpy(pose[0], ma + dkMotionX, sizeof pose[0]);
	memcpy(pose[1], mb + dkMotionX, sizeof pose[1]);
	// Two circles are not reused: their normal runs through both centres, and computing it is cheap.
	bool circles = (c->kinds & (dkContactCircleA | dkContactCircleB)) == (dkContactCircleA | dkContactCircleB);
	if (c->cached && !circles && recycle(c, pose, reach)) return;
	const dkShape *sa = &world->shapes.data[c->shapeA], *sb = &world->shapes.data[c->shapeB];
	// The origin is an item's centre (a boundary has none), which keeps coordinates small.
	int k0 = c->bodyA >= 0 ? 0 : 1;
	c->originX = pose[k0][0];
	c->originY = pose[k0][1];
	dkPlaced pa, pb;
	dkPlaceShape(sa, pose[0][0], pose[0][1], pose[0][2], pose[0][3], c->originX, c->originY, &pa);
	dkPlaceShape(sb, pose[1][0], pose[1][1], pose[1][2], pose[1][3], c->originX, c->originY, &pb);
	dkManifold old = c->manifold;
	dkCollide(&pa, &pb, reach, &c->manifold);
	for (int32_t i = 0; i < 2; ++i) c->manifold.impulses[i] = (dkPointImpulse){0};
	for (int32_t i = 0; i < c->manifold.count; ++i) {
		dkManifoldPoint* p = &c->manifold.points[i];
		for (int32_t j = 0; j < old.count; ++j)
			if (old.points[j].id == p->id) c->manifold.impulses[i] = old.impulses[j];
		p->anchorX = k0 == 0 ? p->px : (c->originX + p->px) - pose[0][0];
		p->anchorY = k0 == 0 ? p->py : (c->originY + p->py) - pose[0][1];
		p->baseSeparation = p->separation;
	}
	c->cachedCosA = pose[0][2];
	c->cachedSinA = pose[0][3];
	c->cachedCosB = pose[1][2];
	c->cachedSinB = pose[1][3];
	c->cachedDx = pose[1][0] - pose[0][0];
	c->cachedDy = pose[1][1] - pose[0][1];
	c->cachedNx = c->manifold.nx;
	c->cachedNy = c->manifold.ny;
	c->cached = c->manifold.count > 0;
	c->fresh = true;
}
