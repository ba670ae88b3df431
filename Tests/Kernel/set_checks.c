// SPDX-License-Identifier: Apache-2.0
// Solver sets (solver_set.c): each resting island, and each resting item in none, is a set holding the contacts
// whose items are all its members or cannot move; waking one item wakes its set and gives back its contacts,
// and no other set's; contacts between two sets stay with the world.
#include "check.h"
#include "island.h"
#include "joint.h"
#include "solver_set.h" // internal: built with -ICSources/DynamicsKernel

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int32_t restingLists(const dkWorld* w, const dkContact** lists, int32_t* counts, int32_t max)
{
	int32_t n = 0;
	lists[n] = w->restingContacts.data;
	counts[n++] = w->restingContacts.count;
	for (int32_t s = 0; s < w->sets.count && n < max; ++s) {
		if (!w->sets.data[s].alive || w->sets.data[s].contacts.count == 0) continue;
		lists[n] = w->sets.data[s].contacts.data;
		counts[n++] = w->sets.data[s].contacts.count;
	}
	return n;
}

// Whether the item in `slot` can move (a boundary, -1, cannot).
static bool canMove(const dkWorld* w, int32_t slot)
{
	if (slot < 0) return false;
	int32_t row = w->slots.data[slot].dense;
	return row >= 0 && (w->col[dkColumnInverseMass][row] > 0.0f || w->col[dkColumnInverseInertia][row] > 0.0f);
}

// Whether set s has the item in `slot` as a member: the set's island holds it, or it is the set's item.
static bool member(const dkWorld* w, int32_t s, int32_t slot)
{
	const dkSolverSet* set = &w->sets.data[s];
	if (set->island < 0) return set->item == slot;
	for (int32_t m = w->islands.data[set->island].head; m >= 0; m = w->islandNext[m])
		if (m == slot) return true;
	return false;
}

