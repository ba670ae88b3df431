// SPDX-License-Identifier: Apache-2.0
// Stage: the contact solver. Soft-step substepping with relaxation, in the manner of Box2D v3:
//   once per step:  prepare (anchors, effective masses, the relative normal velocity for restitution,
//                   lowered to the fastest approach the substeps see)
//   per substep:    velocities → warm start → solve (soft, with bias) → positions → relax (no bias);
//                   with n solver iterations (dkWorldDef.solverIterations) the solve and the relax pass
//                   each run n times
//   once per step:  restitution, then the accumulated impulses are stored for the next step's warm start
// Separation is tracked during the step from each item's movement since the step began, so contacts stay
// correct across substeps without a new narrowphase. Positive separation makes a speculative contact:
// the items may close the gap within a substep but not pass through each other.
// Constraints are graph-coloured (constraint_graph.c) and solved colour by colour, in contact order within
// a colour; no two constraints of a colour share a moving item, so their order within the colour does not
// matter and a wide solver can take them in lanes. The sweep over the colours is symmetric: each solve or
// relax pass runs the colours in the opposite order to the pass before it, and odd substeps reverse all. A sweep in one
// fixed order leaves a one-sided error that a tall structure turns into sway (the 5 050-box pyramid's top
// swayed ±5 pt for seconds and its kinetic energy stayed near 10⁵ after 2 s; with the symmetric sweep it
// settles like Box2D's, near 10³ after 2 s). It costs nothing: only the order of the stages changes.
// During the substeps the solver works on a compact array of body states (velocity, movement since the
// step began); items that do not move share one zero state.
#include "collision.h"
#include "constraint_graph.h"
#include "contact_soa.h"
#include "joint.h"
#include "kernels.h"

#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

// The row of an item slot (moving or not), or -1 for a boundary.
static int32_t anyRow(const dkWorld* world, int32_t body) { return body >= 0 ? world->slots[body].dense : -1; }

// The state of a constraint side: rows that do not move (-1) share the zero state at index `awake`.
static inline int32_t stateIndex(int32_t row, int32_t awake) { return row >= 0 ? row : awake; }

// Copies the accumulated impulses of constraints [b, e) back to their contacts for the next step's warm
// start (each contact has one constraint).
static void storeImpulses(dkWorld* world, const dkContactSoA* soa, int32_t b, int32_t e)
{
	for (int32_t k = b; k < e; ++k) {
		if (soa->contact[k] < 0) continue;
		dkManifoldPoint* points = world->contacts[soa->contact[k]].manifold.points;
		const float* row = dkSoaRow(soa, k);
		for (int32_t i = 0; i < 2; ++i) { // a missing second point stores zeros it never reads
			points[i].normalImpulse = row[(dkSoaNormalImpulse + i * dkSoaPoint) * DK_CONTACT_PAD];
			points[i].tangentImpulse = row[(dkSoaTangentImpulse + i * dkSoaPoint) * DK_CONTACT_PAD];
		}
	}
}

// Block stages: rows [b, e) of the awake range.

// Velocities for one substep (forces, v += h a, damping, snap springs: the SIMD kernels and BLAS), after
// taking the relaxed velocities of the previous substep from the states; then into the states.
static void velocitiesBlock(dkWorld* world, dkBodyState* states, int32_t b, int32_t e, float h, bool fromStates,
							int32_t substep)
{
	float** c = world->col;
	if (fromStates) {
		for (int32_t i = b; i < e; ++i) {
			c[dkColumnVelocityX][i] = states[i].vx;
			c[dkColumnVelocityY][i] = states[i].vy;
			c[dkColumnAngularVelocity][i] = states[i].w;
		}
	}
	dkSolver_Velocities(world, b, e, h, substep);
	for (int32_t i = b; i < e; ++i) {
		states[i].vx = c[dkColumnVelocityX][i];
		states[i].vy = c[dkColumnVelocityY][i];
		states[i].w = c[dkColumnAngularVelocity][i];
	}
}

