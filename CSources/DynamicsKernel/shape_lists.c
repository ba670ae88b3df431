// SPDX-License-Identifier: Apache-2.0
// Data structure: the broadphase's shape lists (broadphase.c says how it uses them). A full pass lists the
// live shapes, the movers (shapes of awake items) and the still ones, with an index of each item's shapes;
// between full passes the lists follow what changed without visiting every shape: the shapes of items that
// rested or woke move between the movers and the still ones (relist), and shapes made, freed or refiltered
// (groups, joints between their items) leave their lists and join them again as new shapes (retake).
// Both kinds count as shapes whose fat boxes changed (loose), so the pair grid finds their pairs again.
#include "broadphase.h"
#include "joint.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void dkBroadphase_Destroy(const dkWorld* world, dkBroadphase* bp)
{
	if (!bp) return;
	dkFree(world, bp->filters);
	dkFree(world, bp->fatGeneration);
	dkFree(world, bp->escaped);
	dkFree(world, bp->isLoose);
	dkFree(world, bp->live);
	dkFree(world, bp->movers);
	dkFree(world, bp->still);
	dkFree(world, bp->escapedList);
	dkFree(world, bp->loose);
	dkFree(world, bp->spare);
	dkFree(world, bp->changed);
	dkFree(world, bp->boxList);
	dkFree(world, bp->itemStart);
	dkFree(world, bp->itemShapes);
	dkFree(world, bp->moving);
	dkFree(world, bp);
}

// Room for `room` shape slots in the world's box arrays and the broadphase's; new slots have no fat box.
bool dkShapeLists_ReserveRoom(dkWorld* world, int32_t room)
{
	if (!world->broadphase && !(world->broadphase = dkAllocZeroed(world, sizeof(dkBroadphase)))) return false;
	dkBroadphase* bp = world->broadphase;
	if (world->aabbCapacity >= room) return true;
	size_t cap = (size_t)room, old = (size_t)world->aabbCapacity;
	// Each array holds `per` elements of `size` bytes per shape slot.
#define grow(p, per, size) dkResizeArray(world, (void**)(p), old * (per), cap * (per), size)
	bool grown = grow(&world->aabb, 4, sizeof(float)) && grow(&world->fatAabb, 4, sizeof(float)) &&
				 grow(&world->motion, dkMotionFloats, sizeof(float)) && grow(&bp->filters, 1, sizeof(dkFilter)) &&
				 grow(&bp->fatGeneration, 1, sizeof(uint32_t)) && grow(&bp->escaped, 1, 1) && grow(&bp->isLoose, 1, 1) &&
				 grow(&bp->live, 1, sizeof(int32_t)) && grow(&bp->movers, 1, sizeof(int32_t)) &&
				 grow(&bp->still, 1, sizeof(int32_t)) && grow(&bp->escapedList, 1, sizeof(int32_t)) &&
				 grow(&bp->loose, 1, sizeof(int32_t)) && grow(&bp->spare, 1, sizeof(int32_t)) &&
				 grow(&bp->changed, 1, sizeof(int32_t)) && grow(&bp->boxList, 1, sizeof(int32_t)) &&
				 grow(&bp->itemShapes, 1, sizeof(int32_t));
#undef grow
	if (!grown) return false;
	memset(bp->fatGeneration + old, 0, (cap - old) * sizeof(uint32_t));
	memset(bp->isLoose + old, 0, cap - old);
	memset(bp->filters + old, 0, (cap - old) * sizeof(dkFilter)); // never listed: not alive
	world->aabbCapacity = (int32_t)cap;
	world->pairsValid = false;
	return true;
}

// Room for n shape slots, and half as many again when they grow.
static bool reserveSlots(dkWorld* world, int32_t n)
{
	if (world->broadphase && world->aabbCapacity >= n) return true;
	return dkShapeLists_ReserveRoom(world, n + n / 2);
}

