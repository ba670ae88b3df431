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

static dkSoftness makeSoft(float hertz, float zeta, float h)
{
	if (hertz == 0.0f) return (dkSoftness){0.0f, 1.0f, 0.0f};
	float omega = 2.0f * 3.14159265f * hertz;
	float a1 = 2.0f * zeta + h * omega;
	float a2 = h * omega * a1;
	float a3 = 1.0f / (1.0f + a2);
	return (dkSoftness){omega / a1, a2 * a3, a3};
}

// The row of an item slot when it moves this step, else -1 (boundaries have slot -1).
static int32_t movingRow(const dkWorld* world, int32_t body)
{
	if (body < 0) return -1;
	int32_t row = world->slots[body].dense;
	if (row < 0 || row >= world->awake) return -1;
	float* const* c = world->col;
	return (c[dkColumnInverseMass][row] > 0.0f || c[dkColumnInverseInertia][row] > 0.0f) ? row : -1;
}

// The row of an item slot (moving or not), or -1 for a boundary.
static int32_t anyRow(const dkWorld* world, int32_t body) { return body >= 0 ? world->slots[body].dense : -1; }

// The state of a constraint side: rows that do not move (-1) share the zero state at index `awake`.
static inline int32_t stateIndex(int32_t row, int32_t awake) { return row >= 0 ? row : awake; }

