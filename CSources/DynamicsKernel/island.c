// SPDX-License-Identifier: Apache-2.0
// Data structure: islands. Moving items joined by touching contacts or by joints form islands that rest and
// wake as a whole, as Box2D v3's do: a stack whose items' rest timers run out of step still comes to rest,
// because no member of a resting island is woken by a neighbour that is merely still. An item linked to
// nothing has no island (-1) and rests on its own timer; anchored items never join one, and boundaries are
// not items, so a pile on the floor and a pile beside it are separate islands.
//
// Islands are kept incrementally, on the step's leader and in list order, so they are the same for any
// worker count:
// - linked when a contact begins touching between moving items of different islands, or a joint is made
//   (contact.c, joint_store.c): the smaller island's members join the larger one, so an item changes
//   island O(log n) times as islands grow;
// - split lazily: a lost link only counts against its island (`removed`); the island is split into its
//   connected parts when one of its members could rest (rest.c picks one a step), by a search over the
//   world's touching contacts and joints.
#include "island.h"
#include "collision.h"
#include "joint.h"

#include <stdlib.h>
#include <string.h>

bool dkIslands_Reserve(dkWorld* world, int32_t capacity)
{
	if (capacity <= world->islandCapacity) return true;
	size_t n = (size_t)capacity, old = (size_t)world->islandCapacity;
	bool ok = dkResizeArray(world, (void**)&world->islandOf, old, n, sizeof(int32_t)) &&
			  dkResizeArray(world, (void**)&world->islandNext, old, n, sizeof(int32_t)) &&
			  dkResizeArray(world, (void**)&world->islandPrev, old, n, sizeof(int32_t)) &&
			  dkIslandArray_Reserve(world, &world->islands, capacity) && dkIdPool_Reserve(world, &world->islandIds, capacity);
	if (!ok) return false; // the arrays that grew keep their old contents; the capacity stays
	for (int32_t s = world->islandCapacity; s < capacity; ++s)
		world->islandOf[s] = world->islandNext[s] = world->islandPrev[s] = -1;
	world->islandCapacity = capacity;
	return true;
}

void dkIslands_Destroy(dkWorld* world)
{
	dkFree(world, world->islandOf);
	dkFree(world, world->islandNext);
	dkFree(world, world->islandPrev);
	dkIslandArray_Destroy(world, &world->islands);
	dkIdPool_Destroy(world, &world->islandIds);
}

void dkIslands_Clear(dkWorld* world, int32_t slot)
{
	world->islandOf[slot] = world->islandNext[slot] = world->islandPrev[slot] = -1;
}

// A new island holding only `slot`. There are at most half as many islands as item slots, so a free one
// is always there.
static int32_t newIsland(dkWorld* world, int32_t slot)
{
	int32_t i = dkIdPool_Alloc(&world->islandIds);
	world->islands.count = world->islandIds.next;
	world->islands.data[i] = (dkIsland){.head = slot, .tail = slot, .size = 1, .removed = 0};
	world->islandOf[slot] = i;
	world->islandNext[slot] = world->islandPrev[slot] = -1;
	world->liveIslands++;
	return i;
}

static void freeIsland(dkWorld* world, int32_t i)
{
	world->islands.data[i].size = 0;
	dkIdPool_Free(&world->islandIds, i);
	world->liveIslands--;
}

// Appends `slot` (in no island) to island i.
static void append(dkWorld* world, int32_t i, int32_t slot)
{
	dkIsland* is = &world->islands.data[i];
	world->islandOf[slot] = i;
	world->islandPrev[slot] = is->tail;
	world->islandNext[slot] = -1;
	world->islandNext[is->tail] = slot;
	is->tail = slot;
	is->size++;
}

void dkIslands_Link(dkWorld* world, int32_t slotA, int32_t slotB)
{
	int32_t a = world->islandOf[slotA], b = world->islandOf[slotB];
	if (a >= 0 && a == b) return;
	if (a < 0 && b < 0) {
		append(world, newIsland(world, slotA), slotB);
		return;
	}
	if (a < 0 || b < 0) {
		append(world, a >= 0 ? a : b, a >= 0 ? slotB : slotA);
		return;
	}
	// The smaller island (the later one on a tie) joins the larger.
	dkIsland *ia = &world->islands.data[a], *ib = &world->islands.data[b];
	int32_t keep = ia->size > ib->size || (ia->size == ib->size && a < b) ? a : b, gone = keep == a ? b : a;
	dkIsland *k = &world->islands.data[keep], *g = &world->islands.data[gone];
	for (int32_t s = g->head; s >= 0; s = world->islandNext[s]) world->islandOf[s] = keep;
	world->islandNext[k->tail] = g->head;
	world->islandPrev[g->head] = k->tail;
	k->tail = g->tail;
	k->size += g->size;
	k->removed += g->removed;
	freeIsland(world, gone);
}

void dkIslands_Unlinked(dkWorld* world, int32_t slotA, int32_t slotB)
{
	if (slotA < 0 || slotB < 0) return;
	int32_t i = world->islandOf[slotA];
	if (i >= 0 && i == world->islandOf[slotB]) world->islands.data[i].removed++;
}

void dkIslands_Leave(dkWorld* world, int32_t slot)
{
	int32_t i = world->islandOf[slot];
	if (i < 0) return;
	dkIsland* is = &world->islands.data[i];
	int32_t prev = world->islandPrev[slot], next = world->islandNext[slot];
	if (prev >= 0) world->islandNext[prev] = next;
	else is->head = next;
	if (next >= 0) world->islandPrev[next] = prev;
	else is->tail = prev;
	dkIslands_Clear(world, slot);
	is->removed++;
	if (--is->size == 1) { // one item is no island
		dkIslands_Clear(world, is->head);
		freeIsland(world, i);
	}
}

