// SPDX-License-Identifier: Apache-2.0
// Stage: the coupled step's constraint solve, on the constraints contact_solver.c prepared. Soft-step substepping with relaxation, in the manner of Box2D v3:
//   once per step:  prepare (contact_solver.c: anchors, masses, the relative normal velocity for
//                   restitution); the first warm start computes the effective masses
//   per substep:    velocities → with elastic contacts, the approach (points still apart lower the
//                   relative normal velocity restitution answers to theirs now) → warm start → solve (soft,
//                   with bias) → positions → chain projection (joint_chain.c) → relax (no bias);
//                   with n solver iterations (dkWorldDef.solverIterations) the solve and the relax pass
//                   each run n times
//   once per step:  restitution, then the accumulated impulses are stored for the next step's warm start
// Separation is tracked during the step from each item's movement since the step began, so contacts stay
// correct across substeps without a new narrowphase. Positive separation makes a speculative contact:
// the items may close the gap within a substep but not pass through each other.
// Constraints are graph-coloured (constraint_graph.c) and solved colour by colour, in the order of their
// places within a colour (constraint_layout.c); no two constraints of a colour share a moving item, so their
// order within the colour does not matter and a wide solver can take them in lanes. The sweep over the
// colours is symmetric: each solve or relax pass runs the colours in the opposite order to the pass before it, and odd substeps reverse all. A sweep in one
// fixed order leaves a one-sided error that a tall structure turns into sway (the 5 050-box pyramid's top
// swayed ±5 pt for seconds and its kinetic energy stayed near 10⁵ after 2 s; with the symmetric sweep it
// settles like Box2D's, near 10³ after 2 s). It costs nothing: only the order of the stages changes.
// During the substeps the solver works on a compact array of body states (velocity, movement since the
// step began); items that do not move share one zero state.
#include "collision.h"
#include "constraint_graph.h"
#include "contact_solver.h"
#include "integrate.h"
#include "joint.h"
#include "kernels.h"
#include "solver_set.h"
#include "team.h"

#include <math.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>

// The step as a fixed sequence of stages, each split into items: blocks of DK_CONTACT_BLOCK rows, or chunks
// of DK_CONTACT_CHUNK constraints of one colour (the overflow colour is one item, solved at width 1). Each
// stage's rows or constraints are split into one contiguous share per worker, equal to within a batch
// (DK_CONSTRAINT_PAD), and each share into items (shareRange). Splitting the items instead gave the first
// share up to one item more than the last, so at 2 workers the worker of the last share waited at nearly
// every stage: 38 µs a step of the pyramid's 0.43 ms of stages, now 6–13 µs. A worker claims the items of its
// own share first, then takes what is left of the others' (each share has an atomic counter), and waits until
// every item of the stage is done before the next stage. So each worker keeps solving the same constraints
// and items from stage to stage and substep to substep, and their rows stay in its cache. A thread never
// waits for another thread to arrive, so the step is correct however many threads the host actually runs, and
// the result does not depend on which thread took which item.
#define DK_CONTACT_CHUNK 256
#define DK_CONTACT_BLOCK 2048 // rows per block stage item (per-item work: any split gives the same bits)
#define DK_SPARSE_BATCH 8 // a colour's last batch with at most 1/8 of its lanes live runs them at width 1
#define DK_SMALL_COLOUR 64 // constraints (padded) of a colour solved on one worker, in a run with its neighbours

typedef enum { dkStageVelocities, dkStageWarmStart, dkStageSolve, dkStagePositions, dkStageRelax,
			   dkStageStore, dkStageImpulses, dkStageApproach, dkStageRestitution, dkStageChainWarmStart,
			   dkStageChainSolve, dkStageChainRelax, dkStageChainProject } dkStageKind;

typedef struct dkStage {
	dkStageKind kind;
	int32_t colour;		// colour stages
	int32_t run;		// a run of small colours (one item): their count, from `colour` in dkContactStep.used
	bool reverse;		// a run: its colours in the opposite order
	int32_t items;		// blocks or chunks: `workers` shares of `perShare` items each (the overflow colour: one)
	int32_t perShare;	// items in each worker's share
	int32_t jointItems; // colour stages: the first items of each share are chunks of its joints
	bool fromStates;	// velocities: after the first substep, velocities come from the states
	bool springs;		// solve: the substep's first solve pass, where joint springs act
	bool masses;		// warm start: the step's first, which computes the contacts' effective masses
	int32_t substep;	// velocities: which substep (the field frames of its time)
} dkStage;