// Room for n item slots in the index of each item's shapes.
static bool reserveItems(dkWorld* world, dkBroadphase* bp, int32_t n)
{
	if (bp->itemStart && bp->itemCapacity >= n) return true;
	size_t cap = (size_t)n + (size_t)n / 2, old = (size_t)bp->itemCapacity;
	if (!dkResizeArray(world, (void**)&bp->moving, old, cap, 1) ||
		!dkResizeArray(world, (void**)&bp->itemStart, old > 0 ? old + 1 : 0, cap + 1, sizeof(int32_t)))
		return false;
	bp->itemCapacity = (int32_t)cap;
	return true;
}

void dkBroadphase_NoteItem(dkWorld* world, int32_t slot)
{
	const dkBroadphase* bp = world->broadphase;
	// Shapes made since the index was built were noted when they were made.
	if (world->pairsValid && world->pairsLost) { // read from a snapshot: no index yet, so every shape is looked at
		for (int32_t i = 0; i < world->shapeIds.next; ++i)
			if (world->shapes.data[i].alive && world->shapes.data[i].body == slot) dkBroadphase_NoteShape(world, i);
		return;
	}
	if (!world->pairsValid || !bp || slot >= bp->indexedItems) return;
	for (int32_t p = bp->itemStart[slot]; p < bp->itemStart[slot + 1]; ++p) dkBroadphase_NoteShape(world, bp->itemShapes[p]);
}

bool dkShapeLists_Reserve(dkWorld* world, int32_t shapeSlots, int32_t itemSlots)
{
	return reserveSlots(world, shapeSlots) && reserveItems(world, world->broadphase, itemSlots);
}

// Whether the shapes of item slot `body` move this step (an awake item that is not anchored).
static bool bodyActive(const dkWorld* world, int32_t body)
{
	if (body < 0) return false;
	int32_t row = world->slots.data[body].dense;
	return row >= 0 && row < world->awake &&
		   (world->col[dkColumnInverseMass][row] > 0.0f || (world->flags[row] & dkItemKinematic));
}

// Whether constraints move an item (a boundary: no).
static bool bodyDynamic(const dkWorld* world, int32_t body)
{
	if (body < 0) return false;
	int32_t row = world->slots.data[body].dense;
	return row >= 0 && (world->col[dkColumnInverseMass][row] > 0.0f || world->col[dkColumnInverseInertia][row] > 0.0f);
}

// A live shape's filter, as its item is now.
dkFilter dkShapeLists_Filter(const dkWorld* world, const dkShape* s)
{
	return (dkFilter){s->itemGroups, s->boundaryGroups, s->body, true, bodyActive(world, s->body),
					  dkJointPairs_HasSlot(world, s->body), bodyDynamic(world, s->body), s->exclusionGroup};
}

// The items that rested or woke, and the shapes that changed, were all taken into account.
void dkShapeLists_Forget(dkWorld* world)
{
	for (int32_t k = 0; k < world->restChangeCount; ++k) world->restChanged[world->restChanges[k]] = 0;
	world->restChangeCount = 0;
	for (int32_t k = 0; k < world->shapeChangeCount; ++k) world->shapeChanged[world->shapeChanges[k]] = 0;
	world->shapeChangeCount = 0;
}

bool dkBroadphase_ReserveChanges(dkWorld* world, int32_t slots)
{
	if (slots <= world->shapeChangeCapacity) return true;
	size_t n = (size_t)slots, old = (size_t)world->shapeChangeCapacity;
	if (!dkResizeArray(world, (void**)&world->shapeChanges, (size_t)world->shapeChangeCount, n, sizeof(int32_t)) ||
		!dkResizeArray(world, (void**)&world->shapeChanged, old, n, 1))
		return false;
	memset(world->shapeChanged + old, 0, n - old);
	world->shapeChangeCapacity = slots;
	return true;
}

void dkBroadphase_NoteShape(dkWorld* world, int32_t slot)
{
	if (!world->pairsValid || world->shapeChanged[slot]) return;
	world->shapeChanged[slot] = 1;
	world->shapeChanges[world->shapeChangeCount++] = slot;
}