// Whether contact c touches and joins two members of island i (both items still the ones it was made with).
static bool joinsMembers(const dkWorld* world, const dkContact* c, int32_t i)
{
	if (!c->touching || c->bodyA < 0 || c->bodyB < 0) return false;
	if (world->islandOf[c->bodyA] != i || world->islandOf[c->bodyB] != i) return false;
	return world->slots.data[c->bodyA].generation == c->itemA.generation &&
		   world->slots.data[c->bodyB].generation == c->itemB.generation;
}

// Calls edge(context, slotA, slotB) for every link between members of island i: touching contacts in list
// order, then joints in slot order.
static void forEachLink(const dkWorld* world, int32_t i, void (*edge)(void*, int32_t, int32_t), void* context)
{
	for (int32_t k = 0; k < world->contacts.count; ++k) {
		const dkContact* c = &world->contacts.data[k];
		if (joinsMembers(world, c, i)) edge(context, c->bodyA, c->bodyB);
	}
	for (int32_t k = 0; k < world->jointIds.next; ++k) {
		const dkJoint* j = &world->joints.data[k];
		if (j->alive && j->bodyA >= 0 && world->islandOf[j->bodyA] == i && world->islandOf[j->bodyB] == i)
			edge(context, j->bodyA, j->bodyB);
	}
}

// The adjacency of an island's members (by their index in the island's list), built in two passes.
typedef struct dkIslandGraph {
	const int32_t* local; // item slot → index in the island (valid for members only)
	int32_t* start;		  // members + 1: each member's first neighbour, then the fill position
	int32_t* neighbour;
	bool counting;
} dkIslandGraph;

static void addEdge(void* context, int32_t a, int32_t b)
{
	dkIslandGraph* g = context;
	int32_t la = g->local[a], lb = g->local[b];
	if (g->counting) {
		g->start[la + 1]++;
		g->start[lb + 1]++;
	} else {
		g->neighbour[g->start[la]++] = lb;
		g->neighbour[g->start[lb]++] = la;
	}
}

// Splits island i of n members (in list order) into the connected parts of its adjacency (CSR: start,
// neighbour); part and stack are scratch of n entries.
static void separate(dkWorld* world, int32_t i, int32_t n, const int32_t* member, int32_t* start,
					 const int32_t* neighbour, int32_t* part, int32_t* stack)
{
	dkIsland* is = &world->islands.data[i];
	// Parts in order of their first member in the island's list; the first part keeps the island.
	for (int32_t k = 0; k < n; ++k) part[k] = -1;
	int32_t parts = 0;
	for (int32_t k = 0; k < n; ++k) {
		if (part[k] >= 0) continue;
		int32_t top = 0;
		part[k] = parts;
		stack[top++] = k;
		while (top > 0) {
			int32_t u = stack[--top];
			for (int32_t e = start[u]; e < start[u + 1]; ++e)
				if (part[neighbour[e]] < 0) {
					part[neighbour[e]] = parts;
					stack[top++] = neighbour[e];
				}
		}
		++parts;
	}
	is->removed = 0;
	if (parts > 1) {
		// Each part of two or more items becomes an island, its members in the island's order; the arrays
		// of the search are reused: start[p] counts part p's members, stack[p] is its island.
		for (int32_t p = 0; p < parts; ++p) start[p] = 0, stack[p] = -1;
		for (int32_t k = 0; k < n; ++k) start[part[k]]++;
		freeIsland(world, i);
		for (int32_t k = 0; k < n; ++k) dkIslands_Clear(world, member[k]);
		for (int32_t k = 0; k < n; ++k) {
			int32_t p = part[k];
			if (start[p] < 2) continue;
			if (stack[p] < 0) stack[p] = newIsland(world, member[k]);
			else append(world, stack[p], member[k]);
		}
	}
}

bool dkIslands_Split(dkWorld* world, int32_t island)
{
	dkIsland* is = &world->islands.data[island];
	int32_t n = is->size;
	int32_t* member = dkScratch(world, (size_t)n * sizeof(int32_t));
	int32_t* local = dkScratch(world, (size_t)world->itemIds.next * sizeof(int32_t));
	int32_t* start = dkScratchZeroed(world, ((size_t)n + 1) * sizeof(int32_t));
	int32_t* part = dkScratch(world, (size_t)n * sizeof(int32_t));
	int32_t* stack = dkScratch(world, (size_t)n * sizeof(int32_t));
	int32_t* neighbour = NULL;
	bool ok = member && local && start && part && stack;
	if (ok) {
		int32_t m = 0;
		for (int32_t s = is->head; s >= 0; s = world->islandNext[s]) {
			local[s] = m;
			member[m++] = s;
		}
		dkIslandGraph g = {.local = local, .start = start, .counting = true};
		forEachLink(world, island, addEdge, &g);
		for (int32_t k = 0; k < n; ++k) start[k + 1] += start[k];
		ok = (neighbour = dkScratch(world, (size_t)(start[n] > 0 ? start[n] : 1) * sizeof(int32_t))) != NULL;
		if (ok) {
			g.neighbour = neighbour;
			g.counting = false;
			forEachLink(world, island, addEdge, &g); // start[k] ends at member k + 1's first neighbour
			for (int32_t k = n; k > 0; --k) start[k] = start[k - 1];
			start[0] = 0;
		}
	}
	if (ok) separate(world, island, n, member, start, neighbour, part, stack);
	return ok;
}

int32_t dkWorld_IslandCount(const dkWorld* world)
{
	int32_t n = world->liveIslands;
	for (int32_t row = 0; row < world->count; ++row)
		if (world->islandOf[world->slotOf[row]] < 0 && dkIslands_Moves(world, row)) ++n;
	return n;
}