typedef struct dkContactStep {
	dkWorld* world;
	dkBodyState* states;
	const int32_t* kinematicRows; // dkConstraints'
	int32_t kinematicCount;
	dkContactSoA* soa;
	dkJointSoA* joints;
	dkJointChains* chains;
	const int32_t* colourStart;
	const int32_t* jointStart;
	const dkStage* stages;
	int32_t used[DK_GRAPH_COLOURS + 1]; // the colours with constraints, in order (the runs' colours)
	atomic_int* counters; // per stage: done, then each worker's next item
	int32_t stageCount, workers;
	float h, invH;
	dkSoftness soft, stiff, joint, chain, chainProjected;
} dkContactStep;

// Item j of share w of `count` rows or constraints in chunks of `chunk` (dkShareItem), on whole batches.
static void shareRange(int32_t count, int32_t chunk, int32_t workers, int32_t w, int32_t j, int32_t* b, int32_t* e)
{
	dkShareItem(count, DK_CONSTRAINT_PAD, chunk, workers, w, j, b, e);
}

static int32_t itemsPerShare(int32_t count, int32_t chunk, int32_t workers)
{
	return dkItemsPerShare(count, DK_CONSTRAINT_PAD, chunk, workers);
}

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

// Contacts [b, e) of one colour: the wide kernels, or width 1 (the overflow group, sparse batches).
static void runContacts(dkContactStep* step, const dkStage* stage, int32_t b, int32_t e, bool scalar)
{
	const dkKernels* k = step->world->kernels;
	dkStageKind kind = stage->kind;
	switch (kind) {
	case dkStageWarmStart:
		(scalar ? dkContactWarmStart_scalar : k->contactWarmStart)(step->soa, b, e, step->states, stage->masses);
		break;
	case dkStageSolve:
	case dkStageRelax:
		(scalar ? dkContactSolve_scalar : k->contactSolve)(step->soa, b, e, step->states, step->invH, step->soft,
														   step->stiff, kind == dkStageSolve);
		break;
	case dkStageRestitution:
		(scalar ? dkContactRestitution_scalar : k->contactRestitution)(step->soa, b, e, step->states);
		break;
	default: break;
	}
}

static void runColour(dkContactStep* step, const dkStage* stage, int32_t c, int32_t jb, int32_t je, int32_t b,
					  int32_t e);

// The kinematic rows among rows [b, e) pass their states, just integrated, to the copies the constraints
// read (constraint.h).
static void copyKinematic(dkContactStep* step, int32_t b, int32_t e)
{
	int32_t zero = step->world->awake;
	const int32_t* rows = step->kinematicRows;
	for (int32_t k = dkKinematicState(rows, step->kinematicCount, zero, b) - zero - 1; k < step->kinematicCount && rows[k] < e; ++k)
		step->states[zero + 1 + k] = step->states[rows[k]];
}

