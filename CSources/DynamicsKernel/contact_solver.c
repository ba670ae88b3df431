// SPDX-License-Identifier: Apache-2.0
// Stage: preparing the coupled step's constraints, between collision and the solve (step.c). Once per
// step, the active joints are laid out for the wide kernels at the places they keep in their colours in the
// constraint graph (constraint_graph.c, constraint_layout.c; joint_solver.c, and the joint chains:
// joint_chain.c); the contacts with a moving item take the places the contact layout keeps for them
// (contact_layout.c) in the wide contact layout (contact_soa.h). Each contact's row is filled with its
// anchors, masses, mixed materials and relative normal velocity; the step's first warm start adds its
// effective masses. After the step the accumulated impulses go back to the contacts for the next step's warm
// start. The per-substep contact kernels are in stage_contact_wide.h (and contact_scalar.c).
#include "collision.h"
#include "team.h"
#include "constraint_graph.h"
#include "contact_solver.h"
#include "kernels.h"
#include "solver_set.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define DK_STORE_AHEAD 48 // constraints: how far ahead the store prefetches its contacts' impulses

// Copies the accumulated impulses of constraints [b, e) back to their contacts for the next step's warm
// start (each contact has one constraint).
void dkContactSolver_StoreImpulses(dkWorld* world, const dkContactSoA* soa, int32_t b, int32_t e)
{
	for (int32_t k = b; k < e; ++k) {
		if (k + DK_STORE_AHEAD < e && soa->contact[k + DK_STORE_AHEAD] >= 0) {
			const dkPointImpulse* ahead = world->contacts.data[soa->contact[k + DK_STORE_AHEAD]].manifold.impulses;
			__builtin_prefetch(&ahead[0], 1);
			__builtin_prefetch(&ahead[1].tangent, 1);
		}
		if (soa->contact[k] < 0) continue;
		dkPointImpulse* impulses = world->contacts.data[soa->contact[k]].manifold.impulses;
		const float* row = dkSoaRow(soa, k);
		for (int32_t i = 0; i < 2; ++i) { // a missing second point stores zeros it never reads
			impulses[i].normal = row[(dkSoaNormalImpulse + i * dkSoaPoint) * DK_CONSTRAINT_PAD];
			impulses[i].tangent = row[(dkSoaTangentImpulse + i * dkSoaPoint) * DK_CONSTRAINT_PAD];
		}
	}
}

// Filling the contact rows of the wide layout: the contact list in chunks, on any worker, each contact with a
// colour writing the row of its place (contact_layout.c), which reads the contacts front to back (taking the
// rows in layout order instead reads them at random, and measured slower). The list is split into one equal
// share per worker, each in chunks (dkShareItem, dkClaimShared). Each contact writes only its own row, so the
// split does not change a bit.
typedef struct dkFillTask {
	dkWorld* world;
	dkContactSoA* soa;
	// What every contact reads of the world, loaded once: the item columns, the slots' rows, the awake rows.
	const float *friction, *elasticity, *positionX, *positionY, *inverseMass, *columnInertia;
	const dkSlot* slots;
	int32_t awake;
	float substepRatio;
	const int32_t* colourStart;	 // where each group of places starts (dkConstraintLayout)
	const float* inverseInertia; // raised for items in joint chains
	const uint8_t* chainItem;	 // per state index up to the zero state: nonzero for an item of a joint chain (null: no chains)
	const int32_t* kinematicRows; // the awake kinematic rows (dkConstraints)
	int32_t kinematicCount;
	int32_t end, workers, perShare; // contacts, and chunks in each worker's share
	atomic_int next[DK_MAX_WORKERS];		 // each worker's share's next chunk (dkClaimShared)
	atomic_bool elastic; // some row has restitution
} dkFillTask;

#define DK_FILL_CHUNK 512

// What a contact's row reads of one side: the item's centre and material, and while it moves, its mass and
// inertia (zero otherwise). A boundary (no item) is all zero: its centre is the world origin. Its state is
// its row while it moves, an awake kinematic item's copy (constraint.h), or the zero state; `velocity` is
// the row whose velocity restitution reads (-1: zero).
typedef struct dkFillSide {
	float m, i, f, e, cx, cy;
	int32_t state, velocity;
	bool item; // the side has an item row (a boundary has none)
} dkFillSide;

