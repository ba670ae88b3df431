// SPDX-License-Identifier: Apache-2.0
// Stage: rest, the last of a step (step.c). Each block of DK_BLOCK awake rows advances its rest timers, on any
// worker (a world without constraints integrates the block first: integrate.c); then, once per step, the
// islands and items whose timers ran out leave the awake range into solver sets of their own (solver_set.c,
// dkSets_Rest), where every stage leaves them until something wakes them.
#include "field.h"
#include "integrate.h"
#include "joint.h"
#include "kernels.h"
#include "solver_set.h"
#include "team.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>

// Rest detection for one block. While a world is settling (every awake row was still after the last
// step), the largest speed components (isamax) are checked first: when all are below the thresholds every
// row is still and the timers just advance. Otherwise each row is tested. Both give the same bits.
static int32_t detectBlock(dkWorld* world, int32_t begin, int32_t end, float dt, int32_t* still)
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

typedef struct dkRestPass {
	dkWorld* world;
	float dt, h;
	int32_t substeps; // integrate each block through this many substeps first (0: the solve integrated)
	int32_t blockCount;
	atomic_int next, resting, still;
} dkRestPass;

static void restBlocks(void* context, int32_t worker)
{
	(void)worker;
	dkRestPass* pass = context;
	dkWorld* world = pass->world;
	for (int32_t block; (block = atomic_fetch_add(&pass->next, 1)) < pass->blockCount;) {
		int32_t begin = block * DK_BLOCK, end = begin + DK_BLOCK < world->awake ? begin + DK_BLOCK : world->awake;
		if (pass->substeps > 0) dkIntegrate_Block(world, begin, end, pass->h, pass->substeps);
		if (world->def.restEnabled) {
			int32_t still = 0;
			atomic_fetch_add(&pass->resting, detectBlock(world, begin, end, pass->dt, &still));
			atomic_fetch_add(&pass->still, still);
		}
	}
}

// A motor that runs (a speed other than 0) keeps its items awake: turning slower than the rest speeds, a
// wheel on a motor of 0.02 rad/s came to rest after 0.5 s and stopped for good. Their rest timers start again
// every step, so their islands never rest. (Only worlds with motors or angular springs look.)
static void keepDrivenAwake(dkWorld* world)
{
	float* t = world->col[dkColumnSleepTime];
	for (int32_t k = 0; k < world->awakeJoints.count; ++k) {
		const dkJoint* j = &world->joints.data[world->awakeJoints.data[k]];
		if (!j->def.enableMotor || j->def.motorSpeed == 0.0f) continue;
		int32_t ra = dkMovingRow(world, j->bodyA), rb = dkMovingRow(world, j->bodyB);
		if (ra >= 0) t[ra] = 0.0f;
		if (rb >= 0) t[rb] = 0.0f;
	}
}

// A kinematic item rests only when still: while it has a velocity at all, its rest timer and those of the
// items it touches start again every step (carried on a platform slower than the rest speeds, a box would
// come to rest, stop with it and be left behind or passed through). (Only worlds with kinematic items look.)
static void keepCarriedAwake(dkWorld* world)
{
	float* t = world->col[dkColumnSleepTime];
	for (int32_t r = 0; r < world->awake; ++r)
		if ((world->flags[r] & dkItemKinematic) && dkStore_RowMoves(world, r)) t[r] = 0.0f;
	for (int32_t k = 0; k < world->contacts.count; ++k) {
		const dkContact* c = &world->contacts.data[k];
		if (!c->touching || c->bodyA < 0 || c->bodyB < 0) continue;
		int32_t ra = world->slots.data[c->bodyA].dense, rb = world->slots.data[c->bodyB].dense;
		if (ra >= world->awake || rb >= world->awake) continue;
		if ((world->flags[ra] & dkItemKinematic) && dkStore_RowMoves(world, ra)) t[rb] = 0.0f;
		if ((world->flags[rb] & dkItemKinematic) && dkStore_RowMoves(world, rb)) t[ra] = 0.0f;
	}
}

void dkRest_Step(dkWorld* world, float dt, int32_t integrateSubsteps)
{
	dkRestPass pass = {.world = world, .dt = dt, .substeps = integrateSubsteps,
					   .h = integrateSubsteps > 0 ? dt / (float)integrateSubsteps : 0.0f,
					   .blockCount = (world->awake + DK_BLOCK - 1) / DK_BLOCK};
	atomic_init(&pass.next, 0);
	atomic_init(&pass.resting, 0);
	atomic_init(&pass.still, 0);
	double t0 = world->clockNs;
	int32_t workers = world->def.workerCount < pass.blockCount ? world->def.workerCount : pass.blockCount;
	world->profile.workers = dkRunTasks(world, restBlocks, &pass, workers);
	world->profile.blocks = pass.blockCount;
	double t1 = dkNowNs();
	world->allStill = world->def.restEnabled && atomic_load(&pass.still) == world->awake;
	if (world->def.restEnabled && world->extraJoints > 0) keepDrivenAwake(world);
	if (world->def.restEnabled && world->kinematicItems > 0) keepCarriedAwake(world);
	world->clockNs = t1;
	if (atomic_load(&pass.resting) > 0) {
		dkSets_Rest(world);
		world->clockNs = dkNowNs();
	}
	world->profile.solve = t1 - t0;
	world->profile.partition = world->clockNs - t1;
}
