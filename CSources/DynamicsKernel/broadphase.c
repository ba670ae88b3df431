// SPDX-License-Identifier: Apache-2.0
// Stage: broadphase. Each step it recomputes the boxes of the shapes that can move (those of awake items):
// an item shape's box is fattened by the speculative distance plus |v|·dt. Pairs come from fat boxes
// (a margin more: fatMargin). As Box2D's proxies, a shape's fat box is made when the shape is new and made
// again only when its box leaves it or it has grown too large, so the pairs are a function of the fat boxes
// and change only where one did:
// - nothing left its fat box: last step's pairs are kept;
// - a few shapes did since the grid was built (at most DK_LOOSE_LIMIT): the grid of that build answers for
//   them (dkPairGrid_Update), and the pairs of the others stay;
// - more did: a new grid finds every pair (pair_grid.c);
// - something changed which pairs count everywhere (anchoring, dt): every shape's box is computed again and a
//   new grid finds every pair (a full pass).
// Items that rest or wake change which pairs count too, but only theirs: their shapes move between the
// lists of what moves and what does not, and count as shapes whose fat boxes changed. So do shapes made,
// freed or refiltered between steps (groups, joints between their items): thousands a second cost what they
// touch, not a full pass (shape_lists.c).
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
#include "broadphase.h"
#include "joint.h"
#include "team.h"

#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

// The AABB of a shape at its item's pose (rotation from the step's cached cos/sin columns), and its
// motion (the narrowphase's use).
void dkBroadphase_Box(const dkWorld* world, const dkShape* s, float dt, float* box, float* motion)
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
// A fat box is also made again when it is too large: when its width or height exceeds the box's by
// more than this many margins (a new one exceeds it by two). Boxes grow with |v|·dt, so an item that fell
// fast and came to rest would otherwise keep the fat box of its fall, and with it pairs with neighbours
// it cannot reach, which the merge tests every step.
#define DK_FAT_SLACK 4.0f

// How far an item shape's fat box reaches beyond its box (pt): an eighth of the shape's extent, at most
// DK_AABB_MARGIN, the rule Box2D sizes its margins by (its cap is 5 pt): a small shape's fat box stays near
// its size, so it has fewer pairs it cannot reach. (With a 5 pt cap, a settling pyramid of 100 pt boxes left
// its fat boxes often enough to cost more in the broadphase than the pairs saved.) Boundaries get none.
static inline float fatMargin(const dkShape* s)
{
	return s->body >= 0 ? fminf(DK_AABB_MARGIN, DK_AABB_MARGIN_FRACTION * s->extent) : 0.0f;
}

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
			if (t->full) bp->filters[i] = dkShapeLists_Filter(world, s);
			float* box = world->aabb + 4 * i;
			dkBroadphase_Box(world, s, t->dt, box, world->motion + dkMotionFloats * i);
			const float* fat = world->fatAabb + 4 * i;
			float slack = DK_FAT_SLACK * fatMargin(s);
			bool out = bp->fatGeneration[i] != s->generation || box[0] < fat[0] || box[1] < fat[1] ||
					   box[2] > fat[2] || box[3] > fat[3] || (fat[2] - fat[0]) - (box[2] - box[0]) > slack ||
					   (fat[3] - fat[1]) - (box[3] - box[1]) > slack;
			bp->escaped[i] = out;
			escaped = escaped || out;
		}
		if (escaped) atomic_store(&t->escaped, 1);
	}
}

// New fat boxes for the escaped shapes, in parallel blocks: item boxes grow by their margin (fatMargin),
// boundaries do not move and keep their own.
void dkBroadphase_Fatten(dkWorld* world, int32_t slot)
{
	const dkShape* s = &world->shapes.data[slot];
	const float* box = world->aabb + 4 * slot;
	float* fat = world->fatAabb + 4 * slot;
	float margin = fatMargin(s);
	fat[0] = box[0] - margin;
	fat[1] = box[1] - margin;
	fat[2] = box[2] + margin;
	fat[3] = box[3] + margin;
	world->broadphase->fatGeneration[slot] = s->generation;
}

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
	for (int32_t b, e; dkClaimChunk(&t->next, DK_BOX_CHUNK, t->count, &b, &e);)
		for (int32_t p = b; p < e; ++p) dkBroadphase_Fatten(world, t->slots[p]);
}

