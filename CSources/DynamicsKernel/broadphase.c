// SPDX-License-Identifier: Apache-2.0
// Stage: broadphase. Each step it recomputes the boxes of the shapes that can move (those of awake items):
// an item shape's box is fattened by the speculative distance plus |v|·dt. Pairs come from fat boxes
// (DK_AABB_MARGIN more). As Box2D's proxies, a shape's fat box is made when the shape is new and made again
// only when its box leaves it, so the pairs are a function of the fat boxes and change only where one did:
// - nothing left its fat box: last step's pairs are kept;
// - a few shapes did since the grid was built (at most DK_LOOSE_LIMIT): the grid of that build answers for
//   them (dkPairGrid_Update), and the pairs of the others stay;
// - more did, or something changed which pairs count (shapes, groups, anchoring, joined items, dt):
//   every shape's box is computed again and a new grid finds every pair (pair_grid.c).
// Items that rest or wake change which pairs count too, but only theirs: their shapes move between the
// lists of what moves and what does not, through an index of each item's shapes kept from the last full
// pass, and count as shapes whose fat boxes changed (relist).
// While the shapes that cannot move (resting items, boundaries) are at least as many as the others, a grid
// found again between full passes lists only the others, which look their partners up in a grid of the
// still shapes, built once after each full pass or relist (dkPairGrid_FindSplit).
// Every path gives the same pairs, sorted by shape slot, for any worker count. Between full passes, resting
// and anchored shapes and boundaries are not visited at all: a world mostly at rest pays for what moves.
//
// The per-shape pass, the fat boxes and every pass of the grid run in parallel blocks.
//
// Why a grid: sort-and-sweep on x, the first version, slows down in tall stacks, where a box shares its
// x range with every box of its column. The grid needs no persistent tree and its cost does not depend on
// the stacking direction; finding every pair again costs about the same per box from 10³ to 10⁵ boxes and
// more at 10⁶, where boxes created at random places make the pair pass's reads miss the cache (pair_grid.c;
// the `scatter` measurements are in Benchmarks/results). A uniform
// grid suits boxes of similar size; for a mix of sizes far apart, boxes 8 cells wide and more go to a
// coarse grid of their own (pair_grid.c). A dynamic AABB tree, as Box2D keeps, would cost a tree update per
// moved box and a query per box, with no parallel build; it was not tried.
// A pair needs at least one shape on an awake dynamic item, and the two filters must accept each other.
#include "collision.h"
#include "joint.h"
#include "team.h"

#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// What the broadphase keeps between steps, per shape slot unless said otherwise. All of it is valid while
// the world's pair list is (pairsValid).
struct dkBroadphase {
	dkFilter* filters;		  // from the last full pass
	uint32_t* fatGeneration; // the generation of the shape the slot's fat box was made for (0: none yet)
	uint8_t* escaped;		  // this step: the box left its fat box, or the shape has none
	uint8_t* isLoose;		  // the fat box changed since the grid was built
	int32_t* live;			  // live shape slots, ascending (last full pass)
	int32_t* movers;		  // live shapes of awake items, whose boxes may change (last full pass), ascending
	int32_t* still;			  // the other live shapes (last full pass), ascending
	int32_t* escapedList;	  // this step's escaped shapes, ascending
	int32_t* loose;			  // the loose shapes, ascending
	int32_t* spare;			  // scratch for merging the loose list
	int32_t* changed;		  // this step's shapes of items that rested or woke, ascending (relist)
	int32_t* boxList;		  // this step's box pass: the movers and the shapes that join them or rest anew
	int32_t liveCount, moverCount, stillCount, looseCount;
	// Per item slot, from the last full pass: the item's live shapes (itemShapes[itemStart[i] ..
	// itemStart[i + 1]), ascending) and whether they are among the movers (moving).
	int32_t* itemStart;
	int32_t* itemShapes;
	uint8_t* moving;
	int32_t itemCapacity, indexedItems;
	float dt; // the step the boxes were fattened for
	bool stillBuilt; // the world's still grid lists the shapes in `still`
	bool stillListed; // `still` lists the live shapes that are not movers (else only stillCount is current)
};

// Up to this many shapes whose fat boxes changed since the grid was built, and at most one in
// DK_LOOSE_SHARE of the live ones (or DK_LOOSE_FEW), the grid answers for them; more, and a new grid is built.
#define DK_LOOSE_LIMIT 256
#define DK_LOOSE_SHARE 8
#define DK_LOOSE_FEW 32

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

