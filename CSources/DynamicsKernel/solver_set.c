// SPDX-License-Identifier: Apache-2.0
// Solver sets: rest and wake. At the end of a step the rows whose island may rest (or, in no island, whose own
// timer ran out) leave the awake range, in row order, and each island (or lone item) becomes a set; the next
// merge, which sorts (dkSets_NoteChange), hands each set the contacts it alone holds. A set then costs
// a step nothing: the broadphase reports no pair of its shapes, and no merge reads its contacts. Waking an item
// wakes its whole set and sends the set's contacts back to the merge, which reads those and no others.
// An island rests when every member's timer reached restTime. First, one island that has lost links is split,
// so that a part that is still can rest while another part moves: the island of the stillest member that could
// rest (Box2D's rule), one island a step. Items can also be put to rest by the host (dkWorld_Rest), as Box2D
// creates bodies asleep.
// Contacts between items of two different resting sets belong to neither: those with points stay among the
// world's resting contacts, which every sorting merge reads (an island leaning on another that rests, without
// waking it); those without end quietly.
#include "solver_set.h"
#include "contact_merge.h"
#include "field.h"
#include "island.h"
#include "joint.h"

#include <string.h>

bool dkSets_Reserve(dkWorld* world, int32_t capacity)
{
	if (capacity <= world->setCapacity) return true;
	size_t n = (size_t)capacity, old = (size_t)world->setCapacity;
	bool ok = dkResizeArray(world, (void**)&world->setOf, old, n, sizeof(int32_t)) &&
			  dkResizeArray(world, (void**)&world->restChanges, (size_t)world->restChangeCount, n, sizeof(int32_t)) &&
			  dkResizeArray(world, (void**)&world->restChanged, old, n, 1) &&
			  dkSolverSetArray_Reserve(world, &world->sets, capacity + dkSetFirstResting) &&
			  dkIdPool_Reserve(world, &world->setIds, capacity + dkSetFirstResting);
	if (!ok) return false; // the arrays that grew keep their old contents; the capacity stays
	for (int32_t s = world->setCapacity; s < capacity; ++s) world->setOf[s] = dkSetAwake;
	memset(world->restChanged + old, 0, n - old);
	if (world->setIds.next == 0) { // the static and awake sets
		world->returningSets = -1;
		for (int32_t s = 0; s < dkSetFirstResting; ++s) {
			dkIdPool_Alloc(&world->setIds);
			world->sets.data[s] = (dkSolverSet){.island = -1, .item = -1, .nextReturning = -1, .jointHead = -1, .alive = true};
		}
		world->sets.count = world->setIds.next;
	}
	world->setCapacity = capacity;
	return true;
}

void dkSets_Destroy(dkWorld* world)
{
	for (int32_t s = 0; s < world->sets.count; ++s) dkContactArray_Destroy(world, &world->sets.data[s].contacts);
	dkSolverSetArray_Destroy(world, &world->sets);
	dkIdPool_Destroy(world, &world->setIds);
	dkFree(world, world->setOf);
	dkFree(world, world->restChanges);
	dkFree(world, world->restChanged);
	dkInt32Array_Destroy(world, &world->awakeJoints);
	dkLayout_Destroy(world, &world->jointLayout);
}

// A new resting set of island `island` (or of the item in `item`, in none). The pool has room (dkSets_Reserve);
// a reused set keeps its contact array's memory.
static int32_t newSet(dkWorld* world, int32_t island, int32_t item)
{
	int32_t s = dkIdPool_Alloc(&world->setIds);
	if (s >= world->sets.count) {
		world->sets.data[s] = (dkSolverSet){0};
		world->sets.count = world->setIds.next;
	}
	dkSolverSet* set = &world->sets.data[s];
	set->contacts.count = 0;
	set->island = island;
	set->item = item;
	set->withPoints = 0;
	set->nextReturning = -1;
	set->jointHead = -1;
	set->returning = set->woken = false;
	set->alive = true;
	return s;
}

static void freeSet(dkWorld* world, int32_t s)
{
	world->sets.data[s].alive = false;
	world->sets.data[s].contacts.count = 0;
	dkIdPool_Free(&world->setIds, s);
}

