// Stage: the contact solver. Soft-step substepping with relaxation, in the manner of Box2D v3:
//   once per step:  prepare (anchors, effective masses, the relative normal velocity for restitution,
//                   lowered to the fastest approach the substeps see)
//   per substep:    velocities → warm start → solve (soft, with bias) → positions → relax (no bias)
//   once per step:  restitution, then the accumulated impulses are stored for the next step's warm start
// Separation is tracked during the step from each item's movement since the step began, so contacts stay
// correct across substeps without a new narrowphase. Positive separation makes a speculative contact:
// the items may close the gap within a substep but not pass through each other.
// Constraints are graph-coloured (constraint_graph.c) and solved colour by colour, in contact order within
// a colour; no two constraints of a colour share a moving item, so their order within the colour does not
// matter and a wide solver can take them in lanes. During the substeps the solver works on a compact
// array of body states (velocity, movement since the step began); items that do not move share one
// zero state.
#include "collision.h"
#include "constraint_graph.h"
#include "kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#pragma clang fp contract(off)

typedef struct dkSoftness {
	float biasRate, massScale, impulseScale;
} dkSoftness;

typedef struct dkConstraintPoint {
	float rAx, rAy, rBx, rBy;
	float adjustedSeparation, normalMass, tangentMass;
	float normalImpulse, tangentImpulse, maxNormalImpulse, relativeVelocity;
} dkConstraintPoint;

struct dkContactConstraint {
	int32_t contact;
	int32_t rowA, rowB; // -1 for a boundary or an item that does not move this step
	float mA, iA, mB, iB;
	float nx, ny, friction, restitution;
	bool stiff; // against something that does not move: twice the contact stiffness
	int32_t count;
	dkConstraintPoint p[2];
};

static dkSoftness makeSoft(float hertz, float zeta, float h)
{
	if (hertz == 0.0f) return (dkSoftness){0.0f, 1.0f, 0.0f};
	float omega = 2.0f * 3.14159265f * hertz;
	float a1 = 2.0f * zeta + h * omega;
	float a2 = h * omega * a1;
	float a3 = 1.0f / (1.0f + a2);
	return (dkSoftness){omega / a1, a2 * a3, a3};
}

// The row of a shape's item when it moves this step, else -1.
static int32_t movingRow(const dkWorld* world, const dkShape* s)
{
	if (s->body < 0) return -1;
	int32_t row = world->slots[s->body].dense;
	if (row < 0 || row >= world->awake) return -1;
	float* const* c = world->col;
	return (c[dkColumnInverseMass][row] > 0.0f || c[dkColumnInverseInertia][row] > 0.0f) ? row : -1;
}

static float material(const dkWorld* world, const dkShape* s, dkColumn column, bool* has)
{
	*has = s->body >= 0 && world->slots[s->body].dense >= 0;
	return *has ? world->col[column][world->slots[s->body].dense] : 0.0f;
}