static void runItem(dkContactStep* step, const dkStage* stage, int32_t item)
{
	dkWorld* world = step->world;
	const dkKernels* k = world->kernels;
	if (stage->kind == dkStageChainWarmStart) {
		dkChains_WarmStart(step->chains, step->joints, step->states, item);
		return;
	}
	if (stage->kind == dkStageChainProject) {
		dkChains_Project(step->chains, step->joints, step->states, item, world->col, step->chainProjected, step->invH);
		return;
	}
	if (stage->kind == dkStageChainSolve || stage->kind == dkStageChainRelax) {
		dkChains_Solve(step->chains, step->joints, step->states, item, step->chain, step->chainProjected,
					   stage->kind == dkStageChainSolve, step->invH);
		return;
	}
	int32_t share = stage->perShare > 0 ? item / stage->perShare : 0, j = stage->perShare > 0 ? item % stage->perShare : 0;
	if (stage->kind == dkStageVelocities || stage->kind == dkStagePositions || stage->kind == dkStageStore) {
		int32_t b, e;
		shareRange(world->awake, DK_CONTACT_BLOCK, step->workers, share, j, &b, &e);
		if (stage->kind == dkStageVelocities) dkIntegrate_StateVelocities(world, step->states, b, e, step->h, stage->fromStates, stage->substep);
		else if (stage->kind == dkStagePositions) dkIntegrate_StatePositions(world, step->states, b, e, step->h);
		else dkIntegrate_StoreStates(world, step->states, b, e);
		if (step->kinematicCount > 0 && stage->kind != dkStageStore) copyKinematic(step, b, e);
		return;
	}
	if (stage->kind == dkStageImpulses || stage->kind == dkStageApproach) {
		int32_t b, e;
		shareRange(step->soa->count, DK_CONTACT_BLOCK, step->workers, share, j, &b, &e);
		if (stage->kind == dkStageImpulses) {
			dkContactSolver_StoreImpulses(world, step->soa, b, e);
			return;
		}
		// The padded colours at any width (blocks hold whole batches), the overflow group at width 1.
		int32_t overflow = step->colourStart[DK_GRAPH_COLOURS];
		if (b < overflow) k->contactApproach(step->soa, b, e < overflow ? e : overflow, step->states);
		if (e > overflow) dkContactApproach_scalar(step->soa, b > overflow ? b : overflow, e, step->states);
		return;
	}
	if (stage->run > 0) { // a run of small colours, each whole, in the pass's order
		for (int32_t i = 0; i < stage->run; ++i) {
			int32_t c = step->used[stage->colour + (stage->reverse ? stage->run - 1 - i : i)];
			runColour(step, stage, c, step->jointStart[c], step->jointStart[c + 1], step->colourStart[c],
					  step->colourStart[c + 1]);
		}
		return;
	}
	int32_t c = stage->colour, first = step->colourStart[c], last = step->colourStart[c + 1];
	int32_t jFirst = step->jointStart[c], jLast = step->jointStart[c + 1], b, e;
	if (c == DK_GRAPH_COLOURS) {
		runColour(step, stage, c, jFirst, jLast, first, last);
	} else if (j < stage->jointItems) {
		shareRange(jLast - jFirst, DK_CONTACT_CHUNK, step->workers, share, j, &b, &e);
		runJoints(step, stage, jFirst + b, jFirst + e, false);
	} else {
		shareRange(last - first, DK_CONTACT_CHUNK, step->workers, share, j - stage->jointItems, &b, &e);
		runColour(step, stage, c, 0, 0, first + b, first + e);
	}
}

