// SPDX-License-Identifier: Apache-2.0
// Data structure: the pair grid between full builds (pair_grid.c). The shapes whose fat boxes changed since
// the grid was built look their partners up in the cells of that build and among its large shapes, and
// their pairs replace theirs in the sorted list (dkPairGrid_Update); while the shapes that cannot move are
// many, the moving ones are listed in a grid of their own and look partners up in the still shapes' grid
// too (dkPairGrid_FindSplit).
#include "contact_merge.h"
#include "pair_grid.h"
#include "radix_sort.h"
#include "team.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

static bool pushFound(const dkWorld* world, dkPairArray* out, int32_t a, int32_t b)
{
	dkPair pair = {a < b ? a : b, a < b ? b : a};
	return dkPairArray_Push(world, out, &pair);
}

static int comparePairs(const void* x, const void* y)
{
	const dkPair *p = x, *q = y;
	if (p->a != q->a) return (p->a > q->a) - (p->a < q->a);
	return (p->b > q->b) - (p->b < q->b);
}

// The partners of loose shape a among the shapes the last build listed in its cells (not loose ones: they
// are listed where they were), each pair reported in the cell of the overlap's lower corner as a build
// does; and among the build's large shapes; into `out`. False when out of memory.
static bool looseInGrid(const dkWorld* world, const dkPairGrid* g, int32_t a, const uint8_t* isLoose,
						const dkFilter* filters, dkPairArray* out)
{
	const float* box = world->fatAabb + 4 * a;
	int32_t x0 = cellOf(box[0], g->inv), y0 = cellOf(box[1], g->inv), x1 = cellOf(box[2], g->inv), y1 = cellOf(box[3], g->inv);
	int32_t lx0 = x0 > g->minX ? x0 : g->minX, ly0 = y0 > g->minY ? y0 : g->minY;
	int32_t lx1 = x1 < g->maxX ? x1 : g->maxX, ly1 = y1 < g->maxY ? y1 : g->maxY;
	for (int32_t cy = ly0; g->used > 0 && cy <= ly1; ++cy) {
		for (int32_t cx = lx0; cx <= lx1; ++cx) {
			uint64_t key = (uint64_t)(uint32_t)(cy - g->minY) * g->width + (uint32_t)(cx - g->minX);
			for (int32_t j = lowerBound64(g->cells, g->used, key); j < g->used && g->cells[j] == key; ++j) {
				int32_t b = g->members[j];
				if (b == a || isLoose[b]) continue;
				const float* bb = world->fatAabb + 4 * b;
				if (box[0] > bb[2] || bb[0] > box[2] || box[1] > bb[3] || bb[1] > box[3]) continue;
				int32_t bx = g->cellRange[4 * b], by = g->cellRange[4 * b + 1];
				if ((x0 > bx ? x0 : bx) != cx || (y0 > by ? y0 : by) != cy) continue;
				if (!filters[a].active && !filters[b].active) continue;
				if (dkAccepts(world, &filters[a], &filters[b]) && !pushFound(world, out, a, b)) return false;
			}
		}
	}
	for (int32_t l = 0; l < g->largeCount; ++l) {
		int32_t b = g->large[l];
		if (!isLoose[b] && dkCandidate(world, a, b, filters) && !pushFound(world, out, a, b)) return false;
	}
	return true;
}

// Sorts pairs by (a, b): a radix sort of (a, b) as 64-bit keys once they are many. False when out of memory
// (the pairs are then unchanged).
static bool sortPairs(const dkWorld* world, dkPair* pairs, int32_t n)
{
	if (n <= 256) {
		if (n > 1) qsort(pairs, (size_t)n, sizeof(dkPair), comparePairs);
		return true;
	}
	uint64_t* keys = dkAlloc(world, (size_t)n * sizeof(uint64_t));
	if (!keys) return false;
	for (int32_t k = 0; k < n; ++k) keys[k] = (uint64_t)(uint32_t)pairs[k].a << 32 | (uint32_t)pairs[k].b;
	bool ok = dkRadixSort64(world, keys, NULL, n);
	if (ok)
		for (int32_t k = 0; k < n; ++k) pairs[k] = (dkPair){(int32_t)(keys[k] >> 32), (int32_t)(uint32_t)keys[k]};
	dkFree(world, keys);
	return ok;
}

// The merge of the found pairs with the list runs in parts, each the pairs whose first shape lies in a range
// of slots: a part first counts the list's pairs it keeps, then (once every part knows where it starts)
// writes its merged pairs. Below DK_MERGE_PARALLEL pairs in the two lists it runs on one thread, as one part.
#define DK_MERGE_PARALLEL 8192
#define DK_MERGE_PARTS 64 // at most; four per worker