// Builds constraints for contacts with points and a moving item; returns their number.
static int32_t prepare(dkWorld* world)
{
	if (world->constraintCapacity < world->contactCount) {
		dkContactConstraint* c = realloc(world->constraints, (size_t)world->contactCount * sizeof *c);
		if (!c) return 0;
		world->constraints = c;
		world->constraintCapacity = world->contactCount;
	}
	float** col = world->col;
	int32_t n = 0;
	for (int32_t k = 0; k < world->contactCount; ++k) {
		const dkContact* contact = &world->contacts[k];
		const dkManifold* m = &contact->manifold;
		const dkShape *sa = &world->shapes[contact->shapeA], *sb = &world->shapes[contact->shapeB];
		int32_t ra = movingRow(world, sa), rb = movingRow(world, sb);
		if (m->count == 0 || (ra < 0 && rb < 0)) continue;
		dkContactConstraint* cc = &world->constraints[n++];
		cc->contact = k;
		cc->rowA = ra;
		cc->rowB = rb;
		cc->mA = ra >= 0 ? col[dkColumnInverseMass][ra] : 0.0f;
		cc->iA = ra >= 0 ? col[dkColumnInverseInertia][ra] : 0.0f;
		cc->mB = rb >= 0 ? col[dkColumnInverseMass][rb] : 0.0f;
		cc->iB = rb >= 0 ? col[dkColumnInverseInertia][rb] : 0.0f;
		cc->stiff = ra < 0 || rb < 0;
		cc->nx = m->nx;
		cc->ny = m->ny;
		bool hasA, hasB;
		float fA = material(world, sa, dkColumnFriction, &hasA), fB = material(world, sb, dkColumnFriction, &hasB);
		float eA = material(world, sa, dkColumnElasticity, &hasA), eB = material(world, sb, dkColumnElasticity, &hasB);
		// SEMANTICS §2: items mix friction by geometric mean and elasticity by maximum; a boundary uses the item's.
		cc->friction = hasA && hasB ? sqrtf(fA * fB) : (hasA ? fA : fB);
		cc->restitution = hasA && hasB ? fmaxf(eA, eB) : (hasA ? eA : eB);
		cc->count = m->count;
		// Centres: an item's position, or the world origin for a boundary (which never moves).
		float cax = ra >= 0 ? col[dkColumnPositionX][ra] : (sa->body >= 0 ? col[dkColumnPositionX][world->slots[sa->body].dense] : 0);
		float cay = ra >= 0 ? col[dkColumnPositionY][ra] : (sa->body >= 0 ? col[dkColumnPositionY][world->slots[sa->body].dense] : 0);
		float cbx = rb >= 0 ? col[dkColumnPositionX][rb] : (sb->body >= 0 ? col[dkColumnPositionX][world->slots[sb->body].dense] : 0);
		float cby = rb >= 0 ? col[dkColumnPositionY][rb] : (sb->body >= 0 ? col[dkColumnPositionY][world->slots[sb->body].dense] : 0);
		float vax = ra >= 0 ? col[dkColumnVelocityX][ra] : 0, vay = ra >= 0 ? col[dkColumnVelocityY][ra] : 0;
		float wa = ra >= 0 ? col[dkColumnAngularVelocity][ra] : 0;
		float vbx = rb >= 0 ? col[dkColumnVelocityX][rb] : 0, vby = rb >= 0 ? col[dkColumnVelocityY][rb] : 0;
		float wb = rb >= 0 ? col[dkColumnAngularVelocity][rb] : 0;
		float tx = cc->ny, ty = -cc->nx;
		for (int32_t i = 0; i < m->count; ++i) {
			const dkManifoldPoint* mp = &m->points[i];
			dkConstraintPoint* cp = &cc->p[i];
			float px = contact->originX + mp->px, py = contact->originY + mp->py;
			cp->rAx = px - cax;
			cp->rAy = py - cay;
			cp->rBx = px - cbx;
			cp->rBy = py - cby;
			cp->adjustedSeparation = mp->separation - ((cp->rBx - cp->rAx) * cc->nx + (cp->rBy - cp->rAy) * cc->ny);
			float rnA = cp->rAx * cc->ny - cp->rAy * cc->nx, rnB = cp->rBx * cc->ny - cp->rBy * cc->nx;
			float kn = cc->mA + cc->mB + cc->iA * rnA * rnA + cc->iB * rnB * rnB;
			cp->normalMass = kn > 0.0f ? 1.0f / kn : 0.0f;
			float rtA = cp->rAx * ty - cp->rAy * tx, rtB = cp->rBx * ty - cp->rBy * tx;
			float kt = cc->mA + cc->mB + cc->iA * rtA * rtA + cc->iB * rtB * rtB;
			cp->tangentMass = kt > 0.0f ? 1.0f / kt : 0.0f;
			cp->normalImpulse = mp->normalImpulse;
			cp->tangentImpulse = mp->tangentImpulse;
			cp->maxNormalImpulse = 0.0f;
			float dvx = (vbx - wb * cp->rBy) - (vax - wa * cp->rAy);
			float dvy = (vby + wb * cp->rBx) - (vay + wa * cp->rAx);
			cp->relativeVelocity = dvx * cc->nx + dvy * cc->ny;
		}
	}
	return n;
}

// A moving item during the substeps: velocity and its movement since the step began. 32 bytes.
typedef struct dkBodyState {
	float vx, vy, w;
	float dx, dy, dc, ds; // translation, rotation (cos, sin)
	float pad;
} dkBodyState;
_Static_assert(sizeof(dkBodyState) == 32, "dkBodyState is 32 bytes");