// Merges the ascending lists a and b into out, each slot once; returns its length.
int32_t dkShapeLists_Union(const int32_t* a, int32_t na, const int32_t* b, int32_t nb, int32_t* out)
{
	int32_t n = 0, i = 0, j = 0;
	while (i < na || j < nb) {
		int32_t x = i < na ? a[i] : INT32_MAX, y = j < nb ? b[j] : INT32_MAX;
		out[n++] = x < y ? x : y;
		i += x <= y;
		j += y <= x;
	}
	return n;
}

// Adds this step's escaped shapes to the loose ones (both ascending). False when there would be too many
// for the grid to answer for.
bool dkShapeLists_Loosen(dkBroadphase* bp, int32_t escapedCount)
{
	int32_t n = dkShapeLists_Union(bp->loose, bp->looseCount, bp->escapedList, escapedCount, bp->spare);
	if (n > DK_LOOSE_LIMIT || (n > DK_LOOSE_FEW && (int64_t)n * DK_LOOSE_SHARE > bp->liveCount)) return false;
	for (int32_t k = 0; k < escapedCount; ++k) bp->isLoose[bp->escapedList[k]] = 1;
	int32_t* t = bp->loose;
	bp->loose = bp->spare;
	bp->spare = t;
	bp->looseCount = n;
	return true;
}

// The index of each item's shapes, from the live shapes (itemShapes[itemStart[i] .. itemStart[i + 1]),
// ascending, for every item slot in use).
static void indexItems(dkWorld* world, dkBroadphase* bp)
{
	int32_t items = world->itemIds.next;
	memset(bp->itemStart, 0, ((size_t)items + 1) * sizeof(int32_t));
	for (int32_t k = 0; k < bp->liveCount; ++k) {
		int32_t body = bp->filters[bp->live[k]].body;
		if (body >= 0) bp->itemStart[body]++;
	}
	// Counts become starts, starts become ends as the shapes are placed, and ends are shifted back to starts.
	for (int32_t b = 0, sum = 0; b < items; ++b) {
		int32_t count = bp->itemStart[b];
		bp->itemStart[b] = sum;
		sum += count;
	}
	for (int32_t k = 0; k < bp->liveCount; ++k) {
		int32_t body = bp->filters[bp->live[k]].body;
		if (body >= 0) bp->itemShapes[bp->itemStart[body]++] = bp->live[k];
	}
	for (int32_t b = items; b > 0; --b) bp->itemStart[b] = bp->itemStart[b - 1];
	bp->itemStart[0] = 0;
	bp->indexedItems = items;
}

// A full pass's lists: the live shapes, the movers (shapes of awake items), the others, and this step's
// escaped shapes (all ascending); the index of each item's shapes, and which items' shapes move.
int32_t dkShapeLists_ListAll(dkWorld* world, dkBroadphase* bp, int32_t n)
{
	int32_t escapedCount = 0, items = world->itemIds.next;
	bp->liveCount = bp->moverCount = bp->stillCount = 0;
	bp->stillBuilt = false;
	bp->stillListed = true;
	for (int32_t i = 0; i < n; ++i) {
		if (!bp->filters[i].alive) continue;
		bp->live[bp->liveCount++] = i;
		int32_t body = bp->filters[i].body;
		if (body >= 0 && world->slots.data[body].dense < world->awake) bp->movers[bp->moverCount++] = i;
		else bp->still[bp->stillCount++] = i;
		if (bp->escaped[i]) bp->escapedList[escapedCount++] = i;
	}
	indexItems(world, bp);
	memset(bp->moving, 0, (size_t)items);
	for (int32_t row = 0; row < world->awake; ++row) bp->moving[world->slotOf[row]] = 1;
	dkShapeLists_Forget(world);
	return escapedCount;
}

static int compareSlots(const void* x, const void* y)
{
	int32_t a = *(const int32_t*)x, b = *(const int32_t*)y;
	return (a > b) - (a < b);
}

// Which of the lists a shape belongs in now.
typedef enum dkShapeList { dkListLive, dkListMovers, dkListStill } dkShapeList;

static bool belongs(const dkWorld* world, int32_t slot, dkShapeList list)
{
	const dkShape* s = &world->shapes.data[slot];
	if (!s->alive) return false;
	if (list == dkListLive) return true;
	bool moves = s->body >= 0 && world->slots.data[s->body].dense < world->awake;
	return list == dkListMovers ? moves : !moves;
}

