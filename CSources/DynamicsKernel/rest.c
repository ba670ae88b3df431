// SPDX-License-Identifier: Apache-2.0
// Stage: rest, the last of a step (step.c). Each block of DK_BLOCK awake rows advances its rest timers, on any
// worker (a world without constraints integrates the block first: integrate.c); then, once per step, the
// rows that may rest leave the awake range (partition).
// An island rests when every member's timer reached restTime, an item in no island when its own did; their rows leave the awake range in row order
// (deterministic) and every stage skips them until something wakes them (island.c, dkIslands_WakeRow).
// Items can also be put to rest by the host (dkWorld_Rest), as Box2D creates bodies asleep.
// First, one island that has lost links is split, so that a part that is still can rest while another part
// moves: the island of the stillest member that could rest (Box2D's rule), one island a step.
#include "field.h"
#include "integrate.h"
#include "island.h"
#include "kernels.h"
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

static void partition(dkWorld* world)
{
	const float* t = world->col[dkColumnSleepTime];
	float restTime = world->def.restTime;
	int32_t split = -1;
	float stillest = 0.0f;
	for (int32_t row = 0; row < world->awake; ++row) {
		int32_t i = world->islandOf[world->slotOf[row]];
		if (i >= 0 && t[row] >= restTime && world->islands.data[i].removed > 0 && (split < 0 || t[row] > stillest)) {
			split = i;
			stillest = t[row];
		}
	}
	// Both take the step's reserved scratch (dkSolver_ScratchBound); were it short, the island would rest or
	// not as a whole, and nothing would rest.
	if (split >= 0) dkIslands_Split(world, split);
	uint8_t* busy = NULL;
	if (world->liveIslands > 0) {
		busy = dkScratchZeroed(world, (size_t)world->islandIds.next);
		if (!busy) return;
		for (int32_t row = 0; row < world->awake; ++row) {
			int32_t i = world->islandOf[world->slotOf[row]];
			if (i >= 0 && t[row] < restTime) busy[i] = 1;
		}
	}
	int32_t row = 0;
	while (row < world->awake) {
		int32_t i = busy ? world->islandOf[world->slotOf[row]] : -1;
		if (i >= 0 ? !busy[i] : t[row] >= restTime) {
			int32_t last = world->awake - 1;
			dkStore_SwapRows(world, row, last);
			world->flags[last] |= dkItemResting;
			world->pairsValid = false;
			world->awake--;
		} else {
			++row;
		}
	}
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
	world->clockNs = t1;
	if (atomic_load(&pass.resting) > 0) {
		partition(world);
		world->clockNs = dkNowNs();
	}
	world->profile.solve = t1 - t0;
	world->profile.partition = world->clockNs - t1;
}

// Moves the awake rows whose slot is marked to the resting range, in row order (as partition).
static void restMarked(dkWorld* world, const uint8_t* marked)
{
	int32_t row = 0;
	while (row < world->awake) {
		if (!marked[world->slotOf[row]]) {
			++row;
			continue;
		}
		int32_t last = world->awake - 1;
		dkStore_SwapRows(world, row, last);
		world->flags[last] |= dkItemResting;
		world->col[dkColumnSleepTime][last] = world->def.restTime;
		world->pairsValid = false;
		world->awake--;
	}
}

dkResult dkWorld_Rest(dkWorld* world, const dkItemId* ids, int32_t count, dkError* error)
{
	for (int32_t i = 0; i < count; ++i) {
		if (dkStore_Resolve(world, ids[i]) < 0) {
			dkSetError(error, dkResultStaleId, i, "item", ids[i].index1);
			return dkResultStaleId;
		}
	}
	uint8_t* marked = dkAllocZeroed(world, world->itemIds.next > 0 ? (size_t)world->itemIds.next : 1);
	if (!marked) {
		dkSetError(error, dkResultOutOfMemory, -1, "items", count);
		return dkResultOutOfMemory;
	}
	for (int32_t i = 0; i < count; ++i) {
		int32_t slot = (int32_t)ids[i].index1 - 1, island = world->islandOf[slot];
		marked[slot] = 1;
		for (int32_t s = island >= 0 ? world->islands.data[island].head : -1; s >= 0; s = world->islandNext[s]) marked[s] = 1;
	}
	restMarked(world, marked);
	dkFree(world, marked);
	dkFields_WakeAnimated(world); // an animated field's items never rest
	return dkResultOK;
}