// The state of a constraint side: rows that do not move (-1) share the zero state at index `awake`.
static inline int32_t stateIndex(int32_t row, int32_t awake) { return row >= 0 ? row : awake; }

static inline void applyImpulse(dkContactConstraint* cc, dkConstraintPoint* cp, float px, float py, dkBodyState* a,
								dkBodyState* b)
{
	a->vx -= cc->mA * px;
	a->vy -= cc->mA * py;
	a->w -= cc->iA * (cp->rAx * py - cp->rAy * px);
	b->vx += cc->mB * px;
	b->vy += cc->mB * py;
	b->w += cc->iB * (cp->rBx * py - cp->rBy * px);
}

static inline float relativeAlong(const dkConstraintPoint* cp, const dkBodyState* a, const dkBodyState* b, float dx,
								  float dy)
{
	float dvx = (b->vx - b->w * cp->rBy) - (a->vx - a->w * cp->rAy);
	float dvy = (b->vy + b->w * cp->rBx) - (a->vy + a->w * cp->rAx);
	return dvx * dx + dvy * dy;
}

static void warmStart(dkWorld* world, dkBodyState* states, int32_t n)
{
	int32_t awake = world->awake;
	for (int32_t k = 0; k < n; ++k) {
		dkContactConstraint* cc = &world->constraints[k];
		dkBodyState* pa = &states[stateIndex(cc->rowA, awake)];
		dkBodyState* pb = &states[stateIndex(cc->rowB, awake)];
		dkBodyState a = *pa, b = *pb;
		float tx = cc->ny, ty = -cc->nx;
		for (int32_t i = 0; i < cc->count; ++i) {
			dkConstraintPoint* cp = &cc->p[i];
			applyImpulse(cc, cp, cp->normalImpulse * cc->nx + cp->tangentImpulse * tx,
						 cp->normalImpulse * cc->ny + cp->tangentImpulse * ty, &a, &b);
		}
		if (cc->rowA >= 0) *pa = a;
		if (cc->rowB >= 0) *pb = b;
	}
}

static void solve(dkWorld* world, dkBodyState* states, int32_t n, float invH, dkSoftness soft, dkSoftness stiff,
				  bool useBias)
{
	int32_t awake = world->awake;
	for (int32_t k = 0; k < n; ++k) {
		dkContactConstraint* cc = &world->constraints[k];
		dkBodyState* pa = &states[stateIndex(cc->rowA, awake)];
		dkBodyState* pb = &states[stateIndex(cc->rowB, awake)];
		dkBodyState a = *pa, b = *pb;
		float dax = a.dx, day = a.dy, ca = a.dc, sa = a.ds, dbx = b.dx, dby = b.dy, cb = b.dc, sb = b.ds;
		dkSoftness sft = cc->stiff ? stiff : soft;
		for (int32_t i = 0; i < cc->count; ++i) {
			dkConstraintPoint* cp = &cc->p[i];
			// Current separation from the movement since the step began.
			float prAx = ca * cp->rAx - sa * cp->rAy, prAy = sa * cp->rAx + ca * cp->rAy;
			float prBx = cb * cp->rBx - sb * cp->rBy, prBy = sb * cp->rBx + cb * cp->rBy;
			float dx = (dbx - dax) + (prBx - prAx), dy = (dby - day) + (prBy - prAy);
			float s = dx * cc->nx + dy * cc->ny + cp->adjustedSeparation;
			float bias = 0.0f, massScale = 1.0f, impulseScale = 0.0f;
			if (s > 0.0f) {
				bias = s * invH; // speculative: close the gap, no further
			} else if (useBias) {
				bias = fmaxf(sft.biasRate * s, -DK_CONTACT_PUSH_MAX_VELOCITY);
				massScale = sft.massScale;
				impulseScale = sft.impulseScale;
			}
			float vn = relativeAlong(cp, &a, &b, cc->nx, cc->ny);
			// Restitution answers the fastest approach seen in this step, which includes the velocity gained
			// during the step before the impact (the step-start value alone loses ~g·dt per bounce).
			if (useBias && vn < cp->relativeVelocity) cp->relativeVelocity = vn;
			float impulse = -cp->normalMass * massScale * (vn + bias) - impulseScale * cp->normalImpulse;
			float total = fmaxf(cp->normalImpulse + impulse, 0.0f);
			impulse = total - cp->normalImpulse;
			cp->normalImpulse = total;
			cp->maxNormalImpulse = fmaxf(cp->maxNormalImpulse, impulse);
			applyImpulse(cc, cp, impulse * cc->nx, impulse * cc->ny, &a, &b);
		}
		float tx = cc->ny, ty = -cc->nx;
		for (int32_t i = 0; i < cc->count; ++i) {
			dkConstraintPoint* cp = &cc->p[i];
			float vt = relativeAlong(cp, &a, &b, tx, ty);
			float impulse = -cp->tangentMass * vt;
			float limit = cc->friction * cp->normalImpulse;
			float total = fminf(fmaxf(cp->tangentImpulse + impulse, -limit), limit);
			impulse = total - cp->tangentImpulse;
			cp->tangentImpulse = total;
			applyImpulse(cc, cp, impulse * tx, impulse * ty, &a, &b);
		}
		if (cc->rowA >= 0) *pa = a;
		if (cc->rowB >= 0) *pb = b;
	}
}