int32_t dkBroadphase_Pairs(dkWorld* world, float dt, bool bruteForce)
{
	int32_t n = world->shapeIds.next;
	world->pairsReused = world->pairsPatched = world->pairsSplit = world->pairsUnchanged = world->pairsRelisted = false;
	world->pairsRetaken = false;
	if (n == 0) {
		world->pairs.count = 0;
		world->pairsLost = false;
		dkShapeLists_Forget(world);
		return 0;
	}
	if (!dkShapeLists_Reserve(world, n, world->itemIds.next)) return -1;
	dkBroadphase* bp = world->broadphase;
	// A full pass when the last step's pairs may not hold (or the boxes' margins change with dt): every
	// slot, every row's rotation; otherwise only the shapes that can move and the awake rows (a resting row's
	// rotation and its shapes' boxes are those of the first pass after it rested, as it has not moved since).
	// Past one changed shape in eight, retaking each changed shape's lists costs more than a full pass
	// (Benchmarks/results, churn.md); both give the same pairs.
	bool full = !world->pairsValid || world->pairsLost || bruteForce || dt != bp->dt || world->shapeChangeCount > n / 8;
	bp->dt = dt;
	int32_t retaken = full || world->shapeChangeCount == 0 ? 0 : dkShapeLists_Retake(world, bp, dt);
	int32_t changed = full || world->restChangeCount == 0 ? 0 : dkShapeLists_Relist(world, bp);
	world->pairsRelisted = changed > 0;
	world->pairsRetaken = retaken > 0;
	const int32_t* list = changed > 0 ? bp->boxList : bp->movers;
	dkBoxTask task = {.world = world, .bp = bp, .list = full ? NULL : list, .dt = dt,
					  .shapes = full ? n : bp->moverCount, .rows = full ? world->count : world->awake, .full = full};
	atomic_init(&task.rowNext, 0);
	atomic_init(&task.rowDone, 0);
	atomic_init(&task.shapeNext, 0);
	atomic_init(&task.escaped, 0);
	dkRunTasks(world, boxTask, &task, task.shapes >= DK_MIN_PARALLEL_SHAPES ? world->def.workerCount : 1);
	world->rotationsCurrent = true;
	if (!full && changed == 0 && retaken == 0 && atomic_load(&task.escaped) == 0) { // every box is inside its fat box: the pairs stand
		world->pairsReused = world->pairsUnchanged = true;
		return world->pairs.count;
	}
	// The escaped shapes, ascending; a full pass also lists the live shapes and the ones that can move.
	int32_t escapedCount = 0;
	if (full) {
		escapedCount = dkShapeLists_ListAll(world, bp, n);
	} else {
		for (int32_t k = 0; k < task.shapes; ++k)
			if (bp->escaped[list[k]]) bp->escapedList[escapedCount++] = list[k];
	}
	dkFatTask fatten = {.world = world, .slots = bp->escapedList, .count = escapedCount};
	atomic_init(&fatten.next, 0);
	dkRunTasks(world, fatTask, &fatten, escapedCount >= 2 * DK_BOX_CHUNK ? world->def.workerCount : 1);
	if (changed > 0) escapedCount = dkShapeLists_AfterRelist(world, bp, escapedCount, changed);
	if (retaken > 0) { // the changed shapes are loose too
		escapedCount = dkShapeLists_Union(bp->escapedList, escapedCount, world->shapeChanges, retaken, bp->boxList);
		int32_t* t = bp->escapedList;
		bp->escapedList = bp->boxList;
		bp->boxList = t;
	}

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
	if (!full && dkShapeLists_Loosen(bp, escapedCount)) {
		bool unchanged = false;
		int found = dkPairGrid_Update(world, bp->loose, bp->looseCount, bp->isLoose, bp->filters, &unchanged);
		world->pairsPatched = found == 0;
		// (after items rested or woke, the list is not taken as unchanged: the merge sorts, as after a full pass)
		world->pairsUnchanged = found == 0 && unchanged && changed == 0 && retaken == 0;
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
		if (!bp->stillBuilt && !bp->stillListed) dkShapeLists_ListStill(bp);
		found = dkPairGrid_FindSplit(world, bp->movers, bp->moverCount, bp->still, bp->stillCount, bp->isLoose,
									 bp->filters, &bp->stillBuilt);
	}
	world->pairsSplit = found == 0;
	ok = found == 0 || (found > 0 && dkPairGrid_Find(world, bp->live, bp->liveCount, bp->filters));
	world->pairsValid = ok;
	world->pairsLost = world->pairsLost && !ok;
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