// The set of the item in slot `body` as a contact's or joint's side: dkSetStatic for a boundary or an item that cannot
// move.
static int32_t sideSet(const dkWorld* world, int32_t body)
{
	if (body < 0) return dkSetStatic;
	int32_t row = world->slots.data[body].dense;
	return dkIslands_Moves(world, row) ? world->setOf[body] : dkSetStatic;
}

static void addReturning(dkWorld* world, int32_t s)
{
	dkSolverSet* set = &world->sets.data[s];
	if (set->returning) return;
	set->returning = true;
	set->nextReturning = world->returningSets;
	world->returningSets = s; // the next merge sorts, and reads them
}

// The awake row `row` rests, in resting set `set` (dkSetStatic for an item that cannot move).
static void restRow(dkWorld* world, int32_t row, int32_t set)
{
	int32_t last = world->awake - 1;
	world->setOf[world->slotOf[row]] = set;
	dkStore_SwapRows(world, row, last);
	world->flags[last] |= dkItemResting;
	dkSets_NoteChange(world, (int32_t)world->slotOf[last]);
	world->awake--;
}

// The set an awake row rests in: its island's (`islandSet`, made with its first member), its own, or the static
// set for an item that cannot move.
static int32_t restingSet(dkWorld* world, int32_t row, int32_t* islandSet)
{
	int32_t slot = (int32_t)world->slotOf[row], i = world->islandOf[slot];
	if (!dkIslands_Moves(world, row)) return dkSetStatic;
	if (i < 0) return newSet(world, -1, slot);
	if (islandSet[i] < 0) islandSet[i] = newSet(world, i, -1);
	return islandSet[i];
}

// Puts joint `slot` in set s's list.
static void setJoint(dkWorld* world, int32_t s, int32_t slot)
{
	dkJoint* j = &world->joints.data[slot];
	dkSolverSet* set = &world->sets.data[s];
	j->set = s;
	j->prevInSet = -1;
	j->nextInSet = set->jointHead;
	if (set->jointHead >= 0) world->joints.data[set->jointHead].prevInSet = slot;
	set->jointHead = slot;
}

// After items rested: the awake set's joints with no item that moves leave it, for the set of their resting
// items (one island: a joint links its items') or the static set. Those between two sets (none, while joints
// link islands) stay, and dkJoints_Active passes them over.
static void restJoints(dkWorld* world)
{
	int32_t kept = 0;
	for (int32_t k = 0; k < world->awakeJoints.count; ++k) {
		int32_t slot = world->awakeJoints.data[k];
		const dkJoint* j = &world->joints.data[slot];
		int32_t s = -1;
		if (dkMovingRow(world, j->bodyA) < 0 && dkMovingRow(world, j->bodyB) < 0) {
			int32_t a = sideSet(world, j->bodyA), b = sideSet(world, j->bodyB);
			s = a == dkSetStatic ? b : b == dkSetStatic || a == b ? a : -1;
		}
		if (s >= 0 && s != dkSetAwake) {
			dkLayout_Leave(&world->jointLayout, j->colour, j->place);
			setJoint(world, s, slot);
		} else {
			world->joints.data[slot].awakeIndex = kept;
			world->awakeJoints.data[kept++] = slot;
		}
	}
	world->awakeJoints.count = kept;
}

// Joint `slot` joins the awake set at the end of its list (room for every joint is reserved).
static void appendAwake(dkWorld* world, int32_t slot)
{
	int32_t n = world->awakeJoints.count++;
	dkJoint* j = &world->joints.data[slot];
	j->set = dkSetAwake;
	j->awakeIndex = n;
	j->place = dkLayout_Join(&world->jointLayout, j->colour);
	world->awakeJoints.data[n] = slot;
	world->awakeJointsUnsorted = world->awakeJointsUnsorted || (n > 0 && world->awakeJoints.data[n - 1] > slot);
}