// A side's row (none for a boundary), and `moving`, its row while it moves (dkMovingRow), else -1; all read
// before the row is written, which the compiler cannot move past the writes.
static inline dkFillSide fillSide(const dkFillTask* t, int32_t body, int32_t* moving)
{
	int32_t awake = t->awake;
	dkFillSide s = {.state = awake, .velocity = -1};
	*moving = -1;
	if (body < 0) return s;
	int32_t row = t->slots[body].dense;
	s.item = true;
	s.f = t->friction[row];
	s.e = t->elasticity[row];
	s.cx = t->positionX[row];
	s.cy = t->positionY[row];
	float m = t->inverseMass[row];
	if (row >= awake || !(m > 0.0f || t->columnInertia[row] > 0.0f)) {
		if (t->kinematicCount > 0 && row < awake && (t->world->flags[row] & dkItemKinematic)) {
			s.state = dkKinematicState(t->kinematicRows, t->kinematicCount, awake, row);
			s.velocity = row;
		}
		return s;
	}
	*moving = s.state = s.velocity = row;
	s.m = m;
	s.i = t->inverseInertia[row];
	return s;
}

// The velocity of a moving row (zero for -1: a side that does not move), which only elastic rows read.
static inline void fillVelocity(const dkWorld* world, int32_t moving, float v[3])
{
	v[0] = v[1] = v[2] = 0.0f;
	if (moving < 0) return;
	v[0] = world->col[dkColumnVelocityX][moving];
	v[1] = world->col[dkColumnVelocityY][moving];
	v[2] = world->col[dkColumnAngularVelocity][moving];
}

// How a contact's frame turns within the step (dkSoaFrame): each point goes with the item whose vertex or
// circle it is (dkManifold.owners), and its normal with the other item, whose face it lies on. Between two
// circles nothing turns: the normal runs between their centres. (The manifold's normal goes with its reference
// face, which for two faces flat on each other is a tie: a card pressed flat against a wall, its own face the
// reference, turned the wall's push with itself as it tilted and was pushed through the wall.) Contacts with
// something that does not move keep the arms of the step's start (dkFrameKeepArms): with turning arms, a box
// thrown face-on at a plate at 10 000 pt/s (spun by the impact, whose two points are solved one after the
// other) rocked off it at 50 pt/s, and jammed funnels rested later (the slowest of eleven after 8 min, against
// 76 s). The contacts of a joint chain's items keep the whole frame of the step's start: those items take a
// raised inertia in every constraint (joint_chain.c), and turning frames fed the chain: a dragged chain of nine
// boxes blew up, and the bridge's boxes gained energy.
static float frameBits(const dkContact* contact, bool chainItem, bool still)
{
	uint32_t owners = contact->manifold.owners, kinds = contact->kinds;
	if (chainItem) return dkSoaBits(dkFrameKeepArms | dkFrameKeepNormal);
	uint32_t bits = still ? dkFrameKeepArms : 0;
	if ((kinds & (dkContactCircleA | dkContactCircleB)) != (dkContactCircleA | dkContactCircleB)) {
		bits |= (owners & dkPoint0OnB) ? dkFramePoint0OnB : dkFramePoint0OnA;
		bits |= (owners & dkPoint1OnB) ? dkFramePoint1OnB : dkFramePoint1OnA;
	}
	if (kinds & dkContactCentredA) bits |= dkFrameAWithNormal;
	if (kinds & dkContactCentredB) bits |= dkFrameBWithNormal;
	return dkSoaBits(bits);
}