// The ascending list less the changed slots (ascending), with those of them that belong in it now, into
// out; returns its length.
static int32_t replaceSlots(const dkWorld* world, const int32_t* list, int32_t count, const int32_t* changes,
							int32_t changeCount, dkShapeList which, int32_t* out)
{
	int32_t n = 0, i = 0, j = 0;
	while (i < count || j < changeCount) {
		int32_t x = i < count ? list[i] : INT32_MAX, y = j < changeCount ? changes[j] : INT32_MAX;
		if (x < y) {
			out[n++] = list[i++];
			continue;
		}
		i += x == y; // the changed slot leaves, and comes back if it belongs
		if (belongs(world, y, which)) out[n++] = y;
		++j;
	}
	return n;
}

// Replaces one of the broadphase's lists by replaceSlots's result, through the spare buffer.
static void replaceList(dkWorld* world, dkBroadphase* bp, int32_t** list, int32_t* count, int32_t changeCount,
						dkShapeList which)
{
	*count = replaceSlots(world, *list, *count, world->shapeChanges, changeCount, which, bp->spare);
	int32_t* t = *list;
	*list = bp->spare;
	bp->spare = t;
}

static bool contains(const int32_t* list, int32_t count, int32_t slot)
{
	int32_t lo = 0, hi = count;
	while (lo < hi) {
		int32_t mid = lo + (hi - lo) / 2;
		if (list[mid] < slot) lo = mid + 1;
		else hi = mid;
	}
	return lo < count && list[lo] == slot;
}

// Between full passes, the shapes made, freed or refiltered since the lists were made (world->shapeChanges):
// each leaves the lists it was in and, while alive, joins them again as a new shape would, with its filter,
// its box at its item's pose and a fat box made now; the index of each item's shapes is made again. Returns
// the number of changed slots, left ascending in world->shapeChanges: they become loose with this step's
// escaped shapes, so the grid finds their pairs again and their old pairs go. A changed shape among the
// still ones (or one that joins them) makes the still grid be built again.
int32_t dkShapeLists_Retake(dkWorld* world, dkBroadphase* bp, float dt)
{
	int32_t count = world->shapeChangeCount;
	const int32_t* changes = world->shapeChanges;
	for (int32_t k = 0; k < count; ++k) world->shapeChanged[changes[k]] = 0;
	world->shapeChangeCount = 0;
	if (count > 1) qsort(world->shapeChanges, (size_t)count, sizeof(int32_t), compareSlots);
	bool stillChanged = false;
	for (int32_t k = 0; k < count; ++k) {
		int32_t slot = changes[k];
		const dkShape* s = &world->shapes.data[slot];
		if (bp->filters[slot].alive && !contains(bp->movers, bp->moverCount, slot)) stillChanged = true;
		bp->filters[slot] = s->alive ? dkShapeLists_Filter(world, s) : (dkFilter){.body = -1};
		if (!s->alive) continue;
		stillChanged = stillChanged || !belongs(world, slot, dkListMovers);
		if (s->body >= 0) {
			int32_t row = world->slots.data[s->body].dense;
			dkStore_Rotations(world, row, row + 1);
		}
		dkBroadphase_Box(world, s, dt, world->aabb + 4 * slot, world->motion + dkMotionFloats * slot);
		dkBroadphase_Fatten(world, slot);
	}
	replaceList(world, bp, &bp->live, &bp->liveCount, count, dkListLive);
	replaceList(world, bp, &bp->movers, &bp->moverCount, count, dkListMovers);
	if (stillChanged) {
		bp->stillBuilt = false;
		if (bp->stillListed) replaceList(world, bp, &bp->still, &bp->stillCount, count, dkListStill);
	}
	bp->stillCount = bp->liveCount - bp->moverCount;
	// An item's shapes are among the movers as it is now when they are all new, or when it has not rested or
	// woken since the lists were made; otherwise relist moves them.
	int32_t indexed = bp->indexedItems;
	indexItems(world, bp);
	for (int32_t b = indexed; b < bp->indexedItems; ++b) {
		int32_t row = world->slots.data[b].dense;
		bp->moving[b] = row >= 0 && row < world->awake;
	}
	for (int32_t k = 0; k < count; ++k) {
		int32_t body = bp->filters[changes[k]].body;
		if (body >= 0 && !world->restChanged[body]) bp->moving[body] = world->slots.data[body].dense < world->awake;
	}
	return count;
}