// Set s's joints rejoin the awake set (its room is every joint's).
static void wakeJoints(dkWorld* world, int32_t s)
{
	dkSolverSet* set = &world->sets.data[s];
	for (int32_t slot = set->jointHead, next; slot >= 0; slot = next) {
		next = world->joints.data[slot].nextInSet;
		appendAwake(world, slot);
	}
	set->jointHead = -1;
}

bool dkSets_ReserveJoints(dkWorld* world, int32_t capacity)
{
	return dkInt32Array_Reserve(world, &world->awakeJoints, capacity);
}

void dkSets_AddJoint(dkWorld* world, int32_t slot) { appendAwake(world, slot); }

void dkSets_RemoveJoint(dkWorld* world, int32_t slot)
{
	dkJoint* j = &world->joints.data[slot];
	if (j->set == dkSetAwake) { // the last joint takes its index; the next step orders them again
		dkLayout_Leave(&world->jointLayout, j->colour, j->place);
		int32_t last = world->awakeJoints.data[--world->awakeJoints.count];
		if (last != slot) {
			world->awakeJoints.data[j->awakeIndex] = last;
			world->joints.data[last].awakeIndex = j->awakeIndex;
			world->awakeJointsUnsorted = true;
		}
		return;
	}
	if (j->prevInSet >= 0) world->joints.data[j->prevInSet].nextInSet = j->nextInSet;
	else world->sets.data[j->set].jointHead = j->nextInSet;
	if (j->nextInSet >= 0) world->joints.data[j->nextInSet].prevInSet = j->prevInSet;
}

void dkSets_FreeStaticJoints(dkWorld* world)
{
	if (world->sets.count > dkSetStatic) wakeJoints(world, dkSetStatic);
}

void dkSets_OrderJoints(dkWorld* world)
{
	if (!world->awakeJointsUnsorted) return;
	// Heap sort, in place (slots are distinct).
	int32_t* a = world->awakeJoints.data;
	int32_t n = world->awakeJoints.count;
	for (int32_t end = n, start = n / 2 - 1;;) {
		int32_t root;
		if (start >= 0) {
			root = start--;
		} else {
			if (--end <= 0) break;
			int32_t t = a[0];
			a[0] = a[end];
			a[end] = t;
			root = 0;
		}
		for (int32_t child; (child = 2 * root + 1) < end; root = child) {
			if (child + 1 < end && a[child + 1] > a[child]) ++child;
			if (a[root] >= a[child]) break;
			int32_t t = a[root];
			a[root] = a[child];
			a[child] = t;
		}
	}
	for (int32_t k = 0; k < n; ++k) world->joints.data[a[k]].awakeIndex = k;
	world->awakeJointsUnsorted = false;
}

void dkSets_Rest(dkWorld* world)
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
	// Per island: DK_BUSY while a member's timer runs, else its set once a member rested (-1 before).
	enum { DK_BUSY = -2 };
	int32_t awake = world->awake;
	int32_t* islandSet = dkScratch(world, ((size_t)world->islandIds.next + 1) * sizeof(int32_t));
	if (!islandSet) return;
	for (int32_t i = 0; i < world->islandIds.next; ++i) islandSet[i] = -1;
	for (int32_t row = 0; row < world->awake; ++row) {
		int32_t i = world->islandOf[world->slotOf[row]];
		if (i >= 0 && t[row] < restTime) islandSet[i] = DK_BUSY;
	}
	int32_t row = 0;
	while (row < world->awake) {
		int32_t i = world->islandOf[world->slotOf[row]];
		if (i >= 0 ? islandSet[i] != DK_BUSY : t[row] >= restTime) restRow(world, row, restingSet(world, row, islandSet));
		else ++row;
	}
	if (world->awake < awake) restJoints(world);
}