// One contact's row: anchors from the item centres, masses, the relative normal velocity for restitution,
// and friction and elasticity mixed by the pair rules of the Units and semantics article
// (Sources/Dynamics/Dynamics.docc/UnitsAndSemantics.md, §Items and materials): the geometric mean and the
// maximum for two items; a boundary takes the item's. A missing second point is zero. The effective masses
// are left to the step's first warm start, which computes them wide (stage_contact_wide.h): here they took a
// quarter of the fill's instructions, one contact at a time. Returns whether it is elastic.
static bool fillContact(const dkFillTask* t, int32_t i)
{
	const dkWorld* world = t->world;
	dkContactSoA* soa = t->soa;
	const dkContact* contact = &world->contacts.data[i];
	if (contact->colour == DK_GRAPH_NONE) return false; // no points
	int32_t k = t->colourStart[contact->colour] + contact->place, ra, rb;
	dkFillSide a = fillSide(t, contact->bodyA, &ra), b = fillSide(t, contact->bodyB, &rb);
	if (ra < 0 && rb < 0) { // nothing to move (until the merge that sorts sets it aside)
		dkContactSoA_Inert(soa, k);
		return false;
	}
	const dkManifold* m = &contact->manifold;
	float* r = dkSoaRow(soa, k);
	soa->stateA[k] = a.state;
	soa->stateB[k] = b.state;
	soa->contact[k] = i;
	float nx = m->nx, ny = m->ny;
	r[dkSoaNx * DK_CONSTRAINT_PAD] = nx;
	r[dkSoaNy * DK_CONSTRAINT_PAD] = ny;
	r[dkSoaMassA * DK_CONSTRAINT_PAD] = a.m;
	r[dkSoaInertiaA * DK_CONSTRAINT_PAD] = a.i;
	r[dkSoaMassB * DK_CONSTRAINT_PAD] = b.m;
	r[dkSoaInertiaB * DK_CONSTRAINT_PAD] = b.i;
	r[dkSoaStiff * DK_CONSTRAINT_PAD] = (ra < 0 || rb < 0) ? 1.0f : 0.0f; // rigid when braced (below)
	bool chainItem = t->chainItem && ((ra >= 0 && t->chainItem[ra]) || (rb >= 0 && t->chainItem[rb]));
	r[dkSoaFrame * DK_CONSTRAINT_PAD] = frameBits(contact, chainItem, ra < 0 || rb < 0);
	bool hasA = a.item, hasB = b.item;
	float restitution = hasA && hasB ? fmaxf(a.e, b.e) : (hasA ? a.e : b.e);
	r[dkSoaFriction * DK_CONSTRAINT_PAD] = hasA && hasB ? sqrtf(a.f * b.f) : (hasA ? a.f : b.f);
	r[dkSoaRestitution * DK_CONSTRAINT_PAD] = restitution;
	// An elastic row bounces from the relative normal velocity at the step's start; an inelastic one never
	// reads it (dkSoaRelativeVelocity stays 0), and so does not read the velocities either.
	bool elastic = restitution != 0.0f;
	float va[3], vb[3];
	fillVelocity(world, elastic ? a.velocity : -1, va);
	fillVelocity(world, elastic ? b.velocity : -1, vb);
	for (int32_t p = 0; p < 2; ++p) {
		int o = p * dkSoaPoint;
		if (p >= m->count) {
			for (int32_t g = dkSoaShared; g < dkSoaPointEnd; ++g) r[(g + o) * DK_CONSTRAINT_PAD] = 0.0f;
			continue;
		}
		const dkManifoldPoint* mp = &m->points[p];
		float px = contact->originX + mp->px, py = contact->originY + mp->py;
		float rAx = px - a.cx, rAy = py - a.cy, rBx = px - b.cx, rBy = py - b.cy;
		r[(dkSoaRAx + o) * DK_CONSTRAINT_PAD] = rAx;
		r[(dkSoaRAy + o) * DK_CONSTRAINT_PAD] = rAy;
		r[(dkSoaRBx + o) * DK_CONSTRAINT_PAD] = rBx;
		r[(dkSoaRBy + o) * DK_CONSTRAINT_PAD] = rBy;
		r[(dkSoaBase + o) * DK_CONSTRAINT_PAD] = mp->separation;
		r[(dkSoaNormalMass + o) * DK_CONSTRAINT_PAD] = 1.0f; // a point: the first warm start's effective masses
		r[(dkSoaNormalImpulse + o) * DK_CONSTRAINT_PAD] = m->impulses[p].normal * t->substepRatio;
		r[(dkSoaTangentImpulse + o) * DK_CONSTRAINT_PAD] = m->impulses[p].tangent * t->substepRatio;
		r[(dkSoaMaxNormalImpulse + o) * DK_CONSTRAINT_PAD] = 0.0f;
		float relative = 0.0f;
		if (elastic) {
			float dvx = (vb[0] - vb[2] * rBy) - (va[0] - va[2] * rAy);
			float dvy = (vb[1] + vb[2] * rBx) - (va[1] + va[2] * rAx);
			relative = dvx * nx + dvy * ny;
		}
		r[(dkSoaRelativeVelocity + o) * DK_CONSTRAINT_PAD] = relative;
	}
	return elastic;
}