static void restitution(dkWorld* world, dkBodyState* states, int32_t n)
{
	int32_t awake = world->awake;
	for (int32_t k = 0; k < n; ++k) {
		dkContactConstraint* cc = &world->constraints[k];
		if (cc->restitution == 0.0f) continue;
		dkBodyState* pa = &states[stateIndex(cc->rowA, awake)];
		dkBodyState* pb = &states[stateIndex(cc->rowB, awake)];
		dkBodyState a = *pa, b = *pb;
		for (int32_t i = 0; i < cc->count; ++i) {
			dkConstraintPoint* cp = &cc->p[i];
			if (cp->relativeVelocity > -DK_RESTITUTION_THRESHOLD || cp->maxNormalImpulse == 0.0f) continue;
			float vn = relativeAlong(cp, &a, &b, cc->nx, cc->ny);
			float impulse = -cp->normalMass * (vn + cc->restitution * cp->relativeVelocity);
			float total = fmaxf(cp->normalImpulse + impulse, 0.0f);
			impulse = total - cp->normalImpulse;
			cp->normalImpulse = total;
			applyImpulse(cc, cp, impulse * cc->nx, impulse * cc->ny, &a, &b);
		}
		if (cc->rowA >= 0) *pa = a;
		if (cc->rowB >= 0) *pb = b;
	}
}

static void storeImpulses(dkWorld* world, int32_t n)
{
	for (int32_t k = 0; k < n; ++k) {
		const dkContactConstraint* cc = &world->constraints[k];
		dkManifold* m = &world->contacts[cc->contact].manifold;
		for (int32_t i = 0; i < cc->count; ++i) {
			m->points[i].normalImpulse = cc->p[i].normalImpulse;
			m->points[i].tangentImpulse = cc->p[i].tangentImpulse;
		}
	}
}

// Velocities for one substep: forces, v += h a, damping and snap springs (the SIMD kernels and BLAS).
static void integrateVelocities(dkWorld* world, float h)
{
	float** c = world->col;
	const dkKernels* k = world->kernels;
	for (int32_t b = 0; b < world->awake; b += DK_BLOCK) {
		int32_t e = b + DK_BLOCK < world->awake ? b + DK_BLOCK : world->awake;
		k->accumulateForces(c, b, e);
		dkBlasAxpy(e - b, h, c[dkColumnAccelX] + b, c[dkColumnVelocityX] + b, false);
		dkBlasAxpy(e - b, h, c[dkColumnAccelY] + b, c[dkColumnVelocityY] + b, false);
		dkBlasAxpy(e - b, h, c[dkColumnAlpha] + b, c[dkColumnAngularVelocity] + b, false);
		k->dampAndSnap(c, b, e, h, world->hasSnaps);
	}
}