// The sets' invariants between steps; returns the faults found, the first described in `detail`.
int32_t setFaults(const dkWorld* w, char* detail, size_t size)
{
	int32_t faults = 0, contacts = 0, withPoints = 0;
	const char* first = "none";
#define FAULT(what)                                                                                                    \
	do {                                                                                                               \
		if (faults++ == 0) first = (what);                                                                             \
	} while (0)
	for (int32_t row = 0; row < w->count; ++row) {
		int32_t slot = (int32_t)w->slotOf[row], s = w->setOf[slot];
		bool moves = canMove(w, slot);
		if (row < w->awake && s != dkSetAwake) FAULT("an awake item is not in the awake set");
		if (row >= w->awake && !moves && s != dkSetStatic) FAULT("a resting item that cannot move is not in the static set");
		if (row >= w->awake && moves) {
			if (s < dkSetFirstResting || s >= w->sets.count || !w->sets.data[s].alive) FAULT("a resting item has no set");
			else if (!member(w, s, slot)) FAULT("a resting item is not a member of its set");
		}
	}
	if (w->returningSets != -1) FAULT("a set's contacts were not taken back");
	for (int32_t s = 0; s < w->sets.count; ++s) {
		const dkSolverSet* set = &w->sets.data[s];
		if (!set->alive) continue;
		if (s >= dkSetFirstResting) { // every member rests in it
			for (int32_t m = set->island >= 0 ? w->islands.data[set->island].head : set->item; m >= 0;
				 m = set->island >= 0 ? w->islandNext[m] : -1)
				if (w->setOf[m] != s || w->slots.data[m].dense < w->awake) FAULT("a set's member is not resting in it");
		}
		int32_t points = 0;
		for (int32_t k = 0; k < set->contacts.count; ++k) {
			const dkContact* c = &set->contacts.data[k];
			int32_t ends[2] = {c->bodyA, c->bodyB};
			for (int e = 0; e < 2; ++e)
				if (canMove(w, ends[e]) && (s == dkSetStatic || w->setOf[ends[e]] != s)) FAULT("a set holds a contact of another set's item");
			if (k > 0 && (set->contacts.data[k - 1].shapeA > c->shapeA ||
						  (set->contacts.data[k - 1].shapeA == c->shapeA && set->contacts.data[k - 1].shapeB >= c->shapeB)))
				FAULT("a set's contacts are out of order");
			points += c->manifold.count > 0;
		}
		if (points != set->withPoints) FAULT("a set miscounts its contacts with points");
		contacts += set->contacts.count;
		withPoints += points;
	}
	if (contacts != w->setContacts || withPoints != w->setWithPoints) FAULT("the sets' totals are wrong");
	for (int32_t k = 0; k < w->restingContacts.count; ++k) { // only contacts between two sets stay out
		const dkContact* c = &w->restingContacts.data[k];
		bool two = canMove(w, c->bodyA) && canMove(w, c->bodyB) && w->setOf[c->bodyA] != w->setOf[c->bodyB];
		if (!two) FAULT("a resting contact that one set could hold is not in it");
	}
	// Joints: each live one in exactly one set's list; in the awake set (in slot order once a step ordered it)
	// whenever an item of it moves; in a resting set only with items that rest in it or cannot move.
	int32_t* seen = calloc((size_t)w->jointIds.next + 1, sizeof(int32_t));
	for (int32_t k = 0; k < w->awakeJoints.count; ++k) {
		int32_t slot = w->awakeJoints.data[k];
		if (!w->joints.data[slot].alive || w->joints.data[slot].set != dkSetAwake) FAULT("the awake set lists a joint not in it");
		if (w->joints.data[slot].awakeIndex != k) FAULT("an awake joint does not know its index in the awake set");
		if (!w->awakeJointsUnsorted && k > 0 && w->awakeJoints.data[k - 1] >= slot) FAULT("the awake joints are out of order");
		seen[slot]++;
	}
	for (int32_t s = 0; s < w->sets.count; ++s) {
		if (!w->sets.data[s].alive || s == dkSetAwake) continue;
		for (int32_t slot = w->sets.data[s].jointHead; slot >= 0; slot = w->joints.data[slot].nextInSet) {
			const dkJoint* j = &w->joints.data[slot];
			if (!j->alive || j->set != s) FAULT("a set lists a joint not in it");
			int32_t ends[2] = {j->bodyA, j->bodyB};
			for (int e = 0; e < 2; ++e)
				if (canMove(w, ends[e]) && (s == dkSetStatic || w->setOf[ends[e]] != s)) FAULT("a set holds a joint of another set's item");
			seen[slot]++;
		}
	}
	for (int32_t slot = 0; slot < w->jointIds.next; ++slot) {
		const dkJoint* j = &w->joints.data[slot];
		if (!j->alive) continue;
		if (seen[slot] != 1) FAULT("a joint is in no set, or in two");
		bool awake = false;
		int32_t ends[2] = {j->bodyA, j->bodyB};
		for (int e = 0; e < 2; ++e)
			awake = awake || (canMove(w, ends[e]) && w->slots.data[ends[e]].dense < w->awake);
		if (awake && j->set != dkSetAwake) FAULT("a joint with an awake item is not in the awake set");
	}
	free(seen);
#undef FAULT
	snprintf(detail, size, "%d faults (first: %s)", faults, first);
	return faults;
}

