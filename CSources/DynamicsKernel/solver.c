// SPDX-License-Identifier: Apache-2.0
// The solver owns the order of stages within a step. Without collision shapes every stage is local to an
// item, so a block of DK_BLOCK awake rows runs the whole sequence for all substeps while it is in cache:
//   for each substep:  forces and fields → velocity (+ damping) → snap springs → velocity fields → position
//   then, once per step: rest detection
// Blocks have a fixed size and each row's arithmetic is independent of the block boundaries, so the
// result is bit-identical for any worker count. Workers claim blocks with an atomic counter; the host
// runs them (dkWorldDef.runTasks), entering its thread pool once per step.
// When the world has shapes or joints, the coupled path runs first (contact.c, contact_solver.c): broadphase,
// narrowphase and the contact and joint solver, whose substeps integrate velocities and positions around the
// contact solve; the blocks then only detect rest. That step has several parallel stages with serial work
// between them (the box pass, the pair grid's passes, the contact merge, filling the solver's rows, the
// solver's own stage sequence, the blocks), so it runs as the leader of a team (team.c): the host's pool
// is still entered once per step, and each parallel stage is a job for the team's workers.
//
// The BLAS integrator makes one saxpy per column per substep over each block rather than one call over
// all items: the block's columns stay in L2 across the substeps. Measured at 10⁶ items, 1 worker, reference
// BLAS: 21–29 ms/step per block against 56–63 ms/step with one whole-range call per column (DK_BLOCK set
// to 2³⁰ for the comparison); see Benchmarks/results/x86_64-avx512-xeon-2core/README.md.
#include "collision.h"
#include "field.h"
#include "joint.h"
#include "kernels.h"

#include <math.h>
#include <stdatomic.h>

typedef struct dkStepContext {
	dkWorld* world;
	float dt, h;
	int32_t substeps, blockCount;
	bool coupled; // contacts were solved already: blocks only detect rest
	atomic_int next;
	atomic_int resting;
	atomic_int still;
} dkStepContext;

// The scalar integrator runs every stage on the scalar reference kernels.
static const dkKernels* kernelsOf(const dkWorld* world)
{
	return world->def.integrator == dkIntegratorScalar ? dkScalarKernels() : world->kernels;
}

// Accelerations of rows [b, e) in one substep: forces and push torques, then the fields of that substep.
static void accelerations(dkWorld* world, const dkKernels* k, int32_t b, int32_t e, float h, int32_t substep,
						  dkFieldBatch* batch)
{
	k->accumulateForces(world->col, b, e);
	dkFields_Select(world, b, e, substep, true, batch);
	batch->h = h;
	if (batch->count > 0 || batch->customForces)
		k->applyFields(world->col, world->fieldLo, world->fieldHi, b, e, batch);
}

// y ← y + a·x over n rows: BLAS saxpy for the BLAS integrator, otherwise the kernel's own loop. The contact
// solver integrates through here whatever the integrator, and a BLAS library may fuse the multiply-add
// (OpenBLAS does, and so does Debian's reference BLAS on arm64), so only the BLAS integrator's bits depend
// on the library.
static void axpy(const dkWorld* world, int32_t n, float a, const float* x, float* y)
{
	if (world->def.integrator == dkIntegratorBLAS) {
		dkBlasAxpy(n, a, x, y, false);
		return;
	}
	for (int32_t i = 0; i < n; ++i) y[i] = y[i] + a * x[i];
}

void dkSolver_Velocities(dkWorld* world, int32_t b, int32_t e, float h, int32_t substep)
{
	float** c = world->col;
	const dkKernels* k = kernelsOf(world);
	dkFieldBatch batch;
	accelerations(world, k, b, e, h, substep, &batch);
	axpy(world, e - b, h, c[dkColumnAccelX] + b, c[dkColumnVelocityX] + b);
	axpy(world, e - b, h, c[dkColumnAccelY] + b, c[dkColumnVelocityY] + b);
	axpy(world, e - b, h, c[dkColumnAlpha] + b, c[dkColumnAngularVelocity] + b);
	k->dampAndSnap(c, b, e, h, world->hasSnaps);
	if (batch.velocityCount > 0) k->overrideVelocities(c, world->fieldLo, world->fieldHi, b, e, &batch);
}

