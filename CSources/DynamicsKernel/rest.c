// Rest: rows whose rest timer reached restTime leave the awake range, in row order (deterministic),
// and are skipped by every stage until something wakes them (item_store.c, dkStore_WakeRow).
// Items linked by joints rest together (joint_store.c).
#include "joint.h"

#include <stdlib.h>

void dkRest_Partition(dkWorld* world)
{
	const float* t = world->col[dkColumnSleepTime];
	float restTime = world->def.restTime;
	uint8_t* ready = world->liveJoints > 0 ? malloc((size_t)world->awake + 1) : NULL;
	if (world->liveJoints > 0 && !ready) return; // out of memory: nothing rests this step
	if (ready) {
		for (int32_t i = 0; i < world->awake; ++i) ready[i] = t[i] >= restTime;
		dkJoints_RestTogether(world, ready);
	}
	int32_t i = 0;
	while (i < world->awake) {
		if (ready ? ready[i] : t[i] >= restTime) {
			int32_t last = world->awake - 1;
			dkStore_SwapRows(world, i, last);
			if (ready) ready[i] = ready[last];
			world->flags[last] |= dkItemResting;
			world->pairsValid = false;
			world->awake--;
		} else {
			++i;
		}
	}
	free(ready);
}