typedef struct dkPairMerge {
	const dkPair *old, *found;
	const uint8_t* isLoose;
	dkPair* out;
	int32_t parts;
	int32_t oldStart[DK_MERGE_PARTS + 1], foundStart[DK_MERGE_PARTS + 1]; // each part's ranges in the two lists
	int32_t kept[DK_MERGE_PARTS], outStart[DK_MERGE_PARTS], outEnd[DK_MERGE_PARTS];
	bool same[DK_MERGE_PARTS]; // the part's pairs are the old list's at the same places
	int32_t oldCount;
	bool write; // the second pass
	atomic_int next;
} dkPairMerge;

static void mergePart(dkPairMerge* m, int32_t k)
{
	const dkPair *old = m->old, *found = m->found;
	const uint8_t* isLoose = m->isLoose;
	int32_t i = m->oldStart[k], ie = m->oldStart[k + 1], j = m->foundStart[k], je = m->foundStart[k + 1];
	if (!m->write) {
		int32_t kept = ie - i;
		if (isLoose)
			for (; i < ie; ++i) kept -= isLoose[old[i].a] || isLoose[old[i].b];
		m->kept[k] = kept;
		return;
	}
	int32_t n = m->outStart[k], first = n;
	dkPair* out = m->out;
	for (;;) {
		while (isLoose && i < ie && (isLoose[old[i].a] || isLoose[old[i].b])) ++i;
		bool takeOld = i < ie, takeFound = j < je;
		if (!takeOld && !takeFound) break;
		if (takeOld && takeFound) takeOld = comparePairs(&old[i], &found[j]) < 0;
		out[n++] = takeOld ? old[i++] : found[j++];
	}
	m->outEnd[k] = n;
	m->same[k] = n <= m->oldCount && (n == first || memcmp(out + first, old + first, (size_t)(n - first) * sizeof(dkPair)) == 0);
}

static void mergeTask(void* context, int32_t worker)
{
	(void)worker;
	dkPairMerge* m = context;
	for (int32_t k; (k = atomic_fetch_add(&m->next, 1)) < m->parts;) mergePart(m, k);
}

// Merges the found pairs, sorted here, with the world's list, less the pairs of loose shapes (none left
// out without `isLoose`), into the grid's spare buffer, which becomes the list; `unchanged` (if not null)
// receives whether that is the list it was given, pair for pair. False when out of memory (the list is
// then unchanged).
static bool mergeFound(dkWorld* world, dkPairGrid* g, const uint8_t* isLoose, bool* unchanged)
{
	if (!sortPairs(world, g->found.data, g->found.count)) return false;
	int64_t most = (int64_t)world->pairs.count + g->found.count;
	if (most > INT32_MAX / 2) return false;
	if (!dkPairArray_Reserve(world, &g->spare, (int32_t)most)) return false;
	dkPairMerge m = {.old = world->pairs.data, .found = g->found.data, .isLoose = isLoose, .out = g->spare.data,
					 .oldCount = world->pairs.count};
	int32_t workers = most >= DK_MERGE_PARALLEL ? world->def.workerCount : 1;
	m.parts = workers * 4 < DK_MERGE_PARTS ? (workers > 1 ? workers * 4 : 1) : DK_MERGE_PARTS;
	int64_t slots = world->shapeIds.next;
	for (int32_t k = 0; k < m.parts; ++k) { // part k: first shapes in [k·slots/parts, (k+1)·slots/parts)
		int32_t from = (int32_t)(slots * k / m.parts);
		m.oldStart[k] = k == 0 ? 0 : dkMerge_FirstPair(m.old, 0, m.oldCount, from);
		m.foundStart[k] = k == 0 ? 0 : dkMerge_FirstPair(m.found, 0, g->found.count, from);
	}
	m.oldStart[m.parts] = m.oldCount;
	m.foundStart[m.parts] = g->found.count;
	atomic_init(&m.next, 0);
	if (m.parts > 1) { // (one part starts at 0 and needs no count)
		dkRunTasks(world, mergeTask, &m, workers);
		for (int32_t k = 0, at = 0; k < m.parts; ++k) {
			m.outStart[k] = at;
			at += m.kept[k] + m.foundStart[k + 1] - m.foundStart[k];
		}
		atomic_store(&m.next, 0);
	}
	m.write = true;
	dkRunTasks(world, mergeTask, &m, workers);
	int32_t n = m.outEnd[m.parts - 1];
	dkPairArray list = world->pairs;
	if (unchanged) {
		*unchanged = n == list.count;
		for (int32_t k = 0; k < m.parts; ++k) *unchanged = *unchanged && m.same[k];
	}
	world->pairs = g->spare;
	world->pairs.count = n;
	g->spare = list;
	g->spare.count = 0;
	return true;
}