// The fields of every substep for rows [b, e), for the fused integrator: chosen once by membership (the
// kernel tests region bounds per vector, as the rows move during the step), then the same fields'
// frames of each later substep.
static void selectStep(dkWorld* world, int32_t b, int32_t e, int32_t substeps, float h, dkFieldBatch* batch,
					   dkFieldPass* pass)
{
	dkFields_Select(world, b, e, 0, false, &batch[0]);
	batch[0].h = h;
	for (int32_t s = 1; s < substeps; ++s) {
		batch[s] = batch[0];
		for (int32_t k = 0; k < batch[0].count; ++k) batch[s].frame[k] = batch[0].frame[k] + s * world->framesPerSubstep;
	}
	*pass = (dkFieldPass){world->fieldLo, world->fieldHi, batch, batch[0].velocityCount > 0};
}

void dkSolver_Positions(dkWorld* world, int32_t b, int32_t e, float h)
{
	float** c = world->col;
	axpy(world, e - b, h, c[dkColumnVelocityX] + b, c[dkColumnPositionX] + b);
	axpy(world, e - b, h, c[dkColumnVelocityY] + b, c[dkColumnPositionY] + b);
	axpy(world, e - b, h, c[dkColumnAngularVelocity] + b, c[dkColumnAngle] + b);
}

// Rest detection for one block. While a world is settling (every awake row was still after the last
// step), the largest speed components (isamax) are checked first: when all are below the thresholds every
// row is still and the timers just advance. Otherwise each row is tested. Both give the same bits.
static int32_t detectRestBlock(dkWorld* world, int32_t begin, int32_t end, float dt, int32_t* still)
{
	float** c = world->col;
	const dkWorldDef* d = &world->def;
	int32_t n = end - begin;
	if (!world->allStill) return world->kernels->detectRest(c, begin, end, dt, d->restSpeed, d->restAngularSpeed,
															 d->restTime, still);
	float limit = d->restSpeed * 0.7071f; // |vx|, |vy| below this ⇒ vx² + vy² < restSpeed² even after rounding
	float mx = fabsf(c[dkColumnVelocityX][begin + dkBlasMaxAbsIndex(n, c[dkColumnVelocityX] + begin, false)]);
	float my = fabsf(c[dkColumnVelocityY][begin + dkBlasMaxAbsIndex(n, c[dkColumnVelocityY] + begin, false)]);
	float mw = fabsf(c[dkColumnAngularVelocity][begin + dkBlasMaxAbsIndex(n, c[dkColumnAngularVelocity] + begin, false)]);
	if (mx < limit && my < limit && mw < d->restAngularSpeed) {
		float* t = c[dkColumnSleepTime];
		int32_t resting = 0;
		for (int32_t i = begin; i < end; ++i) {
			t[i] = t[i] + dt;
			resting += t[i] >= d->restTime;
		}
		*still += n;
		return resting;
	}
	return world->kernels->detectRest(c, begin, end, dt, d->restSpeed, d->restAngularSpeed, d->restTime, still);
}

static void solveBlock(dkStepContext* ctx, int32_t block)
{
	dkWorld* world = ctx->world;
	int32_t begin = block * DK_BLOCK;
	int32_t end = begin + DK_BLOCK < world->awake ? begin + DK_BLOCK : world->awake;
	if (ctx->coupled) {
		// integrated by the contact solver
	} else if ((world->framesPerSubstep > 0 || world->customFieldForces) && world->def.integrator == dkIntegratorBLAS) {
		// Fields on the BLAS path: forces and fields, then v += h·a by saxpy, substep by substep.
		for (int32_t s = 0; s < ctx->substeps; ++s) {
			dkSolver_Velocities(world, begin, end, ctx->h, s);
			dkSolver_Positions(world, begin, end, ctx->h);
		}
	} else if (world->framesPerSubstep > 0 || world->customFieldForces) {
		// Fields on the fused path: the fields join the forces inside the one pass over the block.
		dkFieldBatch batch[DK_MAX_SUBSTEPS];
		dkFieldPass pass;
		selectStep(world, begin, end, ctx->substeps, ctx->h, batch, &pass);
		if (world->def.integrator == dkIntegratorScalar)
			dkIntegrateFused_scalar(world->col, begin, end, ctx->h, ctx->substeps, world->hasSnaps, &pass);
		else
			world->kernels->integrateFused(world->col, begin, end, ctx->h, ctx->substeps, world->hasSnaps, &pass);
	} else switch (world->def.integrator) {
	case dkIntegratorFused:
		world->kernels->integrateFused(world->col, begin, end, ctx->h, ctx->substeps, world->hasSnaps, NULL);
		break;
	case dkIntegratorBLAS:
		for (int32_t s = 0; s < ctx->substeps; ++s) {
			dkSolver_Velocities(world, begin, end, ctx->h, s);
			dkSolver_Positions(world, begin, end, ctx->h);
		}
		break;
	case dkIntegratorScalar:
		dkIntegrateFused_scalar(world->col, begin, end, ctx->h, ctx->substeps, world->hasSnaps, NULL);
		break;
	}
	if (world->def.restEnabled) {
		int32_t still = 0;
		atomic_fetch_add(&ctx->resting, detectRestBlock(world, begin, end, ctx->dt, &still));
		atomic_fetch_add(&ctx->still, still);
	}
}