dkResult dkWorld_Rest(dkWorld* world, const dkItemId* ids, int32_t count, dkError* error)
{
	for (int32_t i = 0; i < count; ++i) {
		if (dkStore_Resolve(world, ids[i]) < 0) {
			dkSetError(error, dkResultStaleId, i, "item", ids[i].index1);
			return dkResultStaleId;
		}
	}
	size_t slots = world->itemIds.next > 0 ? (size_t)world->itemIds.next : 1;
	uint8_t* marked = dkAllocZeroed(world, slots);
	int32_t* islandSet = dkAlloc(world, ((size_t)world->islandIds.next + 1) * sizeof(int32_t));
	if (!marked || !islandSet) {
		dkFree(world, marked);
		dkFree(world, islandSet);
		dkSetError(error, dkResultOutOfMemory, -1, "items", count);
		return dkResultOutOfMemory;
	}
	for (int32_t i = 0; i < world->islandIds.next; ++i) islandSet[i] = -1;
	for (int32_t i = 0; i < count; ++i) {
		int32_t slot = (int32_t)ids[i].index1 - 1, island = world->islandOf[slot];
		marked[slot] = 1;
		for (int32_t s = island >= 0 ? world->islands.data[island].head : -1; s >= 0; s = world->islandNext[s]) marked[s] = 1;
	}
	// The marked awake rows leave the awake range in row order (as dkSets_Rest), their timers run out.
	int32_t row = 0;
	while (row < world->awake) {
		if (!marked[world->slotOf[row]]) {
			++row;
			continue;
		}
		world->col[dkColumnSleepTime][row] = world->def.restTime;
		restRow(world, row, restingSet(world, row, islandSet));
	}
	restJoints(world);
	dkFree(world, marked);
	dkFree(world, islandSet);
	dkFields_WakeAnimated(world); // an animated field's items never rest
	return dkResultOK;
}

static void wakeMember(dkWorld* world, int32_t slot)
{
	world->setOf[slot] = dkSetAwake;
	dkStore_WakeRow(world, world->slots.data[slot].dense);
}

void dkSets_WakeRow(dkWorld* world, int32_t row)
{
	int32_t s = world->setOf[world->slotOf[row]];
	if (row < world->awake || s < dkSetFirstResting) {
		world->setOf[world->slotOf[row]] = dkSetAwake;
		dkStore_WakeRow(world, row);
		return;
	}
	dkSolverSet* set = &world->sets.data[s];
	if (set->island >= 0) {
		for (int32_t m = world->islands.data[set->island].head; m >= 0; m = world->islandNext[m]) wakeMember(world, m);
	} else {
		wakeMember(world, set->item);
	}
	set->woken = true;
	wakeJoints(world, s);
	if (set->contacts.count > 0) addReturning(world, s);
	else if (!set->returning) freeSet(world, s);
}

void dkSets_ReturnHolding(dkWorld* world, const uint8_t* items, int32_t shape)
{
	for (int32_t s = 0; s < world->sets.count; ++s) {
		const dkSolverSet* set = &world->sets.data[s];
		if (!set->alive || set->returning) continue;
		for (int32_t k = 0; k < set->contacts.count; ++k) {
			const dkContact* c = &set->contacts.data[k];
			bool holds = c->shapeA == shape || c->shapeB == shape ||
						 (items && ((c->bodyA >= 0 && items[c->bodyA]) || (c->bodyB >= 0 && items[c->bodyB])));
			if (holds) {
				addReturning(world, s);
				break;
			}
		}
	}
}

// A sorted run of contacts, merged with others by a heap of runs ordered by their next contact's shape pair.
typedef struct dkRun {
	const dkContact* data;
	int32_t count, next;
} dkRun;

static bool runBefore(const dkRun* runs, int32_t a, int32_t b)
{
	const dkContact *x = &runs[a].data[runs[a].next], *y = &runs[b].data[runs[b].next];
	return comparePair(x->shapeA, x->shapeB, y->shapeA, y->shapeB) < 0;
}

static void siftDown(const dkRun* runs, int32_t* heap, int32_t n, int32_t i)
{
	for (;;) {
		int32_t l = 2 * i + 1, r = l + 1, least = i;
		if (l < n && runBefore(runs, heap[l], heap[least])) least = l;
		if (r < n && runBefore(runs, heap[r], heap[least])) least = r;
		if (least == i) return;
		int32_t t = heap[i];
		heap[i] = heap[least];
		heap[least] = t;
		i = least;
	}
}

