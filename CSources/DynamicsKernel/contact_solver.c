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
#include "contact_soa.h"
#include "kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#pragma clang fp contract(off)

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

// The state of a constraint side: rows that do not move (-1) share the zero state at index `awake`.
static inline int32_t stateIndex(int32_t row, int32_t awake) { return row >= 0 ? row : awake; }

// Copies each constraint's accumulated impulses back to its contact for the next step's warm start.
static void storeImpulses(dkWorld* world, const dkContactSoA* soa)
{
	for (int32_t k = 0; k < soa->count; ++k) {
		if (soa->contact[k] < 0) continue;
		dkManifold* m = &world->contacts[soa->contact[k]].manifold;
		for (int32_t i = 0; i < m->count; ++i) {
			m->points[i].normalImpulse = soa->col[dkSoaNormalImpulse + i * dkSoaPoint][k];
			m->points[i].tangentImpulse = soa->col[dkSoaTangentImpulse + i * dkSoaPoint][k];
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

// Colours the constraints and lays them out wide: colour by colour, each colour padded to a multiple of
// DK_CONTACT_PAD with inert constraints; the overflow group comes last, unpadded (solved one at a time).
// colourStart receives DK_GRAPH_COLOURS + 2 offsets into the layout. Returns false when out of memory.
static bool buildSoa(dkWorld* world, int32_t n, dkContactSoA* soa, int32_t* colourStart)
{
	int32_t* rowA = malloc((size_t)(n > 0 ? n : 1) * sizeof(int32_t));
	int32_t* rowB = malloc((size_t)(n > 0 ? n : 1) * sizeof(int32_t));
	int32_t* order = malloc((size_t)(n > 0 ? n : 1) * sizeof(int32_t));
	int32_t starts[DK_GRAPH_COLOURS + 2];
	bool ok = rowA && rowB && order;
	for (int32_t k = 0; ok && k < n; ++k) {
		rowA[k] = world->constraints[k].rowA;
		rowB[k] = world->constraints[k].rowB;
	}
	ok = ok && dkGraph_Colour(rowA, rowB, n, world->awake, order, starts);
	free(rowA);
	free(rowB);
	if (!ok) {
		free(order);
		return false;
	}
	int32_t total = 0;
	for (int32_t c = 0; c <= DK_GRAPH_COLOURS; ++c) {
		int32_t size = starts[c + 1] - starts[c];
		colourStart[c] = total;
		total += c < DK_GRAPH_COLOURS ? (size + DK_CONTACT_PAD - 1) / DK_CONTACT_PAD * DK_CONTACT_PAD : size;
	}
	colourStart[DK_GRAPH_COLOURS + 1] = total;
	soa->count = total;
	int32_t cap = total > 0 ? total : 1;
	soa->stateA = malloc((size_t)cap * sizeof(int32_t));
	soa->stateB = malloc((size_t)cap * sizeof(int32_t));
	soa->contact = malloc((size_t)cap * sizeof(int32_t));
	float* block = dkAllocColumn(cap * dkSoaColumns);
	if (!soa->stateA || !soa->stateB || !soa->contact || !block) {
		free(order);
		free(soa->stateA);
		free(soa->stateB);
		free(soa->contact);
		dkFreeColumn(block);
		return false;
	}
	for (int32_t f = 0; f < dkSoaColumns; ++f) soa->col[f] = block + (size_t)f * cap;
	int32_t awake = world->awake;
	for (int32_t k = 0; k < total; ++k) { // padding: inert, on the zero state
		soa->stateA[k] = soa->stateB[k] = awake;
		soa->contact[k] = -1;
	}
	for (int32_t c = 0; c <= DK_GRAPH_COLOURS; ++c) {
		for (int32_t q = starts[c]; q < starts[c + 1]; ++q) {
			int32_t k = colourStart[c] + (q - starts[c]);
			const dkContactConstraint* cc = &world->constraints[order[q]];
			soa->stateA[k] = stateIndex(cc->rowA, awake);
			soa->stateB[k] = stateIndex(cc->rowB, awake);
			soa->contact[k] = cc->contact;
			float** f = soa->col;
			f[dkSoaNx][k] = cc->nx;
			f[dkSoaNy][k] = cc->ny;
			f[dkSoaFriction][k] = cc->friction;
			f[dkSoaRestitution][k] = cc->restitution;
			f[dkSoaMassA][k] = cc->mA;
			f[dkSoaInertiaA][k] = cc->iA;
			f[dkSoaMassB][k] = cc->mB;
			f[dkSoaInertiaB][k] = cc->iB;
			f[dkSoaStiff][k] = cc->stiff ? 1.0f : 0.0f;
			for (int32_t i = 0; i < cc->count; ++i) {
				const dkConstraintPoint* cp = &cc->p[i];
				int o = i * dkSoaPoint;
				f[dkSoaRAx + o][k] = cp->rAx;
				f[dkSoaRAy + o][k] = cp->rAy;
				f[dkSoaRBx + o][k] = cp->rBx;
				f[dkSoaRBy + o][k] = cp->rBy;
				f[dkSoaBase + o][k] = cp->adjustedSeparation;
				f[dkSoaNormalMass + o][k] = cp->normalMass;
				f[dkSoaTangentMass + o][k] = cp->tangentMass;
				f[dkSoaNormalImpulse + o][k] = cp->normalImpulse;
				f[dkSoaTangentImpulse + o][k] = cp->tangentImpulse;
				f[dkSoaRelativeVelocity + o][k] = cp->relativeVelocity;
			}
		}
	}
	free(order);
	return true;
}

static void freeSoa(dkContactSoA* soa)
{
	free(soa->stateA);
	free(soa->stateB);
	free(soa->contact);
	dkFreeColumn(soa->col[0]);
}

// Runs one contact kernel over every colour: the wide kernels per colour, width 1 for the overflow group.
typedef enum { dkPassWarmStart, dkPassSolve, dkPassRelax, dkPassRestitution } dkPass;

static void runPass(const dkKernels* k, dkContactSoA* soa, const int32_t* colourStart, dkBodyState* states, dkPass pass,
					float invH, dkSoftness soft, dkSoftness stiff)
{
	for (int32_t c = 0; c <= DK_GRAPH_COLOURS; ++c) {
		int32_t b = colourStart[c], e = colourStart[c + 1];
		if (b == e) continue;
		bool overflow = c == DK_GRAPH_COLOURS;
		switch (pass) {
		case dkPassWarmStart:
			(overflow ? dkContactWarmStart_scalar : k->contactWarmStart)(soa, b, e, states);
			break;
		case dkPassSolve:
		case dkPassRelax:
			(overflow ? dkContactSolve_scalar : k->contactSolve)(soa, b, e, states, invH, soft, stiff, pass == dkPassSolve);
			break;
		case dkPassRestitution:
			(overflow ? dkContactRestitution_scalar : k->contactRestitution)(soa, b, e, states);
			break;
		}
	}
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
	dkContactSoA soa = {0};
	int32_t colourStart[DK_GRAPH_COLOURS + 2];
	if (!buildSoa(world, n, &soa, colourStart)) {
		free(states);
		return; // out of memory: the step integrates nothing
	}
	float h = dt / (float)substeps, invH = 1.0f / h;
	float hertz = fminf(DK_CONTACT_HERTZ, 0.25f / h);
	dkSoftness soft = makeSoft(hertz, DK_CONTACT_DAMPING_RATIO, h);
	dkSoftness stiff = makeSoft(2.0f * hertz, DK_CONTACT_DAMPING_RATIO, h);
	const dkKernels* k = world->kernels;
	for (int32_t s = 0; s < substeps; ++s) {
		integrateVelocities(world, h);
		loadStates(world, states);
		runPass(k, &soa, colourStart, states, dkPassWarmStart, invH, soft, stiff);
		runPass(k, &soa, colourStart, states, dkPassSolve, invH, soft, stiff);
		integratePositions(world, states, h);
		runPass(k, &soa, colourStart, states, dkPassRelax, invH, soft, stiff);
		storeStates(world, states);
	}
	loadStates(world, states);
	runPass(k, &soa, colourStart, states, dkPassRestitution, invH, soft, stiff);
	storeStates(world, states);
	storeImpulses(world, &soa);
	freeSoa(&soa);
	free(states);
}