// Positions for one substep from the states' velocities, and each row's movement since the step began.
// The rotation since the step began advances as a unit complex number, q ← normalise(q + h ω q⊥), which
// needs no cos or sin (the angle column itself integrates exactly).
static void positionsBlock(dkWorld* world, dkBodyState* states, int32_t b, int32_t e, float h)
{
	float** c = world->col;
	for (int32_t i = b; i < e; ++i) {
		c[dkColumnVelocityX][i] = states[i].vx;
		c[dkColumnVelocityY][i] = states[i].vy;
		c[dkColumnAngularVelocity][i] = states[i].w;
	}
	dkSolver_Positions(world, b, e, h);
	for (int32_t i = b; i < e; ++i) {
		dkBodyState* st = &states[i];
		st->dx = c[dkColumnPositionX][i] - c[dkColumnStartX][i];
		st->dy = c[dkColumnPositionY][i] - c[dkColumnStartY][i];
		float hw = h * st->w;
		float qc = st->dc - hw * st->ds, qs = st->ds + hw * st->dc;
		float inv = 1.0f / sqrtf(qc * qc + qs * qs);
		st->dc = qc * inv;
		st->ds = qs * inv;
		st->da = st->da + hw;
	}
}

// Velocities from the states back to the columns.
static void storeBlock(dkWorld* world, const dkBodyState* states, int32_t b, int32_t e)
{
	float** c = world->col;
	for (int32_t i = b; i < e; ++i) {
		c[dkColumnVelocityX][i] = states[i].vx;
		c[dkColumnVelocityY][i] = states[i].vy;
		c[dkColumnAngularVelocity][i] = states[i].w;
	}
}

// Filling the contact rows of the wide layout: the list's contact entries in chunks, on any worker. The
// entries are taken in contact order, which reads the contacts front to back (taking the rows in layout
// order instead reads them at random, and measured slower). The chunks are split into one share per
// worker (dkClaimShared): the colouring follows contact order, so a worker's share fills mostly the rows
// its share of each colour stage solves, and two workers seldom write the same block of rows. Each entry
// writes only its own row, so the split does not change a bit.
typedef struct dkFillTask {
	dkWorld* world;
	dkContactSoA* soa;
	const int32_t *list, *rowA, *rowB, *slot;
	const float* inverseInertia; // raised for items in joint chains
	int32_t first, end, workers;
	atomic_int next[DK_MAX_WORKERS]; // chunks of each worker's share (dkClaimShared)
	atomic_bool elastic; // some row has restitution
} dkFillTask;

#define DK_FILL_CHUNK 512