// Merges `k` sorted runs of contacts (no shape pair in two) into `out` in shape-pair order; returns how many it
// wrote. Run `filtered` is world->restingContacts: those of its contacts whose items all rest stay there
// (compacted in place, ahead of what is still to be read), the others leave it.
// The run at the top of the heap leads until the least next contact of the others (heap[1] or heap[2]): the
// end of its lead, found by bisection, so that a long run (the contact list) is copied in blocks.
static int32_t leadEnd(const dkRun* runs, const int32_t* heap, int32_t n)
{
	const dkRun* top = &runs[heap[0]];
	if (n == 1) return top->count;
	int32_t o = n > 2 && runBefore(runs, heap[2], heap[1]) ? heap[2] : heap[1];
	const dkContact* h = &runs[o].data[runs[o].next];
	int32_t b = top->next + 1, e = top->count; // top->data[top->next] leads
	while (b < e) {
		int32_t mid = b + (e - b) / 2;
		if (comparePair(top->data[mid].shapeA, top->data[mid].shapeB, h->shapeA, h->shapeB) < 0) b = mid + 1;
		else e = mid;
	}
	return b;
}

static int32_t mergeRuns(dkWorld* world, dkRun* runs, int32_t k, int32_t* heap, int32_t filtered, dkContact* out)
{
	int32_t n = 0, m = 0, kept = 0;
	for (int32_t r = 0; r < k; ++r)
		if (runs[r].count > 0) heap[n++] = r;
	for (int32_t i = n / 2 - 1; i >= 0; --i) siftDown(runs, heap, n, i);
	while (n > 0) {
		int32_t r = heap[0], end = leadEnd(runs, heap, n);
		dkRun* run = &runs[r];
		if (r != filtered) {
			memcpy(out + m, run->data + run->next, (size_t)(end - run->next) * sizeof(dkContact));
			m += end - run->next;
		} else {
			for (int32_t i = run->next; i < end; ++i) {
				const dkContact* c = &run->data[i];
				if (bothAsleep(world, c)) {
					world->restingContacts.data[kept++] = *c;
				} else {
					world->restingWithPoints -= c->manifold.count > 0;
					out[m++] = *c;
				}
			}
		}
		run->next = end;
		if (run->next == run->count) heap[0] = heap[--n];
		if (n > 0) siftDown(runs, heap, n, 0);
	}
	if (filtered >= 0) world->restingContacts.count = kept;
	return m;
}

// The returning sets as runs after the `first` runs already in `runs`; returns the number of runs.
static int32_t returningRuns(const dkWorld* world, dkRun* runs, int32_t first)
{
	int32_t k = first;
	for (int32_t s = world->returningSets; s >= 0; s = world->sets.data[s].nextReturning)
		runs[k++] = (dkRun){world->sets.data[s].contacts.data, world->sets.data[s].contacts.count, 0};
	return k;
}

// The returning sets gave back their contacts: each is empty, and a woken one ends.
static void emptyReturning(dkWorld* world)
{
	for (int32_t s = world->returningSets, next; s >= 0; s = next) {
		dkSolverSet* set = &world->sets.data[s];
		next = set->nextReturning;
		world->setContacts -= set->contacts.count;
		world->setWithPoints -= set->withPoints;
		set->contacts.count = set->withPoints = 0;
		set->returning = false;
		set->nextReturning = -1;
		if (set->woken) freeSet(world, s);
	}
	world->returningSets = -1;
}

static int32_t returningCount(const dkWorld* world, int32_t* contacts)
{
	int32_t sets = 0;
	*contacts = 0;
	for (int32_t s = world->returningSets; s >= 0; s = world->sets.data[s].nextReturning, ++sets)
		*contacts += world->sets.data[s].contacts.count;
	return sets;
}

// The spare buffer, holding m merged contacts, becomes `list`, whose buffer becomes the spare one.
static void takeSpare(dkWorld* world, dkContactArray* list, int32_t m)
{
	dkContactArray old = *list;
	dkLayout_Forget(&world->contactLayout); // (the list, or the resting contacts beside it)
	*list = world->spareContacts;
	list->count = m;
	world->spareContacts = old;
	world->spareContacts.count = 0;
}