// Whether shape a's fat box spans so many of grid g's cells that a new grid of every shape is cheaper than
// looking its partners up in g.
static bool tooLargeFor(const dkWorld* world, const dkPairGrid* g, int32_t a)
{
	const float* box = world->fatAabb + 4 * a;
	return spansLarge(cellOf(box[0], g->inv), cellOf(box[1], g->inv), cellOf(box[2], g->inv), cellOf(box[3], g->inv));
}

// The lookups of shapes in built grids, in chunks of DK_LOOKUP_CHUNK shapes that workers claim. Each worker
// keeps the pairs it finds in a buffer of its own; the buffers are joined and the pairs sorted after, so the
// list does not depend on the worker count or on which worker took a chunk (a pair is found by one shape of
// it only).
#define DK_LOOKUP_CHUNK 64

typedef struct dkLookupTask {
	const dkWorld* world;
	const dkPairGrid* grids[2]; // where each shape looks: the first grid, and the second unless NULL
	const int32_t* slots;
	int32_t count;
	const uint8_t* isLoose;
	const dkFilter* filters;
	dkPairArray* found; // one per worker
	atomic_int next;
	atomic_bool failed;
} dkLookupTask;

static void lookupTask(void* context, int32_t worker)
{
	dkLookupTask* t = context;
	dkPairArray* out = &t->found[worker];
	for (int32_t b, e; !atomic_load_explicit(&t->failed, memory_order_relaxed) && dkClaimChunk(&t->next, DK_LOOKUP_CHUNK, t->count, &b, &e);) {
		for (int32_t k = b; k < e; ++k) {
			int32_t a = t->slots[k];
			if (!t->filters[a].alive) continue; // freed since the build: its pairs go
			bool ok = looseInGrid(t->world, t->grids[0], a, t->isLoose, t->filters, out);
			if (ok && t->grids[1]) ok = looseInGrid(t->world, t->grids[1], a, t->isLoose, t->filters, out);
			if (!ok) {
				atomic_store(&t->failed, true);
				return;
			}
		}
	}
}

// Looks the partners of `count` shapes up in `first` and, unless NULL, `second`, and appends them to the
// world grid's `found` (unsorted). False when out of memory.
static bool lookUp(dkWorld* world, const dkPairGrid* first, const dkPairGrid* second, const int32_t* slots, int32_t count,
				   const uint8_t* isLoose, const dkFilter* filters)
{
	dkPairGrid* g = world->grid;
	int32_t workers = count >= 2 * DK_LOOKUP_CHUNK ? world->def.workerCount : 1;
	if (g->workerFoundCount < workers) {
		if (!dkGrid_Reserve(world, (void**)&g->workerFound, (size_t)g->workerFoundCount, (size_t)workers, sizeof(dkPairArray)))
			return false;
		memset(g->workerFound + g->workerFoundCount, 0, (size_t)(workers - g->workerFoundCount) * sizeof(dkPairArray));
		g->workerFoundCount = workers;
	}
	for (int32_t w = 0; w < workers; ++w) g->workerFound[w].count = 0;
	dkLookupTask task = {.world = world, .grids = {first, second}, .slots = slots, .count = count, .isLoose = isLoose,
						 .filters = filters, .found = g->workerFound};
	atomic_init(&task.next, 0);
	atomic_init(&task.failed, false);
	dkRunTasks(world, lookupTask, &task, workers);
	if (atomic_load(&task.failed)) return false;
	int64_t total = g->found.count;
	for (int32_t w = 0; w < workers; ++w) total += g->workerFound[w].count;
	if (total > INT32_MAX / 2 || !dkPairArray_Reserve(world, &g->found, (int32_t)total)) return false;
	for (int32_t w = 0; w < workers; ++w) {
		const dkPairArray* part = &g->workerFound[w];
		if (part->count > 0) memcpy(g->found.data + g->found.count, part->data, (size_t)part->count * sizeof(dkPair));
		g->found.count += part->count;
	}
	return true;
}

