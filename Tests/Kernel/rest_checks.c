// SPDX-License-Identifier: Apache-2.0
// Contacts of resting items (contact.c): set aside while their items rest, so steps that move other items
// do not visit them; taken back, and solved, in the step their items wake; ended when their items go.
#include "check.h"
#include "solver_set.h" // internal: built with -ICSources/DynamicsKernel

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COLUMNS 3
#define HEIGHT 4

// Whether the item of slot `body` moves this step (awake and not anchored); false for a boundary.
static bool moves(const dkWorld* w, int32_t body)
{
	if (body < 0) return false;
	int32_t row = w->slots.data[body].dense;
	return row >= 0 && row < w->awake && w->col[dkColumnInverseMass][row] > 0.0f;
}

// Whether the list holds only contacts with a moving item, the resting ones (the world's and each solver
// set's) only contacts without, each sorted by shape pair, and the contact count is their points' contacts
// together.
static bool storesHold(const dkWorld* w)
{
	int32_t withPoints = 0, max = w->sets.count + 2;
	const dkContact** lists = malloc((size_t)max * sizeof *lists);
	int32_t* counts = malloc((size_t)max * sizeof *counts);
	lists[0] = w->contacts.data;
	counts[0] = w->contacts.count;
	int32_t n = 1 + restingLists(w, lists + 1, counts + 1, max - 1);
	bool ok = true;
	for (int32_t l = 0; l < n && ok; ++l) {
		for (int32_t k = 0; k < counts[l]; ++k) {
			const dkContact* c = &lists[l][k];
			bool moving = moves(w, c->bodyA) || moves(w, c->bodyB);
			if (moving != (l == 0)) ok = false;
			if (k > 0 && (lists[l][k - 1].shapeA > c->shapeA ||
						  (lists[l][k - 1].shapeA == c->shapeA && lists[l][k - 1].shapeB >= c->shapeB)))
				ok = false;
			withPoints += c->manifold.count > 0;
		}
	}
	free(lists);
	free(counts);
	char detail[160];
	return ok && withPoints == dkWorld_ContactCount(w) && setFaults(w, detail, sizeof detail) == 0;
}

typedef struct RestRun {
	float* state; // poses and velocities, 6 floats per item
	int32_t items;
	uint64_t trace;			// FNV-1a of every step's contact count, awake count and events
	int32_t asideSteps;		// steps whose list held no resting contact, with resting ones set aside
	int32_t heldSteps;		// steps after which storesHold
	int32_t steps;
	float wakeSag;			// how far the struck column's boxes moved down or up in the step it woke (pt)
	int32_t wokeColumns;	// columns awake after the drop
	int32_t removedEnded;	// ended events naming the removed box, in the step after its removal
	bool aboveWoke;			// the box above the removed one woke
} RestRun;

static int32_t rowOf(const dkWorld* w, dkItemId id)
{
	int32_t row;
	dkWorld_DenseIndices(w, &id, 1, &row);
	return row;
}

