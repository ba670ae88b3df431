// SPDX-License-Identifier: Apache-2.0
// The constraint layouts (constraint_layout.c): each contact keeps its place while contacts begin and end
// around it, the places are laid out again only when items rest or wake or host calls recolour them; each
// joint keeps its place while joints are made and destroyed around it; and a step is never different from a
// world's that lays them out every step. (With DK_SELF_CHECKS, as these checks are built, every kept layout is
// also checked to give each constraint with a colour its own place, and the holes the rest, so every other
// check that steps a world checks it too.)
#include "check.h"
#include "collision.h"
#include "joint.h"

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
	int32_t laidSettled = 0, laidAfterCalls = 0, churnSteps = 0, churnKept = 0, churnJoins = 0, mostHoles = 0;
	for (int32_t step = 0; step < STEPS; ++step) {
		hostCalls(&kept, step);
		hostCalls(&fresh, step);
		int32_t before = kept.w->contactLayout.laidOut, resting = kept.w->count - kept.w->awake;
		dkLayout_Forget(&fresh.w->contactLayout);
		dkError e;
		must(dkWorld_Step(kept.w, 1.0f / 60.0f, 4, &e), &e, "dkWorld_Step");
		must(dkWorld_Step(fresh.w, 1.0f / 60.0f, 4, &e), &e, "dkWorld_Step");
		bool laid = kept.w->contactLayout.laidOut != before;
		int32_t events;
		dkWorld_ContactEvents(kept.w, &events);
		if (step >= 100 && step < 150) laidSettled += laid;
		if (step == 150 || step == 170 || step == 190) laidAfterCalls += laid;
		// Contacts began or ended while no item rested or woke, nor a host call came: the places were kept,
		// unless the contacts that took places since the last lay-out passed a 64th of those held.
		bool call = step == 150 || step == 170 || step == 190 || step == 210;
		if (step > 0 && !call && events > 0 && resting == 0 && kept.w->count == kept.w->awake) {
			churnSteps++;
			churnKept += !laid;
			churnJoins += laid && kept.w->contactLayout.reason == dkLayoutJoins;
		}
		if (kept.w->contactLayout.holeCount > mostHoles) mostHoles = kept.w->contactLayout.holeCount;
	}
	int32_t na, nb;
	float *a = packStates(kept.w, &na), *b = packStates(fresh.w, &nb);
	bool same = na == nb && memcmp(a, b, (size_t)na * 6 * sizeof(float)) == 0;
	char what[160], detail[300];
	snprintf(what, sizeof what, "contact layout: places kept as contacts begin and end, laid out again when items rest, wake or are recoloured (%d workers)", workers);
	snprintf(detail, sizeof detail,
			 "of %d steps whose contacts began or ended, kept in %d, laid out again in %d for the places taken since (holes up to %d); laid out in %d of the settled steps 100-149 and in %d of the 3 steps after host calls; %s a world laying them out every step",
			 churnSteps, churnKept, churnJoins, mostHoles, laidSettled, laidAfterCalls, same ? "same bits as" : "DIFFERENT bits from");
	check(r, same && churnSteps >= 10 && churnKept >= churnSteps / 2 && churnKept + churnJoins == churnSteps && mostHoles > 0 &&
				 laidSettled == 0 && laidAfterCalls == 3, what, detail);
	free(a);
	free(b);
	dkWorld_Destroy(kept.w);
	dkWorld_Destroy(fresh.w);
}

enum { SIDE = 8 };

// A SIDE × SIDE net of balls joined by pins to their right and lower neighbours, its top row pinned to the
// world; `joints` receives the pins between balls, row by row.
static dkWorld* net(int32_t workers, dkJointId* joints, int32_t* count)
{
	dkWorld* w = makeHostWorld(dkCpuBestSimdLevel(), workers, dkIntegratorFused, false);
	dkItemId ball_[SIDE][SIDE];
	dkError e;
	dkJointDef d = dkDefaultJointDef();
	d.kind = dkJointRevolute;
	*count = 0;
	for (int32_t row = 0; row < SIDE; ++row) {
		for (int32_t i = 0; i < SIDE; ++i) {
			ball_[row][i] = ball(w, 40.0f * (float)i, 40.0f * (float)row, 20, 0);
			if (row == 0) {
				d.itemA = (dkItemId){0, 0};
				d.itemB = ball_[row][i];
				d.anchorAx = 40.0f * (float)i;
				d.anchorAy = -20.0f;
				d.anchorBx = 0;
				d.anchorBy = -20.0f;
				must(dkWorld_CreateJoints(w, &d, 1, NULL, &e), &e, "dkWorld_CreateJoints");
			}
			for (int side = 0; side < 2; ++side) {
				if ((side == 0 && i == 0) || (side == 1 && row == 0)) continue;
				d.itemA = side == 0 ? ball_[row][i - 1] : ball_[row - 1][i];
				d.itemB = ball_[row][i];
				d.anchorAx = side == 0 ? 20.0f : 0.0f;
				d.anchorAy = side == 0 ? 0.0f : 20.0f;
				d.anchorBx = side == 0 ? -20.0f : 0.0f;
				d.anchorBy = side == 0 ? 0.0f : -20.0f;
				must(dkWorld_CreateJoints(w, &d, 1, &joints[(*count)++], &e), &e, "dkWorld_CreateJoints");
			}
		}
	}
	return w;
}