// Of colour c, joints [jb, je) and then contacts [b, e): the overflow group at width 1, the others wide.
static void runColour(dkContactStep* step, const dkStage* stage, int32_t c, int32_t jb, int32_t je, int32_t b,
					  int32_t e)
{
	bool overflow = c == DK_GRAPH_COLOURS;
	if (je > jb) runJoints(step, stage, jb, je, overflow);
	if (e <= b) return;
	if (overflow) {
		runContacts(step, stage, b, e, true);
		return;
	}
	int32_t last = step->colourStart[c + 1];
	// A colour's last batch with few live lanes (a small world's colours are mostly that) runs at width 1 on
	// its live lanes alone, and otherwise the wide kernels stop after the last batch of their width that has
	// a live lane. Every width computes a lane alike, so the bits are the same, for less work.
	int32_t live = step->soa->liveEnd[c], tail = e - DK_CONSTRAINT_PAD;
	if (e == last && tail >= b && (live - tail) * DK_SPARSE_BATCH <= DK_CONSTRAINT_PAD) {
		if (tail > b) runContacts(step, stage, b, tail, false);
		runContacts(step, stage, tail, live, true);
		return;
	}
	int32_t width = step->world->kernels->width;
	if (e == last && live > b) e = b + (live - b + width - 1) / width * width;
	runContacts(step, stage, b, e, false);
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

// A colour stage: in each worker's share, chunks of its part of the colour's joints (none for restitution),
// then of its part of the contacts; the overflow group is one item.
static dkStage colourStage(dkStageKind kind, int32_t c, const int32_t* colourStart, const int32_t* jointStart,
						   int32_t workers)
{
	int32_t contacts = colourStart[c + 1] - colourStart[c];
	int32_t joints = kind == dkStageRestitution ? 0 : jointStart[c + 1] - jointStart[c];
	if (contacts + joints == 0) return (dkStage){.kind = kind, .colour = c};
	if (c == DK_GRAPH_COLOURS) return (dkStage){.kind = kind, .colour = c, .items = 1};
	int32_t jointItems = itemsPerShare(joints, DK_CONTACT_CHUNK, workers);
	int32_t perShare = jointItems + itemsPerShare(contacts, DK_CONTACT_CHUNK, workers);
	return (dkStage){.kind = kind, .colour = c, .items = workers * perShare, .perShare = perShare, .jointItems = jointItems};
}

// A stage over `count` rows or constraints in blocks of DK_CONTACT_BLOCK.
static dkStage blockStage(dkStageKind kind, int32_t count, int32_t workers)
{
	int32_t perShare = itemsPerShare(count, DK_CONTACT_BLOCK, workers);
	return (dkStage){.kind = kind, .items = workers * perShare, .perShare = perShare};
}

// Appends the stages of one step: per substep velocities, warm start, solve, positions and relax (colour
// by colour, in the symmetric order described above; joints before contacts within a colour, as Box2D;
// then the joint chains exactly), then restitution (when some contact is elastic), the final velocities and
// the contacts' impulses.
// The most stages buildStages can emit.
static int32_t maxStageCount(int32_t substeps, int32_t iterations)
{
	return substeps * (4 + (1 + 2 * iterations) * (DK_GRAPH_COLOURS + 2)) + DK_GRAPH_COLOURS + 3;
}

static int32_t buildStages(dkStage* stages, const int32_t* colourStart, const int32_t* jointStart, int32_t rows,
						   int32_t constraints, int32_t chainItems, int32_t substeps, int32_t iterations, bool elastic,
						   int32_t workers, int32_t* used)
{
	// Each colour's stage, worked out once (a pass differs only in its kind), and the colours that have one.
	// Colours next to each other in a pass that are small (or the overflow group, which is one item anyway)
	// are one stage of one item, a run: a colour of a few constraints gains nothing from a second worker, but
	// each stage costs every worker a wait. Box2D's tumbler has fifteen colours of one contact each (the
	// drum's) beside the overflow group; as a run they are 1 stage a pass instead of 16. A run solves its
	// colours in the order the separate stages did, so the bits are the same.
	dkStage passStage[DK_GRAPH_COLOURS + 1];
	bool small[DK_GRAPH_COLOURS + 1];
	int32_t usedCount = 0;
	for (int32_t c = 0; c <= DK_GRAPH_COLOURS; ++c) {
		passStage[c] = colourStage(dkStageSolve, c, colourStart, jointStart, workers);
		if (passStage[c].items == 0) continue;
		small[usedCount] = c == DK_GRAPH_COLOURS || colourStart[c + 1] - colourStart[c] + jointStart[c + 1] - jointStart[c] <=
														  DK_SMALL_COLOUR;
		used[usedCount++] = c;
	}
	int32_t n = 0;
	for (int32_t s = 0; s < substeps; ++s) {
		dkStage velocities = blockStage(dkStageVelocities, rows, workers);
		velocities.fromStates = s > 0;
		velocities.substep = s;
		stages[n++] = velocities;
		if (elastic && constraints > 0) stages[n++] = blockStage(dkStageApproach, constraints, workers);
		// Pass 0 warm-starts; passes 1…2n solve n times and then relax n times, each against the one before.
		for (int32_t p = 0; p <= 2 * iterations; ++p) {
			dkStageKind kind = p == 0 ? dkStageWarmStart : p <= iterations ? dkStageSolve : dkStageRelax;
			dkStageKind chainKind = p == 0				? dkStageChainWarmStart
									: p <= iterations ? dkStageChainSolve
													  : dkStageChainRelax;
			if (p == iterations + 1) {
				stages[n++] = blockStage(dkStagePositions, rows, workers);
				if (chainItems > 0) stages[n++] = (dkStage){.kind = dkStageChainProject, .items = chainItems};
			}
			bool reverse = (p > 0 && (p & 1) == 0) != ((s & 1) != 0);
			if (chainItems > 0) stages[n++] = (dkStage){.kind = chainKind, .items = chainItems};
			for (int32_t i = 0; i < usedCount;) {
				int32_t at = reverse ? usedCount - 1 - i : i, run = 0; // the run of small colours from `at`
				while (i + run < usedCount && small[reverse ? usedCount - 1 - i - run : i + run]) run++;
				dkStage stage = passStage[used[at]];
				if (run > 1) stage = (dkStage){.colour = reverse ? at - run + 1 : at, .run = run, .reverse = reverse, .items = 1};
				stage.kind = kind;
				stage.springs = p == 1;
				stage.masses = p == 0 && s == 0;
				stages[n++] = stage;
				i += run > 1 ? run : 1;
			}
		}
	}
	for (int32_t c = 0; elastic && c <= DK_GRAPH_COLOURS; ++c) {
		dkStage stage = colourStage(dkStageRestitution, c, colourStart, jointStart, workers);
		if (stage.items > 0) stages[n++] = stage;
	}
	stages[n++] = blockStage(dkStageStore, rows, workers);
	if (constraints > 0) stages[n++] = blockStage(dkStageImpulses, constraints, workers);
	return n;
}

// The stages of one step on the workers, then the impulses stored for the next step's warm start.
static void runStages(dkWorld* world, dkConstraints* c, dkStage* stages, atomic_int* counters, int32_t workers, float h,
					  int32_t substeps, int32_t iterations)
{
	int32_t awake = world->awake;
	dkContactSoA* soa = &c->soa;
	dkJointSoA* joints = &c->joints;
	dkJointChains* chains = &c->chains;
	const int32_t *colourStart = c->colourStart, *jointStart = c->jointStart;
	// Stiffness follows the configured substeps, not the doubled ones of a fast chain (substeps.c): a
	// stiffness that changed with the count would move what rests under load whenever the count changes (a
	// taut bridge whose chain stiffened with its substeps bounced and gained energy at every change).
	float configured = world->configuredSubstep;
	float hertz = fminf(world->def.contactHertz, 0.25f / configured);
	dkContactStep step = {
		.world = world, .states = c->states, .kinematicRows = c->kinematicRows, .kinematicCount = c->kinematicCount, .soa = soa, .joints = joints, .chains = chains, .colourStart = colourStart,
		.jointStart = jointStart, .stages = stages,
		.counters = counters, .h = h, .invH = 1.0f / h,
		.soft = dkMakeSoft(hertz, DK_CONTACT_DAMPING_RATIO, h), .stiff = dkMakeSoft(2.0f * hertz, DK_CONTACT_DAMPING_RATIO, h),
		.joint = dkMakeSoft(fminf(DK_JOINT_HERTZ, 0.5f / configured), DK_JOINT_DAMPING_RATIO, h),
		.chain = dkMakeSoft(DK_CHAIN_STIFFNESS / configured, DK_JOINT_DAMPING_RATIO, h),
		.chainProjected = dkMakeSoft(DK_CHAIN_PROJECTED_STIFFNESS / configured, DK_JOINT_DAMPING_RATIO, h)};
	step.stageCount = buildStages(stages, colourStart, jointStart, awake, soa->count, chains->items, substeps, iterations,
								  soa->elastic, workers, step.used);
	step.workers = workers;
	for (int32_t s = 0; s < step.stageCount; ++s) {
		atomic_int* done = counters + (size_t)s * (workers + 1);
		atomic_init(done, 0);
		for (int32_t w = 0; w < workers; ++w) atomic_init(&done[1 + w], dkShareStart(stages[s].items, w, workers));
	}
	dkRunTasks(world, contactTask, &step, workers);
	dkJoints_StoreImpulses(world, joints);
	dkChains_StoreImpulses(world, chains, joints);
}

// What a step takes from its arena after the contacts are known, element by element as the code takes it,
// with every row of the world counted as awake (a step may wake them all) and every contact, listed or
// resting, as listed (woken islands take theirs back). Each piece is rounded up to DK_ALIGN bytes: the
// step takes fewer than DK_SCRATCH_PIECES of them.
#define DK_SCRATCH_PIECES 64
size_t dkSolver_ScratchBound(const dkWorld* world, int32_t contacts, int32_t substeps)
{
	size_t rows = (size_t)world->count + 1, c = (size_t)contacts, j = (size_t)world->liveJoints, n = c + j + 1;
	size_t slots = (size_t)world->itemIds.next + 1, i4 = sizeof(int32_t), f4 = sizeof(float), d8 = sizeof(double);
	// The contact and joint layouts' holes are at most a quarter of their places held (dkLayout_Stale); a
	// colour's padding adds fewer than DK_CONSTRAINT_PAD constraints; the overflow group is not padded.
	size_t paddedContacts = c + c / 4 + 1 + DK_GRAPH_COLOURS * DK_CONSTRAINT_PAD + DK_CONSTRAINT_PAD;
	size_t paddedJoints = j + j / 4 + 1 + DK_GRAPH_COLOURS * DK_CONSTRAINT_PAD + DK_CONSTRAINT_PAD;
	size_t stages = (size_t)maxStageCount(substeps, world->def.solverIterations);
	size_t kinematic = (size_t)world->kinematicItems; // their rows, and their states after the zero state
	size_t bytes = (rows + kinematic) * sizeof(dkBodyState) + kinematic * i4 + stages * sizeof(dkStage) +
				   stages * ((size_t)world->def.workerCount + 1) * sizeof(atomic_int); // solveConstraints
	// dkConstraints_Prepare: per joint, four int32 and a byte; laying the contacts out, a count per chunk
	// of the list and group (contact_layout.c).
	bytes += n * (4 * i4 + 1) + rows * f4 + 2 * rows * d8 + (size_t)DK_LAYOUT_CHUNKS * DK_LAYOUT_GROUPS * i4;
	bytes += paddedContacts * (3 * i4 + (size_t)dkSoaColumns * f4);						   // the contact layout
	bytes += paddedJoints * (4 * i4 + (size_t)(dkJsColumns + dkJxColumns) * f4) + paddedJoints * 4; // dkJoints_Prepare
	bytes += rows * (1 + 2 * i4) + (j + 1) * (4 * i4 + 2) +								   // dkChains_Build
			 (j + 1) * (3 * i4 + 2 + 3 * f4 + (size_t)DK_CHAIN_SCRATCH * d8);			   // and its chains
	bytes += rows + rows * (d8 + 1);														   // marking, raised inertia
	size_t islands = (size_t)world->islandIds.next + 1;
	bytes += islands * i4 + 5 * slots * i4 + 2 * ((size_t)contacts + j + 1) * i4; // rest: islands' sets, dkIslands_Split
	bytes += dkSets_ScratchBound(world); // the contact update's dkSets_TakeBackWoken
	return bytes + DK_SCRATCH_PIECES * DK_ALIGN;
}

bool dkSolver_ReserveScratch(dkWorld* world, int32_t contacts, int32_t substeps)
{
	return dkArena_Reserve(world, dkSolver_ScratchBound(world, contacts, substeps));
}

bool dkSolver_Solve(dkWorld* world, dkConstraints* constraints, float dt, int32_t substeps)
{
	int32_t iterations = world->def.solverIterations, maxStages = maxStageCount(substeps, iterations), awake = world->awake;
	dkStage* stages = dkScratch(world, (size_t)maxStages * sizeof(dkStage));
	int32_t count = constraints->soa.count + constraints->joints.count + awake;
	int32_t workers = count >= DK_MIN_PARALLEL_SOLVE ? world->def.workerCount : 1;
	atomic_int* counters = dkScratch(world, (size_t)maxStages * (size_t)(workers + 1) * sizeof(atomic_int));
	if (!stages || !counters) return false;
	dkSubsteps_Kick(world);
	runStages(world, constraints, stages, counters, workers, dt / (float)substeps, substeps, iterations);
	world->chainTurn = dkChains_TurnAcceleration(&constraints->chains, &constraints->joints, constraints->states);
	return true;
}