// One contact's row: anchors from the item centres, effective masses, the relative normal velocity for
// restitution, and friction and elasticity mixed by the pair rules of the Units and semantics article
// (Sources/Dynamics/Dynamics.docc/UnitsAndSemantics.md, §Items and materials): the geometric mean and
// the maximum for two items; a boundary takes the item's. A missing second point is zero. Returns whether
// it is elastic.
static bool fillContact(const dkFillTask* t, int32_t i)
{
	const dkWorld* world = t->world;
	dkContactSoA* soa = t->soa;
	const dkContact* contact = &world->contacts[t->list[i]];
	const dkManifold* m = &contact->manifold;
	int32_t k = t->slot[i], ra = t->rowA[i], rb = t->rowB[i], awake = world->awake;
	int32_t rowOfA = anyRow(world, contact->bodyA), rowOfB = anyRow(world, contact->bodyB);
	float* r = dkSoaRow(soa, k);
	float* const* col = world->col;
	soa->stateA[k] = stateIndex(ra, awake);
	soa->stateB[k] = stateIndex(rb, awake);
	soa->contact[k] = t->list[i];
	float mA = ra >= 0 ? col[dkColumnInverseMass][ra] : 0.0f, iA = ra >= 0 ? t->inverseInertia[ra] : 0.0f;
	float mB = rb >= 0 ? col[dkColumnInverseMass][rb] : 0.0f, iB = rb >= 0 ? t->inverseInertia[rb] : 0.0f;
	float nx = m->nx, ny = m->ny, tx = ny, ty = -nx;
	r[dkSoaNx * DK_CONTACT_PAD] = nx;
	r[dkSoaNy * DK_CONTACT_PAD] = ny;
	r[dkSoaMassA * DK_CONTACT_PAD] = mA;
	r[dkSoaInertiaA * DK_CONTACT_PAD] = iA;
	r[dkSoaMassB * DK_CONTACT_PAD] = mB;
	r[dkSoaInertiaB * DK_CONTACT_PAD] = iB;
	r[dkSoaStiff * DK_CONTACT_PAD] = (ra < 0 || rb < 0) ? 1.0f : 0.0f;
	bool hasA = rowOfA >= 0, hasB = rowOfB >= 0;
	float fA = hasA ? col[dkColumnFriction][rowOfA] : 0, fB = hasB ? col[dkColumnFriction][rowOfB] : 0;
	float eA = hasA ? col[dkColumnElasticity][rowOfA] : 0, eB = hasB ? col[dkColumnElasticity][rowOfB] : 0;
	r[dkSoaFriction * DK_CONTACT_PAD] = hasA && hasB ? sqrtf(fA * fB) : (hasA ? fA : fB);
	r[dkSoaRestitution * DK_CONTACT_PAD] = hasA && hasB ? fmaxf(eA, eB) : (hasA ? eA : eB);
	// Centres: an item's position, or the world origin for a boundary (which never moves).
	float cax = hasA ? col[dkColumnPositionX][rowOfA] : 0, cay = hasA ? col[dkColumnPositionY][rowOfA] : 0;
	float cbx = hasB ? col[dkColumnPositionX][rowOfB] : 0, cby = hasB ? col[dkColumnPositionY][rowOfB] : 0;
	float vax = ra >= 0 ? col[dkColumnVelocityX][ra] : 0, vay = ra >= 0 ? col[dkColumnVelocityY][ra] : 0;
	float wa = ra >= 0 ? col[dkColumnAngularVelocity][ra] : 0;
	float vbx = rb >= 0 ? col[dkColumnVelocityX][rb] : 0, vby = rb >= 0 ? col[dkColumnVelocityY][rb] : 0;
	float wb = rb >= 0 ? col[dkColumnAngularVelocity][rb] : 0;
	for (int32_t p = 0; p < 2; ++p) {
		int o = p * dkSoaPoint;
		if (p >= m->count) {
			for (int32_t g = dkSoaShared; g < dkSoaPointEnd; ++g) r[(g + o) * DK_CONTACT_PAD] = 0.0f;
			continue;
		}
		const dkManifoldPoint* mp = &m->points[p];
		float px = contact->originX + mp->px, py = contact->originY + mp->py;
		float rAx = px - cax, rAy = py - cay, rBx = px - cbx, rBy = py - cby;
		r[(dkSoaRAx + o) * DK_CONTACT_PAD] = rAx;
		r[(dkSoaRAy + o) * DK_CONTACT_PAD] = rAy;
		r[(dkSoaRBx + o) * DK_CONTACT_PAD] = rBx;
		r[(dkSoaRBy + o) * DK_CONTACT_PAD] = rBy;
		r[(dkSoaBase + o) * DK_CONTACT_PAD] = mp->separation - ((rBx - rAx) * nx + (rBy - rAy) * ny);
		float rnA = rAx * ny - rAy * nx, rnB = rBx * ny - rBy * nx;
		float kn = mA + mB + iA * rnA * rnA + iB * rnB * rnB;
		r[(dkSoaNormalMass + o) * DK_CONTACT_PAD] = kn > 0.0f ? 1.0f / kn : 0.0f;
		float rtA = rAx * ty - rAy * tx, rtB = rBx * ty - rBy * tx;
		float kt = mA + mB + iA * rtA * rtA + iB * rtB * rtB;
		r[(dkSoaTangentMass + o) * DK_CONTACT_PAD] = kt > 0.0f ? 1.0f / kt : 0.0f;
		r[(dkSoaNormalImpulse + o) * DK_CONTACT_PAD] = mp->normalImpulse;
		r[(dkSoaTangentImpulse + o) * DK_CONTACT_PAD] = mp->tangentImpulse;
		r[(dkSoaMaxNormalImpulse + o) * DK_CONTACT_PAD] = 0.0f;
		float dvx = (vbx - wb * rBy) - (vax - wa * rAy);
		float dvy = (vby + wb * rBx) - (vay + wa * rAx);
		r[(dkSoaRelativeVelocity + o) * DK_CONTACT_PAD] = dvx * nx + dvy * ny;
	}
	return r[dkSoaRestitution * DK_CONTACT_PAD] != 0.0f;
}

