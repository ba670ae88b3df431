// SPDX-License-Identifier: Apache-2.0
// Stage: rest, after the step's rest timers (solver.c). An island rests when every member's timer reached
// restTime, an item in no island when its own did; their rows leave the awake range in row order
// (deterministic) and every stage skips them until something wakes them (island.c, dkIslands_WakeRow).
// First, one island that has lost links is split, so that a part that is still can rest while another part
// moves: the island of the stillest member that could rest (Box2D's rule), one island a step.
#include "island.h"

#include <stdlib.h>

void dkRest_Partition(dkWorld* world)
{
	const float* t = world->col[dkColumnSleepTime];
	float restTime = world->def.restTime;
	int32_t split = -1;
	float stillest = 0.0f;
	for (int32_t row = 0; row < world->awake; ++row) {
		int32_t i = world->islandOf[world->slotOf[row]];
		if (i >= 0 && t[row] >= restTime && world->islands[i].removed > 0 && (split < 0 || t[row] > stillest)) {
			split = i;
			stillest = t[row];
		}
	}
	if (split >= 0) dkIslands_Split(world, split); // out of memory: the island rests or not as a whole
	uint8_t* busy = NULL;
	if (world->liveIslands > 0) {
		busy = calloc((size_t)world->islandSlots, 1);
		if (!busy) return; // out of memory: nothing rests this step
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
	free(busy);
}