// Three columns of four boxes, apart, put to rest on the floor after they settled; a ball bouncing far
// away keeps the world stepping. Then a ball rolls into the first column, and the second column's bottom
// box is removed. `fullPasses` finds every step's pairs again (every merge sorts the contacts anew).
static RestRun restRun(int32_t workers, bool fullPasses)
{
	dkWorld* w = makeWorld(dkSimdAVX512, workers, dkIntegratorFused);
	segment(w, -3000, FLOOR, 3000, FLOOR);
	dkItemId column[COLUMNS][HEIGHT];
	for (int c = 0; c < COLUMNS; ++c)
		for (int k = 0; k < HEIGHT; ++k)
			column[c][k] = box(w, -1000.0f + 200.0f * (float)c, FLOOR - 20.0f - 40.0f * (float)k, 0, 40, 40);
	ball(w, 1500, FLOOR - 800, 40, 0.95f);
	RestRun run = {.trace = 1469598103934665603u, .wakeSag = -1};
	dkItemId dropped = {0, 0};
	for (int s = 0; s < 400; ++s) {
		if (s == 60) { // settled: the columns rest
			dkError e;
			must(dkWorld_Rest(w, &column[0][0], COLUMNS * HEIGHT, &e), &e, "dkWorld_Rest");
		}
		if (s == 120) { // a ball rolls into the first column's bottom box
			dropped = ball(w, -1070, FLOOR - 15, 30, 0.2f);
			float vx = 120, zero = 0;
			dkError e;
			must(dkWorld_AddVelocities(w, &dropped, &vx, &zero, &zero, 1, &e), &e, "dkWorld_AddVelocities");
		}
		if (s == 300) {
			dkError e;
			must(dkWorld_RemoveItems(w, &column[1][0], 1, &e), &e, "dkWorld_RemoveItems");
		}
		bool struckRests = rowOf(w, column[0][0]) >= w->awake;
		float before[HEIGHT];
		for (int k = 0; k < HEIGHT; ++k) before[k] = dkWorld_Column(w, dkColumnPositionY)[rowOf(w, column[0][k])];
		if (fullPasses) w->pairsValid = false;
		step(w, 1);
		run.steps++;
		run.heldSteps += storesHold(w);
		run.asideSteps += s > 60 && s < 120 && dkSets_RestingContacts(w) > 0 && w->contacts.count <= 2;
		if (dropped.index1 && struckRests && rowOf(w, column[0][0]) < w->awake)
			for (int k = 0; k < HEIGHT; ++k)
				run.wakeSag = fmaxf(run.wakeSag, fabsf(dkWorld_Column(w, dkColumnPositionY)[rowOf(w, column[0][k])] - before[k]));
		int32_t events;
		const dkContactEvent* e = dkWorld_ContactEvents(w, &events);
		for (int32_t k = 0; k < events; ++k) {
			run.trace = (run.trace ^ (e[k].shapeA.index1 * 31u + e[k].shapeB.index1 * 7u + e[k].began)) * 1099511628211u;
			bool names = e[k].itemA.index1 == column[1][0].index1 || e[k].itemB.index1 == column[1][0].index1;
			if (s == 300 && names && !e[k].began) run.removedEnded++;
		}
		if (s == 300) run.aboveWoke = rowOf(w, column[1][1]) < w->awake;
		if (s == 299)
			for (int c = 0; c < COLUMNS; ++c) run.wokeColumns += rowOf(w, column[c][0]) < w->awake;
		run.trace = (run.trace ^ (uint64_t)dkWorld_ContactCount(w) ^ ((uint64_t)w->awake << 32)) * 1099511628211u;
	}
	run.state = packStates(w, &run.items);
	dkWorld_Destroy(w);
	return run;
}

void restingContacts(Report* r)
{
	RestRun one = restRun(1, false), two = restRun(2, false), full = restRun(1, true);
	char detail[200];
	snprintf(detail, sizeof detail, "held after %d of %d steps; resting contacts aside in %d of 59 steps", one.heldSteps,
			 one.steps, one.asideSteps);
	check(r, one.heldSteps == one.steps && one.asideSteps == 59,
		  "resting contacts: set aside while their items rest, the list only the moving items'", detail);
	// Unsolved, the column would fall freely in the step it woke: g·h²·(1 + 2 + 3 + 4) = 0.17 pt in 4 substeps.
	snprintf(detail, sizeof detail, "its boxes moved %.4f pt up or down in the step the column woke; %d of 3 columns woke",
			 (double)one.wakeSag, one.wokeColumns);
	check(r, one.wakeSag >= 0 && one.wakeSag < 0.05f && one.wokeColumns == 1,
		  "resting contacts: a struck column's contacts are solved in the step it wakes, the others rest", detail);
	snprintf(detail, sizeof detail, "%d ended events name the removed box; the box above %s", one.removedEnded,
			 one.aboveWoke ? "woke" : "rests");
	check(r, one.removedEnded == 2 && one.aboveWoke,
		  "resting contacts: removing a resting box ends its contacts and wakes what it held", detail);
	bool same = true;
	const RestRun* others[2] = {&two, &full};
	for (int k = 0; k < 2; ++k)
		same = same && others[k]->items == one.items && others[k]->trace == one.trace &&
			   memcmp(others[k]->state, one.state, (size_t)one.items * 6 * sizeof(float)) == 0;
	check(r, same, "resting contacts: the same states and events at 2 workers and with every step's pairs found again",
		  "");
	free(one.state);
	free(two.state);
	free(full.state);
}
