// SPDX-License-Identifier: Apache-2.0
// The contact layout (contact_layout.c): each contact keeps its place while contacts begin and end around it,
// the places are laid out again only when items rest or wake or host calls recolour them, and a step is never
// different from a world's that lays them out every step. (With DK_SELF_CHECKS, as these checks are built,
// every kept layout is also checked to give each contact with a colour its own place, and the holes the
// rest, so every other check that steps a world checks it too.)
#include "check.h"
#include "collision.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROWS = 12, STEPS = 260 };

typedef struct Stack {
	dkWorld* w;
	dkItemId boxes[ROWS * (ROWS + 1) / 2];
	int32_t count;
} Stack;

// A pyramid of ROWS rows of 40-pt boxes on a floor.
static Stack pyramid(int32_t workers)
{
	Stack s = {.w = makeHostWorld(dkCpuBestSimdLevel(), workers, dkIntegratorFused, false)};
	segment(s.w, -2000, FLOOR, 2000, FLOOR);
	for (int32_t row = 0; row < ROWS; ++row)
		for (int32_t i = 0; i < ROWS - row; ++i)
			s.boxes[s.count++] = box(s.w, 42.0f * ((float)i - (float)(ROWS - row) / 2.0f), FLOOR - 20.0f - 40.0f * (float)row, 0, 40, 40);
	return s;
}

// What the host does at step s, the same to both worlds: a box anchored, set free, removed, and one made.
static void hostCalls(Stack* s, int32_t step)
{
	dkError e;
	dkItemDef d = dkDefaultItemDef();
	d.shape = dkShapeRectangle;
	d.width = d.height = 40;
	if (step == 150 || step == 170) {
		d.flags = step == 150 ? dkItemAnchored : 0;
		must(dkWorld_SetMassProperties(s->w, &s->boxes[3], 1, &d, &e), &e, "dkWorld_SetMassProperties");
	}
	if (step == 190) must(dkWorld_RemoveItems(s->w, &s->boxes[s->count - 1], 1, &e), &e, "dkWorld_RemoveItems");
	if (step == 210) box(s->w, 0, FLOOR - 40.0f * (float)ROWS - 100.0f, 0.3f, 30, 30);
}

static void stackLayout(Report* r, int32_t workers)
{
	Stack kept = pyramid(workers), fresh = pyramid(workers);
	int32_t laidSettled = 0, laidAfterCalls = 0, churnSteps = 0, churnKept = 0, mostHoles = 0;
	for (int32_t step = 0; step < STEPS; ++step) {
		hostCalls(&kept, step);
		hostCalls(&fresh, step);
		int32_t before = kept.w->layout.laidOut, resting = kept.w->count - kept.w->awake;
		dkLayout_Forget(fresh.w);
		dkError e;
		must(dkWorld_Step(kept.w, 1.0f / 60.0f, 4, &e), &e, "dkWorld_Step");
		must(dkWorld_Step(fresh.w, 1.0f / 60.0f, 4, &e), &e, "dkWorld_Step");
		bool laid = kept.w->layout.laidOut != before;
		int32_t events;
		dkWorld_ContactEvents(kept.w, &events);
		if (step >= 100 && step < 150) laidSettled += laid;
		if (step == 150 || step == 170 || step == 190) laidAfterCalls += laid;
		// Contacts began or ended while no item rested or woke, nor a host call came: the places were kept.
		bool call = step == 150 || step == 170 || step == 190 || step == 210;
		if (step > 0 && !call && events > 0 && resting == 0 && kept.w->count == kept.w->awake) {
			churnSteps++;
			churnKept += !laid;
		}
		if (kept.w->layout.holeCount > mostHoles) mostHoles = kept.w->layout.holeCount;
	}
	int32_t na, nb;
	float *a = packStates(kept.w, &na), *b = packStates(fresh.w, &nb);
	bool same = na == nb && memcmp(a, b, (size_t)na * 6 * sizeof(float)) == 0;
	char what[160], detail[300];
	snprintf(what, sizeof what, "contact layout: places kept as contacts begin and end, laid out again when items rest, wake or are recoloured (%d workers)", workers);
	snprintf(detail, sizeof detail,
			 "kept in %d of %d steps whose contacts began or ended (holes up to %d); laid out in %d of the settled steps 100-149 and in %d of the 3 steps after host calls; %s a world laying them out every step",
			 churnKept, churnSteps, mostHoles, laidSettled, laidAfterCalls, same ? "same bits as" : "DIFFERENT bits from");
	check(r, same && churnSteps >= 10 && churnKept == churnSteps && mostHoles > 0 && laidSettled == 0 && laidAfterCalls == 3, what, detail);
	free(a);
	free(b);
	dkWorld_Destroy(kept.w);
	dkWorld_Destroy(fresh.w);
}

void contactLayouts(Report* r)
{
	stackLayout(r, 1);
	stackLayout(r, 2);
}