static void fillTask(void* context, int32_t worker)
{
	dkFillTask* t = context;
	bool elastic = false;
	for (int32_t chunk; dkClaimShared(t->next, t->workers * t->perShare, worker, t->workers, &chunk);) {
		int32_t b, e;
		dkShareItem(t->end, 1, DK_FILL_CHUNK, t->workers, chunk / t->perShare, chunk % t->perShare, &b, &e);
		for (int32_t i = b; i < e; ++i) elastic = fillContact(t, i) || elastic;
	}
	if (elastic) atomic_store(&t->elastic, true);
}

// Finds the braced joint chains (joint.h) and makes their items' contacts with what does not move rigid.
// False when out of memory.
static bool markBraced(dkWorld* world, dkContactSoA* soa, dkJointChains* chains, const dkJointSoA* joints)
{
	uint8_t* braced = chains->braced;
	double* pull = dkScratchZeroed(world, (2 * ((size_t)soa->zeroState + 1)) * sizeof(double));
	if (!pull) return false;
	dkChains_Pulls(chains, joints, pull);
	for (int32_t k = 0; k < soa->count; ++k) {
		const float* r = dkSoaRow(soa, k);
		if (r[dkSoaStiff * DK_CONSTRAINT_PAD] == 0.0f) continue;
		bool itemIsB = soa->stateA[k] >= soa->zeroState; // the other side is read-only (constraint.h)
		int32_t m = itemIsB ? soa->stateB[k] : soa->stateA[k];
		// The normal points from A to B: out of what does not move when the item is B.
		double nx = itemIsB ? r[dkSoaNx * DK_CONSTRAINT_PAD] : -r[dkSoaNx * DK_CONSTRAINT_PAD];
		double ny = itemIsB ? r[dkSoaNy * DK_CONSTRAINT_PAD] : -r[dkSoaNy * DK_CONSTRAINT_PAD];
		if (braced[m] == dkChainItem && pull[2 * m] * nx + pull[2 * m + 1] * ny < -DK_CHAIN_BRACED_ERROR)
			braced[m] = dkChainPressed;
	}
	dkChains_FindBraced(chains, joints, world->joints.data);
	for (int32_t k = 0; k < soa->count; ++k) {
		float* stiff = &dkSoaRow(soa, k)[dkSoaStiff * DK_CONSTRAINT_PAD];
		int32_t m = soa->stateA[k] >= soa->zeroState ? soa->stateB[k] : soa->stateA[k];
		if (*stiff != 0.0f && braced[m] == dkChainBraced) *stiff = 2.0f;
	}
	return true;
}

// A joint's side on an awake kinematic item reads that item's state (constraint.h) rather than the zero
// state, with zero mass as before: the joint follows the item through the substeps. (No such joint is in a
// chain: joint_chain.c.)
static void kinematicJointSides(const dkWorld* world, dkConstraints* c)
{
	dkJointSoA* joints = &c->joints;
	for (int32_t k = 0; k < joints->count; ++k) {
		if (joints->joint[k] < 0) continue;
		const dkJoint* j = &world->joints.data[joints->joint[k]];
		int32_t bodies[2] = {j->bodyA, j->bodyB}, *states[2] = {joints->stateA, joints->stateB};
		for (int side = 0; side < 2; ++side) {
			int32_t row = bodies[side] >= 0 ? world->slots.data[bodies[side]].dense : -1;
			if (row >= 0 && row < world->awake && (world->flags[row] & dkItemKinematic))
				states[side][k] = dkKinematicState(c->kinematicRows, c->kinematicCount, world->awake, row);
		}
	}
}

