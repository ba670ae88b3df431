// SPDX-License-Identifier: Apache-2.0
// Items and shapes made and removed between steps (broadphase.c): the broadphase takes them in without a
// full pass, and the pairs and states are those of a full pass every step.
#include "check.h"
#include "collision.h" // internal: built with -ICSources/DynamicsKernel

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHURN_STEPS 240
#define CHURN_KEEP 36 // churned items alive at once

// A floor, a grid of boxes put to rest in mid-air and balls bouncing beside it; between steps, items with
// shapes are made above the balls and the oldest removed, pairs of new items are pinned together (they stop
// colliding), an item's groups are changed and changed back, and a resting box loses its shape and gets
// it back. With `full`, the pairs are marked invalid before each step, so every step finds them in full.
static float* churnedRun(int32_t workers, bool full, int32_t* items, int32_t* retaken, int32_t* valid,
						 int32_t* matched, uint64_t* trace)
{
	dkWorld* w = makeWorld(dkSimdAVX512, workers, dkIntegratorFused);
	const float floorY = 500;
	dkItemId grid[100];
	restingGridBesideBalls(w, floorY, 10, 100, 10, 40, grid);
	dkError e;
	dkItemId churned[CHURN_KEEP];
	int32_t made = 0;
	*trace = 1469598103934665603u;
	for (int32_t s = 0; s < CHURN_STEPS; ++s) {
		if (s % 3 == 0) { // three items made, the three oldest removed
			for (int k = 0; k < 3; ++k, ++made) {
				float x = -400.0f + 130.0f * (float)(made % 9), y = floorY - 900 - 30.0f * (float)(made % 4);
				dkItemId id = made % 2 ? ball(w, x, y, 36, 0.3f) : box(w, x, y, 0.1f * (float)k, 50, 30);
				if (made >= CHURN_KEEP) must(dkWorld_RemoveItems(w, &churned[made % CHURN_KEEP], 1, &e), &e, "dkWorld_RemoveItems");
				churned[made % CHURN_KEEP] = id;
			}
		}
		if (s % 9 == 4) { // the two newest pinned: they stop colliding with each other
			dkJointDef d = dkDefaultJointDef();
			d.kind = dkJointRevolute;
			d.itemA = churned[(made - 1) % CHURN_KEEP];
			d.itemB = churned[(made - 2) % CHURN_KEEP];
			dkJointId j;
			must(dkWorld_CreateJoints(w, &d, 1, &j, &e), &e, "dkWorld_CreateJoints");
		}
		if (s % 10 == 5 || s % 10 == 8) { // a ball's groups changed, and changed back
			dkItemId b = churned[(made - 1) % CHURN_KEEP];
			uint64_t groups = s % 10 == 5 ? 2u : 1u, boundary = 1u;
			must(dkWorld_SetItemShapeGroups(w, &b, &groups, &boundary, NULL, 1, &e), &e, "dkWorld_SetItemShapeGroups");
		}
		if (s % 40 == 20) dkWorld_DestroyItemShapes(w, grid[s / 40]); // a resting box loses its shape
		if (s % 40 == 30) { // and gets one back
			dkShapeDef d = dkDefaultShapeDef();
			d.item = grid[s / 40];
			d.kind = dkGeometryCircle;
			d.count = 1;
			d.radius = 20;
			dkShapeId id;
			must(dkWorld_CreateShape(w, &d, &id, &e), &e, "dkWorld_CreateShape");
		}
		if (full) w->pairsValid = false;
		step(w, 1);
		*retaken += w->pairsRetaken;
		// Unless the step woke or rested items after its broadphase (then the next one moves their shapes)
		if (!full && w->pairsValid && w->restChangeCount == 0) ++*valid, *matched += pairsAsBruteForce(w);
		*trace = (*trace ^ (uint64_t)dkWorld_ContactCount(w) ^ ((uint64_t)w->awake << 32)) * 1099511628211u;
	}
	float* state = packStates(w, items);
	dkWorld_Destroy(w);
	return state;
}

// Churned pairs are every pair of the fat boxes, most churning steps take the changes in without a full pass,
// and the states are those of a full pass every step, and of 2 workers.
void churnedPairs(Report* r)
{
	int32_t items[3] = {0}, retaken[3] = {0}, valid[3] = {0}, matched[3] = {0};
	uint64_t trace[3];
	float* state[3];
	for (int run = 0; run < 3; ++run)
		state[run] = churnedRun(run == 2 ? 2 : 1, run == 1, &items[run], &retaken[run], &valid[run], &matched[run], &trace[run]);
	char detail[160];
	snprintf(detail, sizeof detail, "%d of %d steps took changed shapes in; %d of %d lists matched", retaken[0],
			 CHURN_STEPS, matched[0], valid[0]);
	check(r, retaken[0] >= CHURN_STEPS / 3 && valid[0] >= CHURN_STEPS / 2 && matched[0] == valid[0],
		  "churned pairs: shapes made and freed between steps are taken in without a full pass, every pair found", detail);
	bool same = items[1] == items[0] && items[2] == items[0];
	for (int run = 1; run < 3 && same; ++run)
		same = trace[run] == trace[0] && memcmp(state[run], state[0], (size_t)items[0] * 6 * sizeof(float)) == 0;
	check(r, same, "churned pairs: the same states as a full search every step, and at 2 workers", "");
	for (int run = 0; run < 3; ++run) free(state[run]);
}