// Positions for one substep from the states' velocities, and each row's movement since the step began.
static void integratePositions(dkWorld* world, dkBodyState* states, float h)
{
	float** c = world->col;
	int32_t n = world->awake;
	for (int32_t i = 0; i < n; ++i) {
		dkBodyState* s = &states[i];
		c[dkColumnVelocityX][i] = s->vx;
		c[dkColumnVelocityY][i] = s->vy;
		c[dkColumnAngularVelocity][i] = s->w;
	}
	dkBlasAxpy(n, h, c[dkColumnVelocityX], c[dkColumnPositionX], false);
	dkBlasAxpy(n, h, c[dkColumnVelocityY], c[dkColumnPositionY], false);
	dkBlasAxpy(n, h, c[dkColumnAngularVelocity], c[dkColumnAngle], false);
	for (int32_t i = 0; i < n; ++i) {
		dkBodyState* s = &states[i];
		float d = c[dkColumnAngle][i] - c[dkColumnStartAngle][i];
		s->dx = c[dkColumnPositionX][i] - c[dkColumnStartX][i];
		s->dy = c[dkColumnPositionY][i] - c[dkColumnStartY][i];
		s->dc = cosf(d);
		s->ds = sinf(d);
	}
}

// Copies velocities from the columns into the states (after velocity integration).
static void loadStates(dkWorld* world, dkBodyState* states)
{
	float** c = world->col;
	for (int32_t i = 0; i < world->awake; ++i) {
		states[i].vx = c[dkColumnVelocityX][i];
		states[i].vy = c[dkColumnVelocityY][i];
		states[i].w = c[dkColumnAngularVelocity][i];
	}
}

static void storeStates(dkWorld* world, const dkBodyState* states)
{
	float** c = world->col;
	for (int32_t i = 0; i < world->awake; ++i) {
		c[dkColumnVelocityX][i] = states[i].vx;
		c[dkColumnVelocityY][i] = states[i].vy;
		c[dkColumnAngularVelocity][i] = states[i].w;
	}
}

// Puts the constraints in colour order.
static void colour(dkWorld* world, int32_t n)
{
	int32_t* rowA = malloc((size_t)(n > 0 ? n : 1) * sizeof(int32_t));
	int32_t* rowB = malloc((size_t)(n > 0 ? n : 1) * sizeof(int32_t));
	int32_t* order = malloc((size_t)(n > 0 ? n : 1) * sizeof(int32_t));
	dkContactConstraint* sorted = malloc((size_t)(n > 0 ? n : 1) * sizeof(dkContactConstraint));
	int32_t starts[DK_GRAPH_COLOURS + 2];
	if (rowA && rowB && order && sorted) {
		for (int32_t k = 0; k < n; ++k) {
			rowA[k] = world->constraints[k].rowA;
			rowB[k] = world->constraints[k].rowB;
		}
		if (dkGraph_Colour(rowA, rowB, n, world->awake, order, starts)) {
			for (int32_t k = 0; k < n; ++k) sorted[k] = world->constraints[order[k]];
			memcpy(world->constraints, sorted, (size_t)n * sizeof(dkContactConstraint));
		}
	}
	free(rowA);
	free(rowB);
	free(order);
	free(sorted);
}

void dkContactSolver_Step(dkWorld* world, float dt, int32_t substeps)
{
	float** c = world->col;
	int32_t awake = world->awake;
	dkBodyState* states = calloc((size_t)awake + 1, sizeof(dkBodyState));
	if (!states) return; // out of memory: the step integrates nothing
	for (int32_t i = 0; i < awake; ++i) {
		c[dkColumnStartX][i] = c[dkColumnPositionX][i];
		c[dkColumnStartY][i] = c[dkColumnPositionY][i];
		c[dkColumnStartAngle][i] = c[dkColumnAngle][i];
	}
	for (int32_t i = 0; i <= awake; ++i) states[i].dc = 1.0f; // and the zero state for items that do not move
	int32_t n = prepare(world);
	colour(world, n);
	float h = dt / (float)substeps;
	float hertz = fminf(DK_CONTACT_HERTZ, 0.25f / h);
	dkSoftness soft = makeSoft(hertz, DK_CONTACT_DAMPING_RATIO, h);
	dkSoftness stiff = makeSoft(2.0f * hertz, DK_CONTACT_DAMPING_RATIO, h);
	for (int32_t s = 0; s < substeps; ++s) {
		integrateVelocities(world, h);
		loadStates(world, states);
		warmStart(world, states, n);
		solve(world, states, n, 1.0f / h, soft, stiff, true);
		integratePositions(world, states, h);
		solve(world, states, n, 1.0f / h, soft, stiff, false);
		storeStates(world, states);
	}
	loadStates(world, states);
	restitution(world, states, n);
	storeStates(world, states);
	storeImpulses(world, n);
	free(states);
}