// The pairs among the loose shapes, into g->found: each against each while they are few; past that, a grid
// of their own (world->looseGrid) finds the same pairs, as a build finds what testing each pair would. False
// when out of memory.
static bool loosePairs(dkWorld* world, dkPairGrid* g, const int32_t* loose, int32_t looseCount, const dkFilter* filters)
{
	if (looseCount <= DK_GRID_LOOSE_EACH) {
		for (int32_t k = 0; k < looseCount; ++k) {
			int32_t a = loose[k];
			if (!filters[a].alive) continue;
			for (int32_t m = k + 1; m < looseCount; ++m)
				if (filters[loose[m]].alive && dkCandidate(world, a, loose[m], filters) && !pushFound(world, &g->found, a, loose[m]))
					return false;
		}
		return true;
	}
	if (!world->looseGrid) world->looseGrid = dkAllocZeroed(world, sizeof(dkPairGrid));
	if (!world->looseGrid) return false;
	int32_t* alive = dkAlloc(world, (size_t)looseCount * sizeof(int32_t));
	if (!alive) return false;
	int32_t n = 0;
	for (int32_t k = 0; k < looseCount; ++k)
		if (filters[loose[k]].alive) alive[n++] = loose[k];
	// A build writes the world's pair list: it lends its buffer and takes it back.
	dkPairArray list = world->pairs;
	world->pairs = world->looseGrid->found;
	bool ok = dkPairGrid_Build(world, world->looseGrid, alive, n, filters, true);
	world->looseGrid->found = world->pairs;
	world->pairs = list;
	dkFree(world, alive);
	const dkPairArray* among = &world->looseGrid->found;
	if (!ok || !dkPairArray_Reserve(world, &g->found, g->found.count + among->count)) return false;
	if (among->count > 0) memcpy(g->found.data + g->found.count, among->data, (size_t)among->count * sizeof(dkPair));
	g->found.count += among->count;
	return true;
}

int dkPairGrid_Update(dkWorld* world, const int32_t* loose, int32_t looseCount, const uint8_t* isLoose,
					  const dkFilter* filters, bool* unchanged)
{
	dkPairGrid* g = world->grid;
	if (!g || !g->built) return 1;
	// A loose shape that was large at the build, or is now, finds its partners in every cell it covers;
	// a new grid is cheaper than that. (Split, a shape that moves again was listed by the still grid.)
	for (int32_t k = 0; k < looseCount; ++k) {
		const dkPairGrid* at = dkPairGrid_Lists(g, loose[k]) ? g : g->split && dkPairGrid_Lists(world->stillGrid, loose[k]) ? world->stillGrid : NULL;
		const int32_t* built = at ? at->cellRange + 4 * loose[k] : NULL;
		if (built && spansLarge(built[0], built[1], built[2], built[3])) return 1;
	}
	for (int32_t k = 0; k < looseCount; ++k) {
		int32_t a = loose[k];
		if (!filters[a].alive) continue;
		if (tooLargeFor(world, g, a) || (g->split && tooLargeFor(world, world->stillGrid, a))) return 1;
	}
	g->found.count = 0;
	if (!lookUp(world, g, g->split ? world->stillGrid : NULL, loose, looseCount, isLoose, filters)) return -1;
	if (!loosePairs(world, g, loose, looseCount, filters)) return -1;
	// The pairs of two shapes that are not loose stay; merged with the loose shapes' pairs in order.
	return mergeFound(world, g, isLoose, unchanged) ? 0 : -1;
}

int dkPairGrid_FindSplit(dkWorld* world, const int32_t* movers, int32_t moverCount, const int32_t* still,
						 int32_t stillCount, const uint8_t* isLoose, const dkFilter* filters, bool* stillBuilt)
{
	if (!world->grid) world->grid = dkAllocZeroed(world, sizeof(dkPairGrid));
	if (!world->stillGrid) world->stillGrid = dkAllocZeroed(world, sizeof(dkPairGrid));
	dkPairGrid *g = world->grid, *sg = world->stillGrid;
	if (!g || !sg) return -1;
	if (!*stillBuilt) {
		if (!dkPairGrid_Build(world, sg, still, stillCount, filters, false)) return -1;
		*stillBuilt = true;
	}
	for (int32_t k = 0; k < moverCount; ++k)
		if (tooLargeFor(world, sg, movers[k])) return 1;
	g->split = false;
	if (!dkPairGrid_Build(world, g, movers, moverCount, filters, true)) return -1;
	g->found.count = 0;
	if (!lookUp(world, sg, NULL, movers, moverCount, isLoose, filters)) return -1;
	if (!mergeFound(world, g, NULL, NULL)) return -1;
	g->split = true;
	return 0;
}