static void fillTask(void* context, int32_t worker)
{
	dkFillTask* t = context;
	bool elastic = false;
	int32_t chunks = (t->end - t->first + DK_FILL_CHUNK - 1) / DK_FILL_CHUNK;
	for (int32_t chunk; dkClaimShared(t->next, chunks, worker, t->workers, &chunk);) {
		int32_t b = t->first + chunk * DK_FILL_CHUNK, e = b + DK_FILL_CHUNK < t->end ? b + DK_FILL_CHUNK : t->end;
		for (int32_t i = b; i < e; ++i) elastic = fillContact(t, i) || elastic;
	}
	if (elastic) atomic_store(&t->elastic, true);
}

// Prepares the constraints of every joint and contact with a moving item, laid out wide. Joints and
// contacts are coloured together (constraint_graph.c), joints first, so a colour's joints and contacts
// never share a moving item; within each colour the joints go to the joint layout (joint_solver.c) and
// the contacts to the contact layout, each colour padded to a multiple of DK_CONTACT_PAD with inert
// constraints; the overflow group comes last, unpadded (solved one at a time). colourStart and jointStart
// receive DK_GRAPH_COLOURS + 2 offsets each. The contact rows are filled in parallel (fillContact).
// Returns false when out of memory.
static bool prepareSoa(dkWorld* world, dkContactSoA* soa, int32_t* colourStart, dkJointSoA* joints,
					   int32_t* jointStart, dkJointChains* chains, float h)
{
	int32_t nc = world->contactCount, cap0 = nc + world->liveJoints > 0 ? nc + world->liveJoints : 1;
	int32_t* list = malloc((size_t)cap0 * sizeof(int32_t));
	int32_t* rowA = malloc((size_t)cap0 * sizeof(int32_t));
	int32_t* rowB = malloc((size_t)cap0 * sizeof(int32_t));
	int32_t* order = malloc((size_t)cap0 * sizeof(int32_t));
	int32_t* slot = malloc((size_t)cap0 * sizeof(int32_t));
	uint8_t* direct = malloc((size_t)cap0);
	int32_t starts[DK_GRAPH_COLOURS + 2], contactsIn[DK_GRAPH_COLOURS + 1];
	bool ok = list && rowA && rowB && order && slot && direct;
	int32_t nj = ok ? dkJoints_Active(world, list, rowA, rowB) : 0, n = nj;
	for (int32_t k = 0; ok && k < nc; ++k) {
		const dkContact* c = &world->contacts[k];
		int32_t ra = dkMovingRow(world, c->bodyA), rb = dkMovingRow(world, c->bodyB);
		if (c->manifold.count == 0 || (ra < 0 && rb < 0)) continue;
		list[n] = k;
		rowA[n] = ra;
		rowB[n] = rb;
		n++;
	}
	ok = ok && dkGraph_Colour(rowA, rowB, n, world->awake, order, starts);
	int32_t total = 0, totalJ = 0;
	for (int32_t c = 0; ok && c <= DK_GRAPH_COLOURS; ++c) {
		int32_t q = starts[c], js = 0;
		while (q + js < starts[c + 1] && order[q + js] < nj) js++; // a colour lists its joints first
		int32_t size = starts[c + 1] - starts[c] - js;
		contactsIn[c] = size;
		colourStart[c] = total;
		jointStart[c] = totalJ;
		for (int32_t i = 0; i < js; ++i) slot[order[q + i]] = totalJ + i;
		for (int32_t i = 0; i < size; ++i) slot[order[q + js + i]] = total + i;
		bool pad = c < DK_GRAPH_COLOURS;
		total += pad ? (size + DK_CONTACT_PAD - 1) / DK_CONTACT_PAD * DK_CONTACT_PAD : size;
		totalJ += pad ? (js + DK_CONTACT_PAD - 1) / DK_CONTACT_PAD * DK_CONTACT_PAD : js;
	}
	colourStart[DK_GRAPH_COLOURS + 1] = total;
	jointStart[DK_GRAPH_COLOURS + 1] = totalJ;
	int32_t cap = total > 0 ? total : 1, blocks = (cap + DK_CONTACT_PAD - 1) / DK_CONTACT_PAD;
	if (ok) {
		soa->count = total;
		soa->stateA = malloc((size_t)cap * sizeof(int32_t));
		soa->stateB = malloc((size_t)cap * sizeof(int32_t));
		soa->contact = malloc((size_t)cap * sizeof(int32_t));
		soa->block = dkAllocUnsetColumn(blocks * dkSoaColumns * DK_CONTACT_PAD); // every used row is written below
		ok = soa->stateA && soa->stateB && soa->contact && soa->block;
	}
	if (ok) {
		ok = dkChains_Build(world, list, rowA, rowB, slot, nj, direct, chains);
		if (ok && !dkJoints_Prepare(world, joints, list, rowA, rowB, slot, direct, totalJ, nj, h)) {
			dkChains_Free(chains);
			ok = false;
		}
	}
	if (!ok) {
		free(soa->stateA);
		free(soa->stateB);
		free(soa->contact);
		dkFreeColumn(soa->block);
		free(list), free(rowA), free(rowB), free(order), free(slot), free(direct);
		return false;
	}
	int32_t awake = world->awake;
	soa->zeroState = awake;
	// Items in joint chains take the step's raised inertia in every constraint (joint_chain.c).
	float* inertia = chains->joints > 0 ? malloc((size_t)(awake + 1) * sizeof(float)) : NULL;
	if (inertia) {
		for (int32_t r = 0; r < awake; ++r) inertia[r] = world->col[dkColumnInverseInertia][r];
		inertia[awake] = 0.0f;
		dkChains_RaiseInertia(chains, joints, h, inertia);
		for (int32_t k = 0; k < joints->count; ++k) {
			if (joints->stateA[k] != joints->zeroState) *dkJsAt(joints, dkJsInertiaA, k) = inertia[joints->stateA[k]];
			if (joints->stateB[k] != joints->zeroState) *dkJsAt(joints, dkJsInertiaB, k) = inertia[joints->stateB[k]];
		}
	}
	const float* inverseInertia = inertia ? inertia : world->col[dkColumnInverseInertia];
	// Padding: inert constraints (zero masses and impulses) between the zero states.
	for (int32_t c = 0; c < DK_GRAPH_COLOURS; ++c) {
		for (int32_t k = colourStart[c] + contactsIn[c]; k < colourStart[c + 1]; ++k) {
			soa->stateA[k] = soa->stateB[k] = awake;
			soa->contact[k] = -1;
			float* r = dkSoaRow(soa, k);
			for (int32_t g = 0; g < dkSoaColumns; ++g) r[g * DK_CONTACT_PAD] = 0.0f;
		}
	}
	dkFillTask fill = {.world = world, .soa = soa, .list = list, .rowA = rowA, .rowB = rowB, .slot = slot,
					   .inverseInertia = inverseInertia, .first = nj, .end = n,
					   .workers = n - nj >= 2 * DK_FILL_CHUNK ? world->def.workerCount : 1};
	for (int32_t w = 0; w < fill.workers; ++w)
		atomic_init(&fill.next[w], dkShareStart((n - nj + DK_FILL_CHUNK - 1) / DK_FILL_CHUNK, w, fill.workers));
	atomic_init(&fill.elastic, false);
	dkRunTasks(world, fillTask, &fill, fill.workers);
	soa->elastic = atomic_load(&fill.elastic);
	free(list), free(rowA), free(rowB), free(order), free(slot), free(direct), free(inertia);
	return true;
}