// Lays out the constraints of every joint and contact with a moving item, wide, grouped by their colours in
// the constraint graph (constraint_graph.c): the joints and the contacts each at the place they keep in their
// colour between steps (joint_solver.c, contact_layout.c).
// Each colour is padded to a multiple of DK_CONSTRAINT_PAD with inert constraints; the overflow group comes
// last, unpadded (solved one at a time). colourStart and jointStart receive DK_GRAPH_COLOURS + 2 offsets
// each. The contact rows are filled in parallel (fillContact). Its arrays are the step arena's scratch,
// given back with the step's. Returns false when out of memory.
static bool prepareConstraints(dkWorld* world, dkConstraints* constraints, float h)
{
	dkContactSoA* soa = &constraints->soa;
	dkJointSoA* joints = &constraints->joints;
	dkJointChains* chains = &constraints->chains;
	int32_t *colourStart = constraints->colourStart, *jointStart = constraints->jointStart;
	int32_t cap0 = world->liveJoints > 0 ? world->liveJoints : 1;
	int32_t* list = dkScratch(world, (size_t)cap0 * sizeof(int32_t));
	int32_t* rowA = dkScratch(world, (size_t)cap0 * sizeof(int32_t));
	int32_t* rowB = dkScratch(world, (size_t)cap0 * sizeof(int32_t));
	int32_t* slot = dkScratch(world, (size_t)cap0 * sizeof(int32_t));
	uint8_t* direct = dkScratch(world, (size_t)cap0);
	bool ok = list && rowA && rowB && slot && direct;
	if (!ok) return false; // the step gives its scratch back
	dkSets_OrderJoints(world);
	int32_t totalJ = dkJoints_Places(world);
	memcpy(jointStart, world->jointLayout.colourStart, sizeof world->jointLayout.colourStart);
	int32_t nj = dkJoints_Active(world, list, rowA, rowB, slot);
	dkContacts_Places(world);
	const dkConstraintLayout* layout = &world->contactLayout;
	memcpy(colourStart, layout->colourStart, sizeof layout->colourStart);
	memcpy(soa->liveEnd, layout->liveEnd, sizeof layout->liveEnd);
	int32_t total = colourStart[DK_GRAPH_COLOURS + 1], n = world->contacts.count;
	int32_t cap = total > 0 ? total : 1, blocks = (cap + DK_CONSTRAINT_PAD - 1) / DK_CONSTRAINT_PAD;
	if (ok) {
		soa->count = total;
		soa->stateA = dkScratch(world, (size_t)cap * sizeof(int32_t));
		soa->stateB = dkScratch(world, (size_t)cap * sizeof(int32_t));
		soa->contact = dkScratch(world, (size_t)cap * sizeof(int32_t));
		soa->block = dkScratch(world, (size_t)blocks * dkSoaColumns * DK_CONSTRAINT_PAD * sizeof(float)); // every used row is written below
		ok = soa->stateA && soa->stateB && soa->contact && soa->block;
	}
	ok = ok && dkChains_Build(world, list, rowA, rowB, slot, nj, direct, chains) &&
		 dkJoints_Prepare(world, joints, list, rowA, rowB, slot, direct, totalJ, nj, h) &&
		 dkChains_MarkItems(world, chains, joints);
	if (!ok) return false; // the step gives its scratch back
	int32_t awake = world->awake;
	soa->zeroState = awake;
	// Items in joint chains take the step's raised inertia in every constraint (joint_chain.c).
	float* inertia = chains->joints > 0 ? dkScratch(world, (size_t)(awake + 1) * sizeof(float)) : NULL;
	if (inertia) {
		for (int32_t r = 0; r < awake; ++r) inertia[r] = world->col[dkColumnInverseInertia][r];
		inertia[awake] = 0.0f;
	}
	if (chains->joints > 0 && (!inertia || !dkChains_RaiseInertia(world, chains, joints, h, inertia))) return false;
	if (inertia) {
		for (int32_t k = 0; k < joints->count; ++k) {
			if (joints->stateA[k] < joints->zeroState) *dkJsAt(joints, dkJsInertiaA, k) = inertia[joints->stateA[k]];
			if (joints->stateB[k] < joints->zeroState) *dkJsAt(joints, dkJsInertiaB, k) = inertia[joints->stateB[k]];
		}
	}
	const float* inverseInertia = inertia ? inertia : world->col[dkColumnInverseInertia];
	// Padding and the holes of places given back: inert constraints (zero masses and impulses) between the zero
	// states.
	for (int32_t c = 0; c <= DK_GRAPH_COLOURS; ++c) {
		for (int32_t k = soa->liveEnd[c]; k < colourStart[c + 1]; ++k) dkContactSoA_Inert(soa, k);
		for (int32_t h = 0; h < layout->holes[c].count; ++h) dkContactSoA_Inert(soa, colourStart[c] + layout->holes[c].data[h]);
	}
	float* const* col = world->col;
	dkFillTask fill = {.world = world, .soa = soa, .colourStart = colourStart, .inverseInertia = inverseInertia,
					   .friction = col[dkColumnFriction], .elasticity = col[dkColumnElasticity],
					   .positionX = col[dkColumnPositionX], .positionY = col[dkColumnPositionY],
					   .inverseMass = col[dkColumnInverseMass], .columnInertia = col[dkColumnInverseInertia],
					   .slots = world->slots.data, .awake = world->awake, .substepRatio = world->substepRatio,
					   .chainItem = chains->joints > 0 ? chains->braced : NULL, .end = n,
					   .kinematicRows = constraints->kinematicRows, .kinematicCount = constraints->kinematicCount,
					   .workers = n >= 2 * DK_FILL_CHUNK ? world->def.workerCount : 1};
	fill.perShare = dkItemsPerShare(n, 1, DK_FILL_CHUNK, fill.workers);
	for (int32_t w = 0; w < fill.workers; ++w) atomic_init(&fill.next[w], w * fill.perShare);
	atomic_init(&fill.elastic, false);
	dkRunTasks(world, fillTask, &fill, fill.workers);
	soa->elastic = atomic_load(&fill.elastic);
	if (chains->braced && !markBraced(world, soa, chains, joints)) return false;
	if (constraints->kinematicCount > 0) kinematicJointSides(world, constraints);
	return true;
}