// Six columns of three boxes on the floor, apart, come to rest. Then
// one box of the first column is woken: only its set's contacts come back, the other sets keep theirs where
// they are, and the first column rests again in a new set.
void solverSets(Report* r)
{
	dkWorld* w = makeWorld(dkSimdAVX512, 2, dkIntegratorFused);
	dkWorldDef def = w->def;
	def.restEnabled = true;
	dkError e;
	must(dkWorld_Configure(w, &def, &e), &e, "dkWorld_Configure");
	segment(w, -3000, FLOOR, 3000, FLOOR);
	enum { COLUMNS = 6, HEIGHT = 3 };
	dkItemId column[COLUMNS][HEIGHT];
	for (int c = 0; c < COLUMNS; ++c)
		for (int k = 0; k < HEIGHT; ++k)
			column[c][k] = box(w, -1000.0f + 300.0f * (float)c, FLOOR - 20.0f - 40.0f * (float)k, 0, 40, 40);
	// And a chain of four links hanging still from a pin in the world, far from the columns.
	enum { LINKS = 4 };
	dkItemId links[LINKS];
	dkJointId pins[LINKS];
	dkJointDef d = dkDefaultJointDef();
	d.kind = dkJointRevolute;
	for (int k = 0; k < LINKS; ++k) {
		links[k] = box(w, 2000, 200.0f + 40.0f * (float)k, 0, 10, 40);
		d.itemA = k > 0 ? links[k - 1] : (dkItemId){0, 0};
		d.itemB = links[k];
		d.anchorAx = k > 0 ? 0.0f : 2000.0f;
		d.anchorAy = k > 0 ? 20.0f : 180.0f;
		d.anchorBy = -20.0f;
		must(dkWorld_CreateJoints(w, &d, 1, &pins[k], &e), &e, "dkWorld_CreateJoints");
	}
	char detail[200];
	int32_t faults = 0, stepsToRest = -1;
	for (int s = 0; s < 600 && stepsToRest < 0; ++s) {
		step(w, 1);
		faults += setFaults(w, detail, sizeof detail);
		if (w->awake == 0) stepsToRest = s + 1;
	}
	step(w, 1); // the merge after the rows rested hands the sets their contacts
	faults += setFaults(w, detail, sizeof detail);
	int32_t sets = 0;
	for (int32_t s = dkSetFirstResting; s < w->sets.count; ++s) sets += w->sets.data[s].alive;
	char restDetail[200];
	int32_t chainSet = w->setOf[links[0].index1 - 1], chainJoints = 0;
	for (int32_t j = w->sets.data[chainSet].jointHead; j >= 0; j = w->joints.data[j].nextInSet) ++chainJoints;
	snprintf(restDetail, sizeof restDetail,
			 "rested after %d steps in %d sets, %d contacts in sets, %d outside, %d joints in the chain's set, %d awake; %s",
			 stepsToRest, sets, w->setContacts, w->restingContacts.count, chainJoints, w->awakeJoints.count, detail);
	check(r, stepsToRest > 0 && sets == COLUMNS + 1 && w->setContacts == COLUMNS * HEIGHT &&
				 w->restingContacts.count == 0 && chainJoints == LINKS && w->awakeJoints.count == 0 && faults == 0,
		  "solver sets: each resting column is a set holding its contacts, the chain one holding its joints", restDetail);

	// Wake the first column's top box: its set wakes whole; the others' contacts stay where they are.
	int32_t first = w->setOf[column[0][0].index1 - 1];
	const dkContact* kept[COLUMNS];
	int32_t keptCount[COLUMNS];
	for (int c = 1; c < COLUMNS; ++c) {
		const dkSolverSet* set = &w->sets.data[w->setOf[column[c][0].index1 - 1]];
		kept[c] = set->contacts.data;
		keptCount[c] = set->contacts.count;
	}
	dkWorld_Wake(w, &column[0][HEIGHT - 1], 1);
	int32_t wokenAwake = w->awake, listed = -1;
	bool untouched = true;
	for (int s = 0; s < 600; ++s) {
		step(w, 1);
		if (s == 0) listed = w->contacts.count;
		faults += setFaults(w, detail, sizeof detail);
		for (int c = 1; c < COLUMNS; ++c) {
			const dkSolverSet* set = &w->sets.data[w->setOf[column[c][0].index1 - 1]];
			untouched = untouched && set->contacts.data == kept[c] && set->contacts.count == keptCount[c];
		}
		if (w->awake == 0) break;
	}
	step(w, 1);
	faults += setFaults(w, detail, sizeof detail);
	snprintf(restDetail, sizeof restDetail,
			 "%d items woke, %d contacts listed in the next step; the first column's set was %d, is %d; %s", wokenAwake,
			 listed, first, w->setOf[column[0][0].index1 - 1], detail);
	check(r, wokenAwake == HEIGHT && listed == HEIGHT && untouched && w->awake == 0 && faults == 0 &&
				 w->setContacts == COLUMNS * HEIGHT,
		  "solver sets: waking an item wakes its set alone; the other sets' contacts stay untouched", restDetail);

	// Wake a link: the chain's joints rejoin the awake set, in slot order, and leave it when it rests again.
	dkWorld_Wake(w, &links[2], 1);
	int32_t wokenLinks = w->awake;
	step(w, 1);
	int32_t awakeJoints = w->awakeJoints.count;
	faults += setFaults(w, detail, sizeof detail);
	for (int s = 0; s < 600 && w->awake > 0; ++s) step(w, 1);
	step(w, 1);
	faults += setFaults(w, detail, sizeof detail);
	snprintf(restDetail, sizeof restDetail, "%d items woke, %d joints awake in the next step, %d after it rested; %s",
			 wokenLinks, awakeJoints, w->awakeJoints.count, detail);
	check(r, wokenLinks == LINKS && awakeJoints == LINKS && w->awakeJoints.count == 0 && w->awake == 0 && faults == 0,
		  "solver sets: a woken chain's joints rejoin the awake set and leave it when it rests", restDetail);

	// Destroying the chain's first and last joints in one call wakes it; each leaves the awake set's list, the
	// last after it took the first one's place.
	dkJointId ends[2] = {pins[0], pins[LINKS - 1]};
	must(dkWorld_DestroyJoints(w, ends, 2, &e), &e, "dkWorld_DestroyJoints");
	int32_t endFaults = setFaults(w, detail, sizeof detail), left = w->awakeJoints.count;
	step(w, 1);
	endFaults += setFaults(w, detail, sizeof detail);
	snprintf(restDetail, sizeof restDetail, "%d joints awake after two were destroyed; %s", left, detail);
	check(r, left == LINKS - 2 && endFaults == 0, "solver sets: destroyed joints leave the awake set", restDetail);
	dkWorld_Destroy(w);
}