static void freeSoa(dkContactSoA* soa)
{
	free(soa->stateA);
	free(soa->stateB);
	free(soa->contact);
	dkFreeColumn(soa->block);
}

// The step as a fixed sequence of stages, each split into items: blocks of DK_BLOCK rows, or chunks of
// DK_CONTACT_CHUNK constraints of one colour (the overflow colour is one item, solved at width 1). Each
// stage's items are split into one contiguous share per worker. A worker claims the items of its own share
// first, then takes what is left of the others' (each share has an atomic counter), and waits until every
// item of the stage is done before the next stage. So each worker keeps solving the same constraints and
// items from stage to stage and substep to substep, and their rows stay in its cache. A thread never waits
// for another thread to arrive, so the step is correct however many threads the host actually runs, and
// the result does not depend on which thread took which item.
#define DK_CONTACT_CHUNK 256
#define DK_CONTACT_BLOCK 2048 // rows per block stage item (per-item work: any split gives the same bits)

typedef enum { dkStageVelocities, dkStageWarmStart, dkStageSolve, dkStagePositions, dkStageRelax,
			   dkStageStore, dkStageImpulses, dkStageRestitution, dkStageChainWarmStart, dkStageChainSolve, dkStageChainRelax } dkStageKind;

typedef struct dkStage {
	dkStageKind kind;
	int32_t colour;		// colour stages
	int32_t items;		// blocks or chunks
	int32_t jointItems; // colour stages: the first items are chunks of the colour's joints
	bool fromStates;	// velocities: after the first substep, velocities come from the states
	bool springs;		// solve: the substep's first solve pass, where joint springs act
	int32_t substep;	// velocities: which substep (the field frames of its time)
} dkStage;