bool dkConstraints_Prepare(dkWorld* world, dkConstraints* constraints, float h)
{
	*constraints = (dkConstraints){0};
	float** c = world->col;
	int32_t awake = world->awake, kinematic = 0;
	if (world->kinematicItems > 0) { // the awake kinematic rows, whose states follow the zero state
		constraints->kinematicRows = dkScratch(world, (size_t)world->kinematicItems * sizeof(int32_t));
		if (!constraints->kinematicRows) return false;
		for (int32_t i = 0; i < awake; ++i)
			if (world->flags[i] & dkItemKinematic) constraints->kinematicRows[kinematic++] = i;
	}
	constraints->kinematicCount = kinematic;
	size_t count = (size_t)awake + 1 + (size_t)kinematic;
	dkBodyState* states = dkScratchZeroed(world, count * sizeof(dkBodyState));
	if (!states) return false;
	for (int32_t i = 0; i < awake; ++i) { // scratch columns: what the contacts measure movement from
		c[dkColumnStartX][i] = c[dkColumnPositionX][i];
		c[dkColumnStartY][i] = c[dkColumnPositionY][i];
	}
	for (size_t i = 0; i < count; ++i) states[i].dc = 1.0f; // and the zero state for items that do not move
	constraints->states = states;
	return prepareConstraints(world, constraints, h);
}