// Copies each constraint's accumulated impulses back to its contact for the next step's warm start.
static void storeImpulses(dkWorld* world, const dkContactSoA* soa)
{
	for (int32_t k = 0; k < soa->count; ++k) {
		if (soa->contact[k] < 0) continue;
		dkManifoldPoint* points = world->contacts[soa->contact[k]].manifold.points;
		for (int32_t i = 0; i < 2; ++i) { // a missing second point stores zeros it never reads
			points[i].normalImpulse = soa->col[dkSoaNormalImpulse + i * dkSoaPoint][k];
			points[i].tangentImpulse = soa->col[dkSoaTangentImpulse + i * dkSoaPoint][k];
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
	// The rotation since the step began advances as a unit complex number, q ← normalise(q + h ω q⊥),
	// which needs no cos or sin (the angle column itself integrates exactly).
	for (int32_t i = 0; i < n; ++i) {
		dkBodyState* s = &states[i];
		s->dx = c[dkColumnPositionX][i] - c[dkColumnStartX][i];
		s->dy = c[dkColumnPositionY][i] - c[dkColumnStartY][i];
		float hw = h * s->w;
		float qc = s->dc - hw * s->ds, qs = s->ds + hw * s->dc;
		float inv = 1.0f / sqrtf(qc * qc + qs * qs);
		s->dc = qc * inv;
		s->ds = qs * inv;
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

// Prepares the constraints of every contact with points and a moving item, laid out wide: coloured
// (constraint_graph.c), colour by colour, each colour padded to a multiple of DK_CONTACT_PAD with inert
// constraints; the overflow group comes last, unpadded (solved one at a time). Contacts are read in order
// and each constraint is written to its slot. colourStart receives DK_GRAPH_COLOURS + 2 offsets.
// Per constraint: anchors from the item centres, effective masses, the relative normal velocity for
// restitution, and friction and elasticity mixed per SEMANTICS.md §2 (geometric mean and maximum for two
// items; a boundary takes the item's). Returns false when out of memory.
static bool prepareSoa(dkWorld* world, dkContactSoA* soa, int32_t* colourStart)
{
	int32_t nc = world->contactCount, cap0 = nc > 0 ? nc : 1;
	int32_t* list = malloc((size_t)cap0 * sizeof(int32_t));
	int32_t* rowA = malloc((size_t)cap0 * sizeof(int32_t));
	int32_t* rowB = malloc((size_t)cap0 * sizeof(int32_t));
	int32_t* order = malloc((size_t)cap0 * sizeof(int32_t));
	int32_t* slot = malloc((size_t)cap0 * sizeof(int32_t));
	int32_t starts[DK_GRAPH_COLOURS + 2];
	bool ok = list && rowA && rowB && order && slot;
	int32_t n = 0;
	for (int32_t k = 0; ok && k < nc; ++k) {
		const dkContact* c = &world->contacts[k];
		int32_t ra = movingRow(world, c->bodyA), rb = movingRow(world, c->bodyB);
		if (c->manifold.count == 0 || (ra < 0 && rb < 0)) continue;
		list[n] = k;
		rowA[n] = ra;
		rowB[n] = rb;
		n++;
	}
	ok = ok && dkGraph_Colour(rowA, rowB, n, world->awake, order, starts);
	int32_t total = 0;
	for (int32_t c = 0; ok && c <= DK_GRAPH_COLOURS; ++c) {
		int32_t size = starts[c + 1] - starts[c];
		colourStart[c] = total;
		for (int32_t q = starts[c]; q < starts[c + 1]; ++q) slot[order[q]] = total + (q - starts[c]);
		total += c < DK_GRAPH_COLOURS ? (size + DK_CONTACT_PAD - 1) / DK_CONTACT_PAD * DK_CONTACT_PAD : size;
	}
	colourStart[DK_GRAPH_COLOURS + 1] = total;
	int32_t cap = total > 0 ? total : 1;
	float* block = NULL;
	if (ok) {
		soa->count = total;
		soa->stateA = malloc((size_t)cap * sizeof(int32_t));
		soa->stateB = malloc((size_t)cap * sizeof(int32_t));
		soa->contact = malloc((size_t)cap * sizeof(int32_t));
		block = dkAllocColumn(cap * dkSoaColumns); // zeroed: padding is inert
		ok = soa->stateA && soa->stateB && soa->contact && block;
	}
	if (!ok) {
		free(soa->stateA);
		free(soa->stateB);
		free(soa->contact);
		dkFreeColumn(block);
		free(list), free(rowA), free(rowB), free(order), free(slot);
		return false;
	}
	for (int32_t f = 0; f < dkSoaColumns; ++f) soa->col[f] = block + (size_t)f * cap;
	int32_t awake = world->awake;
	for (int32_t k = 0; k < total; ++k) {
		soa->stateA[k] = soa->stateB[k] = awake;
		soa->contact[k] = -1;
	}
	float** col = world->col;
	float** f = soa->col;
	for (int32_t i = 0; i < n; ++i) {
		const dkContact* contact = &world->contacts[list[i]];
		const dkManifold* m = &contact->manifold;
		int32_t k = slot[i], ra = rowA[i], rb = rowB[i];
		int32_t rowOfA = anyRow(world, contact->bodyA), rowOfB = anyRow(world, contact->bodyB);
		soa->stateA[k] = stateIndex(ra, awake);
		soa->stateB[k] = stateIndex(rb, awake);
		soa->contact[k] = list[i];
		float mA = ra >= 0 ? col[dkColumnInverseMass][ra] : 0.0f, iA = ra >= 0 ? col[dkColumnInverseInertia][ra] : 0.0f;
		float mB = rb >= 0 ? col[dkColumnInverseMass][rb] : 0.0f, iB = rb >= 0 ? col[dkColumnInverseInertia][rb] : 0.0f;
		float nx = m->nx, ny = m->ny, tx = ny, ty = -nx;
		f[dkSoaNx][k] = nx;
		f[dkSoaNy][k] = ny;
		f[dkSoaMassA][k] = mA;
		f[dkSoaInertiaA][k] = iA;
		f[dkSoaMassB][k] = mB;
		f[dkSoaInertiaB][k] = iB;
		f[dkSoaStiff][k] = (ra < 0 || rb < 0) ? 1.0f : 0.0f;
		bool hasA = rowOfA >= 0, hasB = rowOfB >= 0;
		float fA = hasA ? col[dkColumnFriction][rowOfA] : 0, fB = hasB ? col[dkColumnFriction][rowOfB] : 0;
		float eA = hasA ? col[dkColumnElasticity][rowOfA] : 0, eB = hasB ? col[dkColumnElasticity][rowOfB] : 0;
		f[dkSoaFriction][k] = hasA && hasB ? sqrtf(fA * fB) : (hasA ? fA : fB);
		f[dkSoaRestitution][k] = hasA && hasB ? fmaxf(eA, eB) : (hasA ? eA : eB);
		// Centres: an item's position, or the world origin for a boundary (which never moves).
		float cax = hasA ? col[dkColumnPositionX][rowOfA] : 0, cay = hasA ? col[dkColumnPositionY][rowOfA] : 0;
		float cbx = hasB ? col[dkColumnPositionX][rowOfB] : 0, cby = hasB ? col[dkColumnPositionY][rowOfB] : 0;
		float vax = ra >= 0 ? col[dkColumnVelocityX][ra] : 0, vay = ra >= 0 ? col[dkColumnVelocityY][ra] : 0;
		float wa = ra >= 0 ? col[dkColumnAngularVelocity][ra] : 0;
		float vbx = rb >= 0 ? col[dkColumnVelocityX][rb] : 0, vby = rb >= 0 ? col[dkColumnVelocityY][rb] : 0;
		float wb = rb >= 0 ? col[dkColumnAngularVelocity][rb] : 0;
		for (int32_t p = 0; p < m->count; ++p) {
			const dkManifoldPoint* mp = &m->points[p];
			int o = p * dkSoaPoint;
			float px = contact->originX + mp->px, py = contact->originY + mp->py;
			float rAx = px - cax, rAy = py - cay, rBx = px - cbx, rBy = py - cby;
			f[dkSoaRAx + o][k] = rAx;
			f[dkSoaRAy + o][k] = rAy;
			f[dkSoaRBx + o][k] = rBx;
			f[dkSoaRBy + o][k] = rBy;
			f[dkSoaBase + o][k] = mp->separation - ((rBx - rAx) * nx + (rBy - rAy) * ny);
			float rnA = rAx * ny - rAy * nx, rnB = rBx * ny - rBy * nx;
			float kn = mA + mB + iA * rnA * rnA + iB * rnB * rnB;
			f[dkSoaNormalMass + o][k] = kn > 0.0f ? 1.0f / kn : 0.0f;
			float rtA = rAx * ty - rAy * tx, rtB = rBx * ty - rBy * tx;
			float kt = mA + mB + iA * rtA * rtA + iB * rtB * rtB;
			f[dkSoaTangentMass + o][k] = kt > 0.0f ? 1.0f / kt : 0.0f;
			f[dkSoaNormalImpulse + o][k] = mp->normalImpulse;
			f[dkSoaTangentImpulse + o][k] = mp->tangentImpulse;
			float dvx = (vbx - wb * rBy) - (vax - wa * rAy);
			float dvy = (vby + wb * rBx) - (vay + wa * rAx);
			f[dkSoaRelativeVelocity + o][k] = dvx * nx + dvy * ny;
		}
	}
	free(list), free(rowA), free(rowB), free(order), free(slot);
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
	}
	for (int32_t i = 0; i <= awake; ++i) states[i].dc = 1.0f; // and the zero state for items that do not move
	dkContactSoA soa = {0};
	int32_t colourStart[DK_GRAPH_COLOURS + 2];
	if (!prepareSoa(world, &soa, colourStart)) {
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