// What the host does at step s, the same to both worlds: pins destroyed, and one made again between the two
// balls of a destroyed one (a 64th of the places taken would lay them out again: constraint_layout.h).
static void jointCalls(dkWorld* w, dkJointId* joints, int32_t step)
{
	dkError e;
	if (step == 30) must(dkWorld_DestroyJoints(w, &joints[10], 3, &e), &e, "dkWorld_DestroyJoints");
	if (step == 50) {
		// The same pin again: its kind and anchors, between the same balls.
		const dkJoint* j = &w->joints.data[joints[40].index1 - 1];
		dkJointDef d = dkDefaultJointDef();
		d.kind = j->def.kind;
		d.itemA = (dkItemId){(uint32_t)j->bodyA + 1, w->slots.data[j->bodyA].generation};
		d.itemB = (dkItemId){(uint32_t)j->bodyB + 1, w->slots.data[j->bodyB].generation};
		d.anchorAx = j->def.anchorAx, d.anchorAy = j->def.anchorAy, d.anchorBx = j->def.anchorBx, d.anchorBy = j->def.anchorBy;
		must(dkWorld_DestroyJoints(w, &joints[40], 1, &e), &e, "dkWorld_DestroyJoints");
		must(dkWorld_CreateJoints(w, &d, 1, NULL, &e), &e, "dkWorld_CreateJoints");
	}
	if (step == 70) must(dkWorld_DestroyJoints(w, &joints[50], 1, &e), &e, "dkWorld_DestroyJoints");
}

static void netLayout(Report* r, int32_t workers)
{
	dkJointId keptJoints[2 * SIDE * SIDE], freshJoints[2 * SIDE * SIDE];
	int32_t n;
	dkWorld *kept = net(workers, keptJoints, &n), *fresh = net(workers, freshJoints, &n);
	int32_t laid = 0, mostHoles = 0, held = 0, places = 0, made = kept->liveJoints;
	for (int32_t step = 0; step < 100; ++step) {
		jointCalls(kept, keptJoints, step);
		jointCalls(fresh, freshJoints, step);
		int32_t before = kept->jointLayout.laidOut;
		dkLayout_Forget(&fresh->jointLayout);
		dkError e;
		must(dkWorld_Step(kept, 1.0f / 60.0f, 4, &e), &e, "dkWorld_Step");
		must(dkWorld_Step(fresh, 1.0f / 60.0f, 4, &e), &e, "dkWorld_Step");
		if (step > 0) laid += kept->jointLayout.laidOut != before;
		if (kept->jointLayout.holeCount > mostHoles) mostHoles = kept->jointLayout.holeCount;
		if (step == 99) held = kept->jointLayout.live;
	}
	for (int32_t g = 0; g < DK_LAYOUT_GROUPS; ++g) places += kept->jointLayout.used[g];
	int32_t na, nb;
	float *a = packStates(kept, &na), *b = packStates(fresh, &nb);
	bool same = na == nb && memcmp(a, b, (size_t)na * 6 * sizeof(float)) == 0;
	char what[160], detail[300];
	snprintf(what, sizeof what, "joint layout: places kept as pins are destroyed and made, holes filled first (%d workers)", workers);
	// 3 pins destroyed leave 3 holes; the pin made after one destroyed takes a hole; one more destroyed: 4.
	snprintf(detail, sizeof detail, "laid out again in %d of steps 1-99; holes up to %d, %d at the end; %d places held of %d joints, %d places for the %d first made; %s a world laying them out every step",
			 laid, mostHoles, kept->jointLayout.holeCount, held, kept->liveJoints, places, made, same ? "same bits as" : "DIFFERENT bits from");
	check(r, same && laid == 0 && mostHoles == 4 && kept->jointLayout.holeCount == 4 && held == kept->liveJoints && places == made, what, detail);
	free(a);
	free(b);
	dkWorld_Destroy(kept);
	dkWorld_Destroy(fresh);
}

void contactLayouts(Report* r)
{
	stackLayout(r, 1);
	stackLayout(r, 2);
	netLayout(r, 1);
	netLayout(r, 2);
}