// A random run of what a host does between steps, with rest on: waking and resting items, anchoring and
// freeing them, removing them (new boxes fall in their place), taking their shapes away, making and destroying
// attachments. After every step the sets' invariants hold; at 1 and 2 workers the states are the same bits.
typedef struct SetRun {
	int32_t faults, steps, rested, woke, items;
	float* state;
	char detail[200];
} SetRun;

static int32_t rowOf(const dkWorld* w, dkItemId id)
{
	int32_t row;
	dkWorld_DenseIndices(w, &id, 1, &row);
	return row;
}

static uint32_t nextRandom(uint32_t* s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static SetRun randomRun(int32_t workers)
{
	dkWorld* w = makeWorld(dkSimdAVX512, workers, dkIntegratorFused);
	dkWorldDef def = w->def;
	def.restEnabled = true;
	dkError e;
	must(dkWorld_Configure(w, &def, &e), &e, "dkWorld_Configure");
	segment(w, -2000, FLOOR, 2000, FLOOR);
	enum { BOXES = 90 };
	dkItemId boxes[BOXES];
	for (int k = 0; k < BOXES; ++k) // nine piles of ten
		boxes[k] = box(w, -1600.0f + 400.0f * (float)(k % 9), FLOOR - 30.0f - 42.0f * (float)(k / 9), 0, 40, 40);
	dkItemDef anchored = dkDefaultItemDef(), freed = dkDefaultItemDef();
	anchored.shape = freed.shape = dkShapeRectangle;
	anchored.width = freed.width = anchored.height = freed.height = 40;
	anchored.flags = dkItemAnchored;
	dkJointId joints[64];
	int32_t jointCount = 0;
	uint32_t seed = 2463534242u;
	SetRun run = {0};
	snprintf(run.detail, sizeof run.detail, "none");
	int32_t awakeEnd = w->awake; // after the last step
	for (int s = 0; s < 900; ++s) {
		if (s >= 120 && s % 6 == 0) { // one host call every tenth of a second, once the piles could rest
			dkItemId id = boxes[nextRandom(&seed) % BOXES];
			switch (nextRandom(&seed) % 8) {
			case 0: dkWorld_Wake(w, &id, 1); break;
			case 1: must(dkWorld_Rest(w, &id, 1, &e), &e, "dkWorld_Rest"); break;
			case 2: must(dkWorld_SetMassProperties(w, &id, 1, &anchored, &e), &e, "dkWorld_SetMassProperties"); break;
			case 3: must(dkWorld_SetMassProperties(w, &id, 1, &freed, &e), &e, "dkWorld_SetMassProperties"); break;
			case 4: { // removed: a new box falls where it stood
				int32_t k = (int32_t)(nextRandom(&seed) % BOXES);
				float x = dkWorld_Column(w, dkColumnPositionX)[rowOf(w, boxes[k])];
				must(dkWorld_RemoveItems(w, &boxes[k], 1, &e), &e, "dkWorld_RemoveItems");
				for (int32_t j = 0; j < jointCount; ++j)
					if (!dkWorld_JointIsValid(w, joints[j])) joints[j--] = joints[--jointCount];
				boxes[k] = box(w, x, FLOOR - 600.0f, 0, 40, 40);
				break;
			}
			case 5: dkWorld_DestroyItemShapes(w, id); break;
			case 6:
				if (jointCount < 64) {
					dkJointDef d = dkDefaultJointDef();
					d.kind = dkJointDistance;
					d.itemA = id;
					d.itemB = boxes[nextRandom(&seed) % BOXES];
					if (d.itemA.index1 != d.itemB.index1) {
						const float* px = dkWorld_Column(w, dkColumnPositionX);
						const float* py = dkWorld_Column(w, dkColumnPositionY);
						float dx = px[rowOf(w, d.itemB)] - px[rowOf(w, d.itemA)], dy = py[rowOf(w, d.itemB)] - py[rowOf(w, d.itemA)];
						d.length = sqrtf(dx * dx + dy * dy);
						d.rigid = true;
						must(dkWorld_CreateJoints(w, &d, 1, &joints[jointCount++], &e), &e, "dkWorld_CreateJoints");
					}
				}
				break;
			default:
				if (jointCount > 1) { // two in one call: the second may have moved in the awake list
					int32_t j = (int32_t)(nextRandom(&seed) % (uint32_t)(jointCount - 1));
					dkJointId gone[2] = {joints[j], joints[jointCount - 1]};
					must(dkWorld_DestroyJoints(w, gone, 2, &e), &e, "dkWorld_DestroyJoints");
					joints[j] = joints[jointCount - 2];
					jointCount -= 2;
				}
			}
		}
		int32_t awakeBefore = w->awake;
		step(w, 1);
		run.rested += w->awake < awakeBefore;
		run.woke += w->awake > awakeEnd; // woken by the host's call or in the step
		awakeEnd = w->awake;
		int32_t f = setFaults(w, run.detail, sizeof run.detail);
		if (f > 0 && run.faults == 0) {
			char first[200];
			snprintf(first, sizeof first, "step %d: %s", s, run.detail);
			memcpy(run.detail, first, sizeof first);
		}
		run.faults += f;
		run.steps++;
	}
	run.state = packStates(w, &run.items);
	dkWorld_Destroy(w);
	return run;
}

void randomSets(Report* r)
{
	SetRun one = randomRun(1), two = randomRun(2);
	char detail[320];
	bool same = one.items == two.items && memcmp(one.state, two.state, (size_t)one.items * 6 * sizeof(float)) == 0;
	snprintf(detail, sizeof detail, "%d steps (%d in which items rested, %d after which more were awake); %s; 2 workers: %s", one.steps,
			 one.rested, one.woke, one.faults > 0 ? one.detail : "no faults", same && two.faults == 0 ? "same bits" : "differ");
	check(r, one.faults == 0 && two.faults == 0 && same && one.rested > 20 && one.woke > 20,
		  "solver sets: a random run of host calls (wake, rest, anchor, free, remove, shapes, attachments) keeps them whole",
		  detail);
	free(one.state);
	free(two.state);
}

// Freeing or removing an anchored item, or destroying a boundary, returns only the sets that hold a contact of
// it (dkSets_ReturnHolding). The oracle is a twin world that returns every set with contacts after each of
// those calls, as the kernel once did: both must give the same bits, and the twin must return more sets.
typedef struct Holding {
	float* state;
	int32_t items, returned[3], withContacts[3], resting[3];
} Holding;

static int32_t returningSets(const dkWorld* w)
{
	int32_t n = 0;
	for (int32_t s = w->returningSets; s >= 0; s = w->sets.data[s].nextReturning) ++n;
	return n;
}

static Holding holdingRun(bool everySet)
{
	dkWorld* w = makeWorld(dkSimdAVX512, 1, dkIntegratorFused);
	dkWorldDef def = w->def;
	def.restEnabled = true;
	dkError e;
	must(dkWorld_Configure(w, &def, &e), &e, "dkWorld_Configure");
	segment(w, -3000, FLOOR + 600, 3000, FLOOR + 600); // catches what falls
	dkShapeId floors[4];
	for (int k = 0; k < 4; ++k) { // four short floors, a pile of five boxes on each
		float x = -1200.0f + 800.0f * (float)k;
		floors[k] = segment(w, x - 150.0f, FLOOR, x + 150.0f, FLOOR);
		for (int j = 0; j < 5; ++j) box(w, x, FLOOR - 21.0f - 42.0f * (float)j, 0, 40, 40);
	}
	dkItemDef anchored = dkDefaultItemDef(), freed = dkDefaultItemDef();
	anchored.shape = freed.shape = dkShapeRectangle;
	anchored.width = freed.width = anchored.height = freed.height = 40;
	anchored.flags = dkItemAnchored;
	dkItemId supports[2];
	for (int k = 0; k < 2; ++k) { // two anchored boxes, each under three boxes
		float x = k == 0 ? -2200.0f : 2200.0f;
		supports[k] = box(w, x, FLOOR - 20.0f, 0, 40, 40);
		must(dkWorld_SetMassProperties(w, &supports[k], 1, &anchored, &e), &e, "dkWorld_SetMassProperties");
		for (int j = 1; j <= 3; ++j) box(w, x, FLOOR - 21.0f - 42.0f * (float)j, 0, 40, 40);
	}
	Holding h = {0};
	for (int call = 0; call < 3; ++call) {
		step(w, 600); // everything rests
		h.resting[call] = w->count - w->awake;
		h.withContacts[call] = 0;
		for (int32_t s = 0; s < w->sets.count; ++s) h.withContacts[call] += w->sets.data[s].alive && w->sets.data[s].contacts.count > 0;
		if (call == 0) must(dkWorld_DestroyShape(w, floors[1], &e), &e, "dkWorld_DestroyShape");
		if (call == 1) must(dkWorld_SetMassProperties(w, &supports[1], 1, &freed, &e), &e, "dkWorld_SetMassProperties");
		if (call == 2) must(dkWorld_RemoveItems(w, &supports[0], 1, &e), &e, "dkWorld_RemoveItems");
		if (everySet) {
			uint8_t* all = malloc((size_t)w->itemIds.next + 1);
			memset(all, 1, (size_t)w->itemIds.next + 1);
			dkSets_ReturnHolding(w, all, -1);
			free(all);
		}
		h.returned[call] = returningSets(w);
	}
	step(w, 300);
	h.state = packStates(w, &h.items);
	dkWorld_Destroy(w);
	return h;
}

void holdingSets(Report* r)
{
	Holding held = holdingRun(false), every = holdingRun(true);
	bool same = held.items == every.items && memcmp(held.state, every.state, (size_t)held.items * 6 * sizeof(float)) == 0;
	bool fewer = true, rested = true;
	for (int call = 0; call < 3; ++call) {
		fewer = fewer && held.returned[call] >= 1 && held.returned[call] < every.returned[call];
		rested = rested && held.resting[call] == held.items + 1; // all 28 (one is removed by the last call)
	}
	char detail[320];
	snprintf(detail, sizeof detail,
			 "sets returned by a boundary destroyed, an anchored item freed, one removed: %d, %d, %d (every set: %d, %d, %d; "
			 "of %d, %d, %d with contacts); %d items resting before each call: %d, %d, %d; %s",
			 held.returned[0], held.returned[1], held.returned[2], every.returned[0], every.returned[1], every.returned[2],
			 held.withContacts[0], held.withContacts[1], held.withContacts[2], held.items, held.resting[0], held.resting[1],
			 held.resting[2], same ? "same bits as returning every set" : "bits differ from returning every set");
	check(r, same && fewer && rested, "solver sets: freeing, removing or destroying what does not move returns only the sets that hold its contacts",
		  detail);
	free(held.state);
	free(every.state);
}