typedef struct dkContactStep {
	dkWorld* world;
	dkBodyState* states;
	dkContactSoA* soa;
	dkJointSoA* joints;
	dkJointChains* chains;
	const int32_t* colourStart;
	const int32_t* jointStart;
	const dkStage* stages;
	atomic_int* counters; // per stage: done, then each worker's next item
	int32_t stageCount, workers;
	float h, invH;
	dkSoftness soft, stiff, joint, chain;
} dkContactStep;

// Joints [b, e) of one colour: the wide kernels, or width 1 for the overflow group.
static void runJoints(dkContactStep* step, const dkStage* stage, int32_t b, int32_t e, bool overflow)
{
	const dkKernels* k = step->world->kernels;
	dkStageKind kind = stage->kind;
	if (kind == dkStageWarmStart) (overflow ? dkJointWarmStart_scalar : k->jointWarmStart)(step->joints, b, e, step->states);
	else if (kind == dkStageSolve || kind == dkStageRelax)
		(overflow ? dkJointSolve_scalar : k->jointSolve)(step->joints, b, e, step->states, step->invH, step->joint,
														  kind == dkStageSolve, stage->springs);
}

static void runItem(dkContactStep* step, const dkStage* stage, int32_t item)
{
	dkWorld* world = step->world;
	const dkKernels* k = world->kernels;
	if (stage->kind == dkStageChainWarmStart) {
		dkChains_WarmStart(step->chains, step->joints, step->states, item);
		return;
	}
	if (stage->kind == dkStageChainSolve || stage->kind == dkStageChainRelax) {
		dkChains_Solve(step->chains, step->joints, step->states, item, step->chain, stage->kind == dkStageChainSolve,
					   step->invH);
		return;
	}
	if (stage->kind == dkStageVelocities || stage->kind == dkStagePositions || stage->kind == dkStageStore) {
		int32_t b = item * DK_CONTACT_BLOCK, e = b + DK_CONTACT_BLOCK < world->awake ? b + DK_CONTACT_BLOCK : world->awake;
		if (stage->kind == dkStageVelocities) velocitiesBlock(world, step->states, b, e, step->h, stage->fromStates,
																	stage->substep);
		else if (stage->kind == dkStagePositions) positionsBlock(world, step->states, b, e, step->h);
		else storeBlock(world, step->states, b, e);
		return;
	}
	if (stage->kind == dkStageImpulses) {
		int32_t b = item * DK_CONTACT_BLOCK, e = b + DK_CONTACT_BLOCK < step->soa->count ? b + DK_CONTACT_BLOCK : step->soa->count;
		storeImpulses(world, step->soa, b, e);
		return;
	}
	int32_t first = step->colourStart[stage->colour], last = step->colourStart[stage->colour + 1];
	bool overflow = stage->colour == DK_GRAPH_COLOURS;
	int32_t jFirst = step->jointStart[stage->colour], jLast = step->jointStart[stage->colour + 1];
	if (overflow) {
		runJoints(step, stage, jFirst, jLast, true); // then the overflow contacts below
	} else if (item < stage->jointItems) {
		int32_t b = jFirst + item * DK_CONTACT_CHUNK;
		runJoints(step, stage, b, b + DK_CONTACT_CHUNK < jLast ? b + DK_CONTACT_CHUNK : jLast, false);
		return;
	}
	item -= stage->jointItems;
	int32_t b = overflow ? first : first + item * DK_CONTACT_CHUNK;
	int32_t e = overflow ? last : (b + DK_CONTACT_CHUNK < last ? b + DK_CONTACT_CHUNK : last);
	switch (stage->kind) {
	case dkStageWarmStart: (overflow ? dkContactWarmStart_scalar : k->contactWarmStart)(step->soa, b, e, step->states); break;
	case dkStageSolve:
	case dkStageRelax:
		(overflow ? dkContactSolve_scalar : k->contactSolve)(step->soa, b, e, step->states, step->invH, step->soft,
															  step->stiff, stage->kind == dkStageSolve);
		break;
	case dkStageRestitution:
		(overflow ? dkContactRestitution_scalar : k->contactRestitution)(step->soa, b, e, step->states);
		break;
	default: break;
	}
}