bool dkSets_TakeBack(dkWorld* world)
{
	if (world->returningSets < 0) return true;
	int32_t contacts, k = returningCount(world, &contacts) + 1, n = world->restingContacts.count + contacts;
	dkRun* runs = dkAlloc(world, (size_t)k * (sizeof(dkRun) + sizeof(int32_t)));
	if (!runs || !dkContactArray_Reserve(world, &world->spareContacts, n)) {
		dkFree(world, runs);
		return false;
	}
	runs[0] = (dkRun){world->restingContacts.data, world->restingContacts.count, 0};
	int32_t withPoints = 0;
	for (int32_t s = world->returningSets; s >= 0; s = world->sets.data[s].nextReturning)
		withPoints += world->sets.data[s].withPoints;
	int32_t m = mergeRuns(world, runs, returningRuns(world, runs, 1), (int32_t*)(runs + k), -1, world->spareContacts.data);
	dkFree(world, runs);
	takeSpare(world, &world->restingContacts, m);
	world->restingWithPoints += withPoints;
	emptyReturning(world);
	return true;
}

size_t dkSets_ScratchBound(const dkWorld* world)
{
	return ((size_t)world->setIds.next + 2) * (sizeof(dkRun) + sizeof(int32_t));
}

void dkSets_TakeBackWoken(dkWorld* world)
{
	int32_t contacts, k = returningCount(world, &contacts) + 2;
	size_t mark = dkArena_Mark(world);
	dkRun* runs = dkScratch(world, (size_t)k * (sizeof(dkRun) + sizeof(int32_t))); // within the bound
	if (!runs) return; // (never, while the bound holds) they are taken back at the next merge
	runs[0] = (dkRun){world->contacts.data, world->contacts.count, 0};
	runs[1] = (dkRun){world->restingContacts.data, world->restingContacts.count, 0};
	int32_t m = mergeRuns(world, runs, returningRuns(world, runs, 2), (int32_t*)(runs + k), 1, world->spareContacts.data);
	dkArena_Release(world, mark);
	takeSpare(world, &world->contacts, m);
	emptyReturning(world);
}

// The set that alone holds a resting contact, or -1 when its items rest in two sets.
static int32_t contactSet(const dkWorld* world, const dkContact* c)
{
	int32_t a = sideSet(world, c->bodyA), b = sideSet(world, c->bodyB);
	if (a == dkSetAwake || b == dkSetAwake) return -1;
	if (a == dkSetStatic) return b;
	if (b == dkSetStatic || a == b) return a;
	return -1;
}

// Adds a contact to a set, in order (it comes after the set's others, unless the set was given some by an
// earlier merge). False when out of memory.
static bool addToSet(dkWorld* world, dkSolverSet* set, const dkContact* c)
{
	if (!dkContactArray_Reserve(world, &set->contacts, set->contacts.count + 1)) return false;
	int32_t k = set->contacts.count++;
	while (k > 0 && comparePair(set->contacts.data[k - 1].shapeA, set->contacts.data[k - 1].shapeB, c->shapeA, c->shapeB) > 0) {
		set->contacts.data[k] = set->contacts.data[k - 1];
		--k;
	}
	set->contacts.data[k] = *c;
	return true;
}

void dkSets_Distribute(dkWorld* world)
{
	int32_t kept = 0;
	for (int32_t q = 0; q < world->restingContacts.count; ++q) {
		const dkContact* c = &world->restingContacts.data[q];
		int32_t s = contactSet(world, c);
		// A contact between two sets with no points (not touching, not in the constraint graph) carries nothing
		// the step needs: it ends quietly, and the pair's contact begins again if a set wakes and the pair is
		// found (a new contact and this one would have the same manifold).
		if (s < 0 && c->manifold.count == 0 && !c->touching) continue;
		if (s >= 0 && addToSet(world, &world->sets.data[s], c)) {
			int32_t points = c->manifold.count > 0;
			world->sets.data[s].withPoints += points;
			world->setWithPoints += points;
			world->restingWithPoints -= points;
			world->setContacts++;
			continue;
		}
		if (kept != q) world->restingContacts.data[kept] = *c;
		++kept;
	}
	world->restingContacts.count = kept;
}
