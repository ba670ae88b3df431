// Rest: rows whose rest timer reached restTime leave the awake range, in row order (deterministic),
// and are skipped by every stage until something wakes them (item_store.c, dkStore_WakeRow).
#include "core.h"

void dkRest_Partition(dkWorld* world)
{
	const float* t = world->col[dkColumnSleepTime];
	float restTime = world->def.restTime;
	int32_t i = 0;
	while (i < world->awake) {
		if (t[i] >= restTime) {
			int32_t last = world->awake - 1;
			dkStore_SwapRows(world, i, last);
			world->flags[last] |= dkItemResting;
			world->pairsValid = false;
			world->awake--;
		} else {
			++i;
		}
	}
}