static void contactTask(void* context, int32_t worker)
{
	dkContactStep* step = context;
	for (int32_t s = 0; s < step->stageCount; ++s) {
		const dkStage* stage = &step->stages[s];
		atomic_int* done = step->counters + (size_t)s * (step->workers + 1);
		for (int32_t item; dkClaimShared(done + 1, stage->items, worker, step->workers, &item);) {
			runItem(step, stage, item);
			atomic_fetch_add(done, 1);
		}
		// Stages are short (tens of microseconds): spin, and only yield the processor after a long wait.
		int32_t spins = 0;
		while (atomic_load_explicit(done, memory_order_acquire) < stage->items) {
			if (++spins > 20000) sched_yield();
		}
	}
}

// A colour stage: chunks of the colour's joints (none for restitution), then of its contacts; the
// overflow group is one item.
static dkStage colourStage(dkStageKind kind, int32_t c, const int32_t* colourStart, const int32_t* jointStart)
{
	int32_t contacts = colourStart[c + 1] - colourStart[c];
	int32_t joints = kind == dkStageRestitution ? 0 : jointStart[c + 1] - jointStart[c];
	if (contacts + joints == 0) return (dkStage){.kind = kind, .colour = c};
	if (c == DK_GRAPH_COLOURS) return (dkStage){.kind = kind, .colour = c, .items = 1};
	int32_t jointItems = (joints + DK_CONTACT_CHUNK - 1) / DK_CONTACT_CHUNK;
	return (dkStage){.kind = kind, .colour = c, .items = jointItems + (contacts + DK_CONTACT_CHUNK - 1) / DK_CONTACT_CHUNK,
					  .jointItems = jointItems};
}

// Appends the stages of one step: per substep velocities, warm start, solve, positions and relax (colour
// by colour, in the symmetric order described above; joints before contacts within a colour, as Box2D;
// then the joint chains exactly), then restitution (when some contact is elastic), the final velocities and
// the contacts' impulses.
// The most stages buildStages can emit.
static int32_t maxStageCount(int32_t substeps, int32_t iterations)
{
	return substeps * (2 + (1 + 2 * iterations) * (DK_GRAPH_COLOURS + 2)) + DK_GRAPH_COLOURS + 3;
}