// Between full passes, the items that rested or woke since the movers were listed (world->restChanges):
// - one that woke: its shapes join the movers, and this step's box pass;
// - one that rested: its shapes' boxes are computed once more, at the pose it rests in (its last step moved
//   it after that step's boxes), and they leave the movers after this step's box pass;
// - one that woke and rested again since: its shapes are boxed again too, and stay with the still ones.
// Their shapes' filters say whether they move now, and they are this step's changed shapes (bp->changed),
// whose pairs are found again as those of shapes whose fat boxes changed. Returns the number of changed
// shapes; the box pass visits bp->boxList (bp->moverCount of them).
int32_t dkShapeLists_Relist(dkWorld* world, dkBroadphase* bp)
{
	int32_t added = 0, changed = 0;
	for (int32_t k = 0; k < world->restChangeCount; ++k) {
		int32_t slot = world->restChanges[k], row = world->slots.data[slot].dense;
		// An item made since the last full pass has no shape (a new shape makes the next pass full), nor has
		// one removed since (its shapes went with it).
		if (row < 0 || slot >= bp->indexedItems) continue;
		bool was = bp->moving[slot], now = row < world->awake;
		if (was && now) continue;
		if (!now) dkStore_Rotations(world, row, row + 1); // (the box pass rotates the awake rows)
		for (int32_t p = bp->itemStart[slot]; p < bp->itemStart[slot + 1]; ++p) {
			int32_t shape = bp->itemShapes[p];
			bp->changed[changed++] = shape;
			if (!was) bp->spare[added++] = shape; // not a mover yet: the box pass visits it too
			bp->filters[shape].active = bodyActive(world, slot);
		}
		bp->moving[slot] = now;
	}
	dkShapeLists_Forget(world);
	if (changed > 1) qsort(bp->changed, (size_t)changed, sizeof(int32_t), compareSlots);
	if (added > 1) qsort(bp->spare, (size_t)added, sizeof(int32_t), compareSlots);
	bp->moverCount = dkShapeLists_Union(bp->movers, bp->moverCount, bp->spare, added, bp->boxList);
	if (changed > 0) {
		bp->stillBuilt = false;
		bp->stillListed = false;
	}
	return changed;
}

// After a relist's box pass: the movers are the box pass's shapes on awake items, the others are still; the
// loose shapes to add are the escaped ones and the changed ones. Returns how many are to be added
// (bp->escapedList).
int32_t dkShapeLists_AfterRelist(dkWorld* world, dkBroadphase* bp, int32_t escapedCount, int32_t changed)
{
	int32_t movers = 0;
	for (int32_t k = 0; k < bp->moverCount; ++k) {
		int32_t shape = bp->boxList[k];
		if (world->slots.data[bp->filters[shape].body].dense < world->awake) bp->movers[movers++] = shape;
	}
	bp->moverCount = movers;
	bp->stillCount = bp->liveCount - movers;
	int32_t n = dkShapeLists_Union(bp->escapedList, escapedCount, bp->changed, changed, bp->boxList);
	int32_t* t = bp->escapedList;
	bp->escapedList = bp->boxList;
	bp->boxList = t;
	return n;
}

// The still shapes listed again from the live shapes and the movers (both ascending), after relists.
void dkShapeLists_ListStill(dkBroadphase* bp)
{
	int32_t n = 0;
	for (int32_t k = 0, m = 0; k < bp->liveCount; ++k) {
		while (m < bp->moverCount && bp->movers[m] < bp->live[k]) ++m;
		if (m == bp->moverCount || bp->movers[m] != bp->live[k]) bp->still[n++] = bp->live[k];
	}
	bp->stillCount = n;
	bp->stillListed = true;
}