// Room for n shape slots in the world's box arrays and the broadphase's; new slots have no fat box.
static bool reserveSlots(dkWorld* world, int32_t n)
{
	if (!world->broadphase && !(world->broadphase = dkAllocZeroed(world, sizeof(dkBroadphase)))) return false;
	dkBroadphase* bp = world->broadphase;
	if (world->aabbCapacity >= n) return true;
	size_t cap = (size_t)n + (size_t)n / 2, old = (size_t)world->aabbCapacity;
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
	world->aabbCapacity = (int32_t)cap;
	world->pairsValid = false;
	return true;
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

// The items that rested or woke were all taken into account.
static void forgetChanges(dkWorld* world)
{
	for (int32_t k = 0; k < world->restChangeCount; ++k) world->restChanged[world->restChanges[k]] = 0;
	world->restChangeCount = 0;
}

// The AABB of a shape at its item's pose (rotation from the step's cached cos/sin columns), and its
// motion (the narrowphase's use).
static void computeBox(const dkWorld* world, const dkShape* s, float dt, float* box, float* motion)
{
	float x = 0, y = 0, c = 1, sn = 0, vx = 0, vy = 0, margin = 0;
	if (s->body >= 0) {
		int32_t row = world->slots.data[s->body].dense;
		x = world->col[dkColumnPositionX][row];
		y = world->col[dkColumnPositionY][row];
		c = world->col[dkColumnCos][row];
		sn = world->col[dkColumnSin][row];
		vx = world->col[dkColumnVelocityX][row];
		vy = world->col[dkColumnVelocityY][row];
		margin = DK_SPECULATIVE_DISTANCE + dt * sqrtf(vx * vx + vy * vy);
	}
	motion[dkMotionVx] = vx;
	motion[dkMotionVy] = vy;
	motion[dkMotionReach] = margin;
	motion[dkMotionUnused] = 0;
	motion[dkMotionX] = x;
	motion[dkMotionY] = y;
	motion[dkMotionCos] = c;
	motion[dkMotionSin] = sn;
	float lx = INFINITY, ly = INFINITY, ux = -INFINITY, uy = -INFINITY;
	for (int32_t i = 0; i < s->count; ++i) {
		float px = (c * s->x[i] - sn * s->y[i]) + x, py = (sn * s->x[i] + c * s->y[i]) + y;
		lx = fminf(lx, px);
		ly = fminf(ly, py);
		ux = fmaxf(ux, px);
		uy = fmaxf(uy, py);
	}
	float r = s->radius + margin;
	box[0] = lx - r;
	box[1] = ly - r;
	box[2] = ux + r;
	box[3] = uy + r;
}

static bool pushPair(dkWorld* world, int32_t a, int32_t b)
{
	dkPair pair = {a < b ? a : b, a < b ? b : a};
	return dkPairArray_Push(world, &world->pairs, &pair);
}

// The per-step pass, run by any number of workers: first the rotations of rows [0, rows) (the narrowphase
// reads them too), then the box of each listed shape and whether it left its fat box; a full pass lists
// every slot and also writes each one's filter. Workers claim chunks; the shape phase starts once every
// rotation chunk is done.
#define DK_BOX_CHUNK 512 // 2048 split the pyramid's 5 051 shapes 2:1 between two workers
// The shape records are 304 bytes apart, and the hardware prefetcher did not keep up with them: the first
// read of each record was most of the pass. The pass asks for the record this many shapes ahead.
#define DK_BOX_AHEAD 16

typedef struct dkBoxTask {
	dkWorld* world;
	dkBroadphase* bp;
	const int32_t* list; // the shape slots to visit, ascending, or null for every slot
	float dt;
	int32_t shapes, rows; // listed shapes; rows to rotate
	bool full;
	atomic_int rowNext, rowDone, shapeNext, escaped;
} dkBoxTask;

static void boxTask(void* context, int32_t worker)
{
	(void)worker;
	dkBoxTask* t = context;
	dkWorld* world = t->world;
	dkBroadphase* bp = t->bp;
	int32_t rows = t->rows, rowChunks = (rows + DK_BOX_CHUNK - 1) / DK_BOX_CHUNK;
	for (;;) {
		int32_t chunk = atomic_fetch_add(&t->rowNext, 1);
		if (chunk >= rowChunks) break;
		int32_t e = (chunk + 1) * DK_BOX_CHUNK < rows ? (chunk + 1) * DK_BOX_CHUNK : rows;
		dkStore_Rotations(world, chunk * DK_BOX_CHUNK, e);
		atomic_fetch_add(&t->rowDone, 1);
	}
	while (atomic_load_explicit(&t->rowDone, memory_order_acquire) < rowChunks) {}
	for (int32_t b, e; dkClaimChunk(&t->shapeNext, DK_BOX_CHUNK, t->shapes, &b, &e);) {
		bool escaped = false;
		for (int32_t k = b; k < e; ++k) {
			int32_t i = t->list ? t->list[k] : k;
			const dkShape* s = &world->shapes.data[i];
			if (k + DK_BOX_AHEAD < e) { // a box's pass reads the record's first two lines
				const char* ahead = (const char*)&world->shapes.data[t->list ? t->list[k + DK_BOX_AHEAD] : k + DK_BOX_AHEAD];
				__builtin_prefetch(ahead);
				__builtin_prefetch(ahead + 64);
			}
			bp->escaped[i] = 0;
			if (t->full) bp->filters[i].alive = s->alive;
			if (!s->alive) continue;
			if (t->full)
				bp->filters[i] = (dkFilter){s->itemGroups, s->boundaryGroups, s->body, true, bodyActive(world, s->body),
											dkJointPairs_HasSlot(world, s->body), bodyDynamic(world, s->body)};
			float* box = world->aabb + 4 * i;
			computeBox(world, s, t->dt, box, world->motion + dkMotionFloats * i);
			const float* fat = world->fatAabb + 4 * i;
			bool out = bp->fatGeneration[i] != s->generation || box[0] < fat[0] || box[1] < fat[1] ||
					   box[2] > fat[2] || box[3] > fat[3];
			bp->escaped[i] = out;
			escaped = escaped || out;
		}
		if (escaped) atomic_store(&t->escaped, 1);
	}
}

// New fat boxes for the escaped shapes, in parallel blocks: item boxes grow by DK_AABB_MARGIN, boundaries
// do not move and keep their own.
typedef struct dkFatTask {
	dkWorld* world;
	const int32_t* slots;
	int32_t count;
	atomic_int next;
} dkFatTask;

static void fatTask(void* context, int32_t worker)
{
	(void)worker;
	dkFatTask* t = context;
	dkWorld* world = t->world;
	for (int32_t b, e; dkClaimChunk(&t->next, DK_BOX_CHUNK, t->count, &b, &e);) {
		for (int32_t p = b; p < e; ++p) {
			int32_t slot = t->slots[p];
			const dkShape* s = &world->shapes.data[slot];
			const float* box = world->aabb + 4 * slot;
			float* fat = world->fatAabb + 4 * slot;
			float margin = s->body >= 0 ? DK_AABB_MARGIN : 0.0f;
			fat[0] = box[0] - margin;
			fat[1] = box[1] - margin;
			fat[2] = box[2] + margin;
			fat[3] = box[3] + margin;
			world->broadphase->fatGeneration[slot] = s->generation;
		}
	}
}

// Merges the ascending lists a and b into out, each slot once; returns its length.
static int32_t unionSlots(const int32_t* a, int32_t na, const int32_t* b, int32_t nb, int32_t* out)
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
static bool loosen(dkBroadphase* bp, int32_t escapedCount)
{
	int32_t n = unionSlots(bp->loose, bp->looseCount, bp->escapedList, escapedCount, bp->spare);
	if (n > DK_LOOSE_LIMIT || (n > DK_LOOSE_FEW && (int64_t)n * DK_LOOSE_SHARE > bp->liveCount)) return false;
	for (int32_t k = 0; k < escapedCount; ++k) bp->isLoose[bp->escapedList[k]] = 1;
	int32_t* t = bp->loose;
	bp->loose = bp->spare;
	bp->spare = t;
	bp->looseCount = n;
	return true;
}

// A full pass's lists: the live shapes, the movers (shapes of awake items), the others, and this step's
// escaped shapes (all ascending); the index of each item's shapes, and which items' shapes move.
static int32_t listAll(dkWorld* world, dkBroadphase* bp, int32_t n)
{
	int32_t escapedCount = 0, items = world->itemIds.next;
	bp->liveCount = bp->moverCount = bp->stillCount = 0;
	bp->stillBuilt = false;
	bp->stillListed = true;
	memset(bp->itemStart, 0, ((size_t)items + 1) * sizeof(int32_t));
	for (int32_t i = 0; i < n; ++i) {
		if (!bp->filters[i].alive) continue;
		bp->live[bp->liveCount++] = i;
		int32_t body = bp->filters[i].body;
		if (body >= 0) bp->itemStart[body]++;
		if (body >= 0 && world->slots.data[body].dense < world->awake) bp->movers[bp->moverCount++] = i;
		else bp->still[bp->stillCount++] = i;
		if (bp->escaped[i]) bp->escapedList[escapedCount++] = i;
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
	memset(bp->moving, 0, (size_t)items);
	for (int32_t row = 0; row < world->awake; ++row) bp->moving[world->slotOf[row]] = 1;
	bp->indexedItems = items;
	forgetChanges(world);
	return escapedCount;
}

static int compareSlots(const void* x, const void* y)
{
	int32_t a = *(const int32_t*)x, b = *(const int32_t*)y;
	return (a > b) - (a < b);
}

// Between full passes, the items that rested or woke since the movers were listed (world->restChanges):
// - one that woke: its shapes join the movers, and this step's box pass;
// - one that rested: its shapes' boxes are computed once more, at the pose it rests in (its last step moved
//   it after that step's boxes), and they leave the movers after this step's box pass;
// - one that woke and rested again since: its shapes are boxed again too, and stay with the still ones.
// Their shapes' filters say whether they move now, and they are this step's changed shapes (bp->changed),
// whose pairs are found again as those of shapes whose fat boxes changed. Returns the number of changed
// shapes; the box pass visits bp->boxList (bp->moverCount of them).
static int32_t relist(dkWorld* world, dkBroadphase* bp)
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
	forgetChanges(world);
	if (changed > 1) qsort(bp->changed, (size_t)changed, sizeof(int32_t), compareSlots);
	if (added > 1) qsort(bp->spare, (size_t)added, sizeof(int32_t), compareSlots);
	bp->moverCount = unionSlots(bp->movers, bp->moverCount, bp->spare, added, bp->boxList);
	if (changed > 0) {
		bp->stillBuilt = false;
		bp->stillListed = false;
	}
	return changed;
}

// After a relist's box pass: the movers are the box pass's shapes on awake items, the others are still; the
// loose shapes to add are the escaped ones and the changed ones. Returns how many are to be added
// (bp->escapedList).
static int32_t afterRelist(dkWorld* world, dkBroadphase* bp, int32_t escapedCount, int32_t changed)
{
	int32_t movers = 0;
	for (int32_t k = 0; k < bp->moverCount; ++k) {
		int32_t shape = bp->boxList[k];
		if (world->slots.data[bp->filters[shape].body].dense < world->awake) bp->movers[movers++] = shape;
	}
	bp->moverCount = movers;
	bp->stillCount = bp->liveCount - movers;
	int32_t n = unionSlots(bp->escapedList, escapedCount, bp->changed, changed, bp->boxList);
	int32_t* t = bp->escapedList;
	bp->escapedList = bp->boxList;
	bp->boxList = t;
	return n;
}

// The still shapes listed again from the live shapes and the movers (both ascending), after relists.
static void listStill(dkBroadphase* bp)
{
	int32_t n = 0;
	for (int32_t k = 0, m = 0; k < bp->liveCount; ++k) {
		while (m < bp->moverCount && bp->movers[m] < bp->live[k]) ++m;
		if (m == bp->moverCount || bp->movers[m] != bp->live[k]) bp->still[n++] = bp->live[k];
	}
	bp->stillCount = n;
	bp->stillListed = true;
}

int32_t dkBroadphase_Pairs(dkWorld* world, float dt, bool bruteForce)
{
	int32_t n = world->shapeIds.next;
	world->pairsReused = world->pairsPatched = world->pairsSplit = world->pairsUnchanged = world->pairsRelisted = false;
	if (n == 0) {
		world->pairs.count = 0;
		forgetChanges(world);
		return 0;
	}
	if (!reserveSlots(world, n) || !reserveItems(world, world->broadphase, world->itemIds.next)) return -1;
	dkBroadphase* bp = world->broadphase;
	// A full pass when the last step's pairs may not hold (or the boxes' margins change with dt): every
	// slot, every row's rotation; otherwise only the shapes that can move and the awake rows (a resting row's
	// rotation and its shapes' boxes are those of the first pass after it rested, as it has not moved since).
	bool full = !world->pairsValid || bruteForce || dt != bp->dt;
	bp->dt = dt;
	int32_t changed = full || world->restChangeCount == 0 ? 0 : relist(world, bp);
	world->pairsRelisted = changed > 0;
	const int32_t* list = changed > 0 ? bp->boxList : bp->movers;
	dkBoxTask task = {.world = world, .bp = bp, .list = full ? NULL : list, .dt = dt,
					  .shapes = full ? n : bp->moverCount, .rows = full ? world->count : world->awake, .full = full};
	atomic_init(&task.rowNext, 0);
	atomic_init(&task.rowDone, 0);
	atomic_init(&task.shapeNext, 0);
	atomic_init(&task.escaped, 0);
	dkRunTasks(world, boxTask, &task, task.shapes >= DK_MIN_PARALLEL_SHAPES ? world->def.workerCount : 1);
	world->rotationsCurrent = true;
	if (!full && changed == 0 && atomic_load(&task.escaped) == 0) { // every box is inside its fat box: the pairs stand
		world->pairsReused = world->pairsUnchanged = true;
		return world->pairs.count;
	}
	// The escaped shapes, ascending; a full pass also lists the live shapes and the ones that can move.
	int32_t escapedCount = 0;
	if (full) {
		escapedCount = listAll(world, bp, n);
	} else {
		for (int32_t k = 0; k < task.shapes; ++k)
			if (bp->escaped[list[k]]) bp->escapedList[escapedCount++] = list[k];
	}
	dkFatTask fatten = {.world = world, .slots = bp->escapedList, .count = escapedCount};
	atomic_init(&fatten.next, 0);
	dkRunTasks(world, fatTask, &fatten, escapedCount >= 2 * DK_BOX_CHUNK ? world->def.workerCount : 1);
	if (changed > 0) escapedCount = afterRelist(world, bp, escapedCount, changed);

	bool ok = true;
	if (bruteForce) { // every pair in slot order, which is the sorted order
		world->pairs.count = 0;
		for (int32_t p = 0; p < bp->liveCount; ++p)
			for (int32_t q = p + 1; q < bp->liveCount; ++q)
				if (dkCandidate(world, bp->live[p], bp->live[q], bp->filters))
					ok = pushPair(world, bp->live[p], bp->live[q]) && ok;
		world->pairsValid = false;
		return ok ? world->pairs.count : -1;
	}
	if (!full && loosen(bp, escapedCount)) {
		bool unchanged = false;
		int found = dkPairGrid_Update(world, bp->loose, bp->looseCount, bp->isLoose, bp->filters, &unchanged);
		world->pairsPatched = found == 0;
		// (after items rested or woke, the list is not taken as unchanged: the merge sorts, as after a full pass)
		world->pairsUnchanged = found == 0 && unchanged && changed == 0;
		if (found == 0) return world->pairs.count;
		if (found < 0) {
			world->pairsValid = false;
			return -1;
		}
	}
	for (int32_t k = 0; k < bp->looseCount; ++k) bp->isLoose[bp->loose[k]] = 0;
	bp->looseCount = 0;
	// Between full passes, while the shapes that cannot move are at least as many as the others, they keep a
	// grid of their own (built by the first search after a full pass or a relist), and the others are looked
	// up in it. A full pass searches one grid of every shape: in a scene that wakes items every step, building
	// the still grid each step would cost as much as the one grid.
	int found = 1;
	if (!full && bp->stillCount > 0 && bp->stillCount >= bp->moverCount) {
		if (!bp->stillBuilt && !bp->stillListed) listStill(bp);
		found = dkPairGrid_FindSplit(world, bp->movers, bp->moverCount, bp->still, bp->stillCount, bp->isLoose,
									 bp->filters, &bp->stillBuilt);
	}
	world->pairsSplit = found == 0;
	ok = found == 0 || (found > 0 && dkPairGrid_Find(world, bp->live, bp->liveCount, bp->filters));
	world->pairsValid = ok;
	return ok ? world->pairs.count : -1;
}

static int32_t copyPairs(const dkWorld* world, int32_t found, int32_t* out, int32_t capacity)
{
	if (found < 0) return -1;
	for (int32_t i = 0; i < world->pairs.count && i < capacity; ++i) {
		out[2 * i] = world->pairs.data[i].a;
		out[2 * i + 1] = world->pairs.data[i].b;
	}
	return world->pairs.count;
}

int32_t dkWorld_FindPairs(dkWorld* world, int32_t* outPairs, int32_t capacity)
{
	world->pairsValid = false;
	int32_t found = copyPairs(world, dkBroadphase_Pairs(world, 0.0f, false), outPairs, capacity);
	// The pairs of dt 0 are not the next step's, and the items that rested or woke since the last step were
	// taken into account here, not by a merge: the next step finds the pairs in full and its merge sorts.
	world->pairsValid = false;
	return found;
}

int32_t dkWorld_FindPairsBruteForce(dkWorld* world, int32_t* outPairs, int32_t capacity)
{
	return copyPairs(world, dkBroadphase_Pairs(world, 0.0f, true), outPairs, capacity);
}