static int32_t buildStages(dkStage* stages, const int32_t* colourStart, const int32_t* jointStart, int32_t blocks,
						   int32_t chainItems, int32_t impulseItems, int32_t substeps, int32_t iterations, bool elastic)
{
	int32_t n = 0;
	for (int32_t s = 0; s < substeps; ++s) {
		stages[n++] = (dkStage){.kind = dkStageVelocities, .items = blocks, .fromStates = s > 0, .substep = s};
		// Pass 0 warm-starts; passes 1…2n solve n times and then relax n times, each against the one before.
		for (int32_t p = 0; p <= 2 * iterations; ++p) {
			dkStageKind kind = p == 0 ? dkStageWarmStart : p <= iterations ? dkStageSolve : dkStageRelax;
			dkStageKind chainKind = p == 0				? dkStageChainWarmStart
									: p <= iterations ? dkStageChainSolve
													  : dkStageChainRelax;
			if (p == iterations + 1) stages[n++] = (dkStage){.kind = dkStagePositions, .items = blocks};
			bool reverse = (p > 0 && (p & 1) == 0) != ((s & 1) != 0);
			for (int32_t i = 0; i <= DK_GRAPH_COLOURS; ++i) {
				dkStage stage = colourStage(kind, reverse ? DK_GRAPH_COLOURS - i : i, colourStart, jointStart);
				stage.springs = p == 1;
				if (stage.items > 0) stages[n++] = stage;
			}
			if (chainItems > 0) stages[n++] = (dkStage){.kind = chainKind, .items = chainItems};
		}
	}
	for (int32_t c = 0; elastic && c <= DK_GRAPH_COLOURS; ++c) {
		dkStage stage = colourStage(dkStageRestitution, c, colourStart, jointStart);
		if (stage.items > 0) stages[n++] = stage;
	}
	stages[n++] = (dkStage){.kind = dkStageStore, .items = blocks};
	if (impulseItems > 0) stages[n++] = (dkStage){.kind = dkStageImpulses, .items = impulseItems};
	return n;
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
	dkJointSoA joints = {0};
	dkJointChains chains = {0};
	int32_t colourStart[DK_GRAPH_COLOURS + 2], jointStart[DK_GRAPH_COLOURS + 2];
	float h = dt / (float)substeps;
	if (!prepareSoa(world, &soa, colourStart, &joints, jointStart, &chains, h)) {
		free(states);
		return; // out of memory: the step integrates nothing
	}
	int32_t iterations = world->def.solverIterations;
	int32_t maxStages = maxStageCount(substeps, iterations);
	dkStage* stages = malloc((size_t)maxStages * sizeof(dkStage));
	int32_t workers = soa.count + joints.count + awake >= DK_MIN_PARALLEL_SOLVE ? world->def.workerCount : 1;
	atomic_int* counters = malloc((size_t)maxStages * (size_t)(workers + 1) * sizeof(atomic_int));
	if (!stages || !counters) {
		free(stages);
		free(counters);
		freeSoa(&soa);
		dkJoints_FreeSoa(&joints);
		dkChains_Free(&chains);
		free(states);
		return;
	}
	float hertz = fminf(world->def.contactHertz, 0.25f / h);
	dkContactStep step = {
		.world = world, .states = states, .soa = &soa, .joints = &joints, .chains = &chains, .colourStart = colourStart,
		.jointStart = jointStart, .stages = stages,
		.counters = counters, .h = h, .invH = 1.0f / h,
		.soft = dkMakeSoft(hertz, DK_CONTACT_DAMPING_RATIO, h), .stiff = dkMakeSoft(2.0f * hertz, DK_CONTACT_DAMPING_RATIO, h),
		.joint = dkMakeSoft(fminf(DK_JOINT_HERTZ, 0.5f / h), DK_JOINT_DAMPING_RATIO, h),
		.chain = dkMakeSoft(DK_CHAIN_STIFFNESS / h, DK_JOINT_DAMPING_RATIO, h)};
	int32_t blocks = (awake + DK_CONTACT_BLOCK - 1) / DK_CONTACT_BLOCK;
	int32_t impulseItems = (soa.count + DK_CONTACT_BLOCK - 1) / DK_CONTACT_BLOCK;
	step.stageCount = buildStages(stages, colourStart, jointStart, blocks, chains.items, impulseItems, substeps, iterations,
								  soa.elastic);
	step.workers = workers;
	for (int32_t s = 0; s < step.stageCount; ++s) {
		atomic_int* done = counters + (size_t)s * (workers + 1);
		atomic_init(done, 0);
		for (int32_t w = 0; w < workers; ++w) atomic_init(&done[1 + w], dkShareStart(stages[s].items, w, workers));
	}
	dkRunTasks(world, contactTask, &step, workers);
	dkJoints_StoreImpulses(world, &joints);
	dkChains_StoreImpulses(world, &chains, &joints);
	free(stages);
	free(counters);
	freeSoa(&soa);
	dkJoints_FreeSoa(&joints);
	dkChains_Free(&chains);
	free(states);
}