static void workerMain(void* context, int32_t worker)
{
	(void)worker;
	dkStepContext* ctx = context;
	for (;;) {
		int32_t block = atomic_fetch_add(&ctx->next, 1);
		if (block >= ctx->blockCount) return;
		solveBlock(ctx, block);
	}
}

// The step itself, run by the leader of the step's team (team.c): every dkRunTasks in it is a job of the
// team, so the host's pool is entered once per step.
static void stepBody(void* context, int32_t worker)
{
	(void)worker;
	dkStepContext* ctx = context;
	dkWorld* world = ctx->world;
	double tc = dkNowNs();
	if (world->liveShapes > 0 || world->contactCount > 0 || world->liveJoints > 0) {
		// Coupled stages: broadphase → narrowphase → contact and joint solver (which integrates), then
		// rest below.
		if (world->liveShapes > 0 || world->contactCount > 0) dkContacts_Update(world, ctx->dt);
		double ts = dkNowNs();
		dkContactSolver_Step(world, ctx->dt, ctx->substeps);
		world->profile.contactSolve = dkNowNs() - ts;
		ctx->coupled = true;
	}
	world->profile.collide = dkNowNs() - tc;
	ctx->blockCount = (world->awake + DK_BLOCK - 1) / DK_BLOCK;
	atomic_init(&ctx->next, 0);
	atomic_init(&ctx->resting, 0);
	atomic_init(&ctx->still, 0);
	double t0 = dkNowNs();
	int32_t workers = world->def.workerCount < ctx->blockCount ? world->def.workerCount : ctx->blockCount;
	world->profile.workers = dkRunTasks(world, workerMain, ctx, workers);
	world->profile.blocks = ctx->blockCount;
	double t1 = dkNowNs();
	world->allStill = world->def.restEnabled && atomic_load(&ctx->still) == world->awake;
	if (atomic_load(&ctx->resting) > 0) dkRest_Partition(world);
	world->profile.solve = t1 - t0;
	world->profile.partition = dkNowNs() - t1;
}

// Whether a step would change nothing: every item rests and nothing since the last step changed which
// shapes pair (a shape, group, anchoring or waking clears pairsValid), so every contact would be carried as
// it is and no stage has a row to visit.
static bool allAtRest(const dkWorld* world)
{
	return world->awake == 0 && (world->pairsValid || (world->liveShapes == 0 && world->contactCount == 0));
}

void dkSolver_Step(dkWorld* world, float dt, int32_t substeps)
{
	dkStepContext ctx = {.world = world, .dt = dt, .h = dt / (float)substeps, .substeps = substeps};
	world->eventCount = 0;
	if (allAtRest(world)) { // a resting world costs nothing per step
		dkProfile idle = {.workers = 1};
		world->profile = idle;
		return;
	}
	world->rotationsCurrent = false; // until a stage computes this step's
	// With several workers a team runs the coupled step. A world of free items has only the blocks, and
	// enters the pool for them alone. A small coupled world runs every stage on one worker and does not
	// enter the pool at all (last step's contacts stand for this step's: a world that grows past the sizes
	// in one step still runs its stages in parallel, entering the pool per stage for that step).
	bool coupled = world->liveShapes > 0 || world->contactCount > 0 || world->liveJoints > 0;
	if (coupled && (world->awake + world->contactCount + world->liveJoints >= DK_MIN_PARALLEL_SOLVE ||
					world->shapeSlots >= DK_MIN_PARALLEL_SHAPES))
		dkTeam_Step(world, stepBody, &ctx);
	else
		stepBody(&ctx, 0);
}
