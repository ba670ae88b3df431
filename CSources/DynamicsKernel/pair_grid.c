// SPDX-License-Identifier: Apache-2.0
// Data structure: the uniform grid the broadphase finds pairs of fat boxes with (why a grid: see
// broadphase.c). The cell is twice the mean box extent. A box is listed in every cell it touches (1–4 as
// a rule); a pair is reported only by the cell holding the lower corner of the two boxes' overlap, so no
// pair comes twice.
//
// Shapes spanning 8 cells or more on an axis (long boundaries, giant items) are large and not listed. Up to
// 16 of them (a scene's walls), every box tests each one. More are listed in a coarse grid of their own,
// with cells twice their mean extent, where a box looks up the 1–4 coarse cells it covers; the few that
// span 8 coarse cells are still tested by every box. A large shape finds its own partners in the cells its
// box covers (binary search in the sorted cells), or one by one when that is cheaper. With 1 000 boxes of
// 3 000 pt among 99 000 of 20–100 pt (`scatter-giants`) the broadphase takes about a sixth of the time it
// took when every box tested every large one (Benchmarks/results).
//
// The pairs come out sorted by (smaller slot, larger slot) without a sort of the pairs: each shape
// reports its pairs with larger slots, shapes are taken in slot order, and each shape's few partners are
// sorted in place. Within a cell the listed shapes are in slot order (the listing is in slot order and
// the sort of the cells is stable), so a shape's partners in a cell are the ones listed after it. Taking
// shapes in slot order reads the cells in order when items were created near their slot neighbours (piles,
// pyramids), and scattered when they were created at random places: at 10⁶ such boxes, the loads of each
// cell's first key and of its members' boxes hold most of the pass's time. Copying the members' boxes in
// sorted order only moved those misses to the copy (Benchmarks/results, 2026-11-22).
//
// Every pass runs in blocks of a fixed size (DK_GRID_BLOCK shapes, DK_GRID_ENTRY_BLOCK listings) that
// workers claim; each block writes only its own part of the output, so the pairs and their order do not
// depend on the worker count. Only the sort of the cells and the sums over blocks are serial. The
// scratch arrays persist in the world and grow as needed.
#include "collision.h"
#include "team.h"
#include "radix_sort.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define DK_GRID_BLOCK 2048		  // live shapes per block of work
#define DK_GRID_ENTRY_BLOCK 8192  // cell listings per block of work
#define DK_GRID_LARGE_CELLS 8	  // a box spanning this many cells on an axis is large: not listed in the grid
#define DK_GRID_FEW_LARGE 16	  // up to this many large shapes, every box tests each of them (no coarse grid)
#define DK_GRID_CELL_LIMIT 536870912.0f // 2^29: the farthest cell from the origin on an axis

// One block's share of each pass: sums for the serial steps between passes, and its pairs.
typedef struct dkGridBlock {
	double extent;					// sum of the boxes' larger sides, pt
	int32_t minX, minY, maxX, maxY; // range of the listed boxes' cells
	int32_t entries, large;			// cell listings and large shapes of the block
	int32_t entryStart, largeStart; // where the block writes them
	int32_t pairStart;				// where its pairs go in the world's list
	int32_t* pairs;					// two slots per pair, sorted
	int32_t pairCount, pairCapacity;
	bool ok;
} dkGridBlock;

// A large shape's listing in the coarse grid.
typedef struct dkCoarseEntry {
	uint64_t key; // the coarse cell
	int32_t slot; // the shape
	int32_t pad;
} dkCoarseEntry;

struct dkPairGrid {
	int32_t* offset;   // live index → its first cell listing (live + 1 of them)
	int32_t* cellRange; // shape slot → columns and rows of its box's corners: x0, y0, x1, y1
	int32_t* large;	   // large shapes, in slot order
	int32_t* huge;	   // large shapes that span more than DK_GRID_LARGE_CELLS coarse cells, in slot order
	dkCoarseEntry* coarse; // the other large shapes' coarse cell listings, sorted by (cell, slot)
	size_t coarseCapacity;
	uint64_t* cells;   // listing → cell key; sorted
	int32_t* listing;  // the sort's payload: sorted position → listing
	int32_t* listSlot; // listing → shape slot
	int32_t* position; // listing → sorted position
	int32_t* members;  // sorted position → shape slot
	size_t entryCapacity;
	int32_t liveCapacity, slotCapacity;
	dkGridBlock* blocks;
	int32_t blockCapacity;
	// The last build, which dkPairGrid_Update looks shapes up in.
	bool built;
	bool split; // the world's grid only: it lists the shapes that can move, the still grid the others
	float inv;
	int32_t minX, minY, maxX, maxY, used, largeCount;
	uint64_t width;
	int32_t* found; // pairs of the loose shapes (dkPairGrid_Update)
	int32_t foundCount, foundCapacity;
	int32_t* spare; // the other buffer of the world's pair list
	int32_t spareCapacity;
};

// Grows an array from `old` to `need` elements of `elem` bytes, keeping the first `keep` (0 for arrays every
// build rewrites).
static bool reserve(const dkWorld* world, void** p, size_t keep, size_t need, size_t elem)
{
	return dkResizeArray(world, p, keep, need > 0 ? need : 1, elem);
}

// Grows the arrays sized by live shapes, shape slots and blocks (contents are rewritten every build).
static bool reserveShapes(const dkWorld* world, dkPairGrid* g, int32_t live, int32_t slots, int32_t blocks)
{
	if (g->liveCapacity < live + 1) {
		int32_t cap = live + 1 + live / 2;
		if (!reserve(world, (void**)&g->offset, 0, (size_t)cap, sizeof(int32_t)) ||
			!reserve(world, (void**)&g->large, 0, (size_t)cap, sizeof(int32_t)) || !reserve(world, (void**)&g->huge, 0, (size_t)cap, sizeof(int32_t)))
			return false;
		g->liveCapacity = cap;
	}
	if (g->slotCapacity < slots) {
		int32_t cap = slots + slots / 2;
		if (!reserve(world, (void**)&g->cellRange, 0, (size_t)cap * 4, sizeof(int32_t))) return false;
		g->slotCapacity = cap;
	}
	if (g->blockCapacity < blocks) {
		if (!reserve(world, (void**)&g->blocks, (size_t)g->blockCapacity, (size_t)blocks, sizeof(dkGridBlock))) return false;
		memset(g->blocks + g->blockCapacity, 0, (size_t)(blocks - g->blockCapacity) * sizeof(dkGridBlock));
		g->blockCapacity = blocks;
	}
	return true;
}

static bool reserveEntries(const dkWorld* world, dkPairGrid* g, size_t entries)
{
	if (g->entryCapacity >= entries) return true;
	size_t cap = entries + entries / 2;
	if (!reserve(world, (void**)&g->cells, 0, cap, sizeof(uint64_t)) || !reserve(world, (void**)&g->listing, 0, cap, sizeof(int32_t)) ||
		!reserve(world, (void**)&g->listSlot, 0, cap, sizeof(int32_t)) || !reserve(world, (void**)&g->position, 0, cap, sizeof(int32_t)) ||
		!reserve(world, (void**)&g->members, 0, cap, sizeof(int32_t)))
		return false;
	g->entryCapacity = cap;
	return true;
}

void dkPairGrid_Destroy(const dkWorld* world, dkPairGrid* g)
{
	if (!g) return;
	for (int32_t b = 0; b < g->blockCapacity; ++b) dkFree(world, g->blocks[b].pairs);
	dkFree(world, g->blocks);
	dkFree(world, g->offset);
	dkFree(world, g->cellRange);
	dkFree(world, g->large);
	dkFree(world, g->huge);
	dkFree(world, g->coarse);
	dkFree(world, g->cells);
	dkFree(world, g->listing);
	dkFree(world, g->listSlot);
	dkFree(world, g->position);
	dkFree(world, g->members);
	dkFree(world, g->found);
	dkFree(world, g->spare);
	dkFree(world, g);
}

// Whether a box's cell range is large (not listed in the grid, tested against every box instead), or
// inverted, as a box whose coordinates went non-finite gives: both are kept out of the grid, so that no
// cell count is ever formed from it.
static inline bool spansLarge(int32_t x0, int32_t y0, int32_t x1, int32_t y1)
{
	return x1 < x0 || y1 < y0 || x1 - x0 >= DK_GRID_LARGE_CELLS || y1 - y0 >= DK_GRID_LARGE_CELLS;
}

static inline int32_t cellOf(float v, float inv)
{
	// Boxes beyond ±2^29 cells (items some 10¹³ pt away, or a NaN) share the grid's edge cells: still correct,
	// since pairs are tested box against box, and every cell, cell difference and key stays within range.
	float f = v * inv;
	f = f > -DK_GRID_CELL_LIMIT ? f : -DK_GRID_CELL_LIMIT; // and a NaN
	f = f < DK_GRID_CELL_LIMIT ? f : DK_GRID_CELL_LIMIT;
	int32_t t = (int32_t)f;
	return t - (f < (float)t); // floor without a library call
}

// The passes, in order. Each is run by any number of workers claiming blocks.
enum { dkGridExtent, dkGridBounds, dkGridList, dkGridInvert, dkGridPairs, dkGridGather };

typedef struct dkGridTask {
	dkWorld* world;
	dkPairGrid* grid;
	const int32_t* slots; // live shape slots, ascending
	const dkFilter* filters;
	int32_t live, blocks, used, largeCount;
	float inv;			  // 1 / cell side
	int32_t minX, minY;	  // the lowest listed column and row
	int32_t maxX, maxY;	  // the highest
	uint64_t width;		  // columns spanned by the listed boxes
	float coarseInv;	  // 1 / coarse cell side
	int32_t coarseMinX, coarseMinY, coarseMaxX, coarseMaxY; // the coarse cells the large shapes span
	uint64_t coarseWidth;
	int32_t coarseCount, hugeCount;
	int pass;
	atomic_int next;
} dkGridTask;

// A cell's sort key: its index in the row-major grid spanned by the listed boxes, so the sort takes one
// pass while that grid has fewer than 65 536 cells. Rows first: scenes create items row by row, so shapes
// near in slot order are near in the sorted cells (column-major keys made the pair pass of the 100 000-box
// pile markedly slower).
static inline uint64_t cellKey(const dkGridTask* t, int32_t cx, int32_t cy)
{
	return (uint64_t)(uint32_t)(cy - t->minY) * t->width + (uint32_t)(cx - t->minX);
}

static bool pushPair(const dkWorld* world, dkGridBlock* out, int32_t a, int32_t b)
{
	if (out->pairCount == out->pairCapacity) {
		int32_t cap = out->pairCapacity > 0 ? out->pairCapacity * 2 : 1024;
		int32_t* grown = dkResize(world, out->pairs, (size_t)out->pairCapacity * 2 * sizeof(int32_t), (size_t)cap * 2 * sizeof(int32_t));
		if (!grown) return out->ok = false;
		out->pairs = grown;
		out->pairCapacity = cap;
	}
	out->pairs[2 * out->pairCount] = a;
	out->pairs[2 * out->pairCount + 1] = b;
	out->pairCount++;
	return true;
}

// Sorts pairs [from, pairCount) of one shape by partner (insertion sort: a shape has a few partners).
static void sortPartners(dkGridBlock* out, int32_t from)
{
	int32_t* p = out->pairs;
	for (int32_t i = from + 1; i < out->pairCount; ++i) {
		int32_t b = p[2 * i + 1], j = i;
		for (; j > from && p[2 * (j - 1) + 1] > b; --j) p[2 * j + 1] = p[2 * (j - 1) + 1];
		p[2 * j + 1] = b;
	}
}

// The first of the n sorted keys that is not below key.
static int32_t lowerBound64(const uint64_t* keys, int32_t n, uint64_t key)
{
	int32_t lo = 0, hi = n;
	while (lo < hi) {
		int32_t mid = lo + (hi - lo) / 2;
		if (keys[mid] < key) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

static int32_t lowerBoundCoarse(const dkCoarseEntry* e, int32_t n, uint64_t key)
{
	int32_t lo = 0, hi = n;
	while (lo < hi) {
		int32_t mid = lo + (hi - lo) / 2;
		if (e[mid].key < key) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

// The pairs of large shape a (live index p) with shapes of larger slots, sorted. The grid's boxes come from
// the cells its box covers, each pair reported in the cell of the overlap's lower corner; the other large
// shapes are tested one by one. When its box covers more cells than there are shapes after it, testing
// those shapes one by one is cheaper.
static void largePairs(const dkGridTask* t, int32_t p, dkGridBlock* out)
{
	const dkPairGrid* g = t->grid;
	const dkWorld* world = t->world;
	int32_t a = t->slots[p], from = out->pairCount;
	const int32_t* range = g->cellRange + 4 * a;
	int32_t x0 = range[0], y0 = range[1], x1 = range[2], y1 = range[3];
	int32_t lx0 = x0 > t->minX ? x0 : t->minX, ly0 = y0 > t->minY ? y0 : t->minY;
	int32_t lx1 = x1 < t->maxX ? x1 : t->maxX, ly1 = y1 < t->maxY ? y1 : t->maxY;
	int64_t cells = t->used > 0 && lx0 <= lx1 && ly0 <= ly1 ? ((int64_t)lx1 - lx0 + 1) * ((int64_t)ly1 - ly0 + 1) : 0;
	if (cells > (int64_t)(t->live - p) / 16) { // cells · 16 > shapes after it, without overflowing for huge boxes
		for (int32_t q = p + 1; q < t->live && out->ok; ++q)
			if (dkCandidate(world, a, t->slots[q], t->filters)) pushPair(t->world, out, a, t->slots[q]);
		return;
	}
	const float* box = world->fatAabb + 4 * a;
	for (int32_t cy = ly0; cy <= ly1 && out->ok; ++cy) {
		for (int32_t cx = lx0; cx <= lx1 && out->ok; ++cx) {
			uint64_t key = cellKey(t, cx, cy);
			for (int32_t j = lowerBound64(g->cells, t->used, key); j < t->used && g->cells[j] == key; ++j) {
				int32_t b = g->members[j];
				if (b <= a) continue;
				const float* bb = world->fatAabb + 4 * b;
				if (box[0] > bb[2] || bb[0] > box[2] || box[1] > bb[3] || bb[1] > box[3]) continue;
				int32_t bx = g->cellRange[4 * b], by = g->cellRange[4 * b + 1];
				if ((x0 > bx ? x0 : bx) != cx || (y0 > by ? y0 : by) != cy) continue;
				if (!t->filters[a].active && !t->filters[b].active) continue;
				if (dkAccepts(t->world, &t->filters[a], &t->filters[b]) && !pushPair(t->world, out, a, b)) return;
			}
		}
	}
	for (int32_t l = 0; l < t->largeCount && out->ok; ++l) {
		int32_t b = g->large[l];
		if (b > a && dkCandidate(world, a, b, t->filters)) pushPair(t->world, out, a, b);
	}
	sortPartners(out, from);
}

// The large shapes of larger slots than a whose boxes meet box, from the coarse cells box covers (1 to 4,
// as a listed box is smaller than a coarse cell), each pair reported in the cell of the overlap's lower
// corner; and every huge shape.
static void largePartners(const dkGridTask* t, int32_t a, const float* box, dkGridBlock* out)
{
	const dkPairGrid* g = t->grid;
	const dkWorld* world = t->world;
	for (int32_t h = 0; h < t->hugeCount && out->ok; ++h) {
		int32_t b = g->huge[h];
		if (b > a && dkCandidate(world, a, b, t->filters)) pushPair(t->world, out, a, b);
	}
	if (t->coarseCount == 0) return;
	int32_t x0 = cellOf(box[0], t->coarseInv), y0 = cellOf(box[1], t->coarseInv);
	int32_t x1 = cellOf(box[2], t->coarseInv), y1 = cellOf(box[3], t->coarseInv);
	int32_t lx0 = x0 > t->coarseMinX ? x0 : t->coarseMinX, ly0 = y0 > t->coarseMinY ? y0 : t->coarseMinY;
	int32_t lx1 = x1 < t->coarseMaxX ? x1 : t->coarseMaxX, ly1 = y1 < t->coarseMaxY ? y1 : t->coarseMaxY;
	for (int32_t cy = ly0; cy <= ly1; ++cy) {
		for (int32_t cx = lx0; cx <= lx1; ++cx) {
			uint64_t key = (uint64_t)(uint32_t)(cy - t->coarseMinY) * t->coarseWidth + (uint32_t)(cx - t->coarseMinX);
			for (int32_t j = lowerBoundCoarse(g->coarse, t->coarseCount, key);
				 j < t->coarseCount && g->coarse[j].key == key && out->ok; ++j) {
				int32_t b = g->coarse[j].slot;
				if (b <= a || !dkCandidate(world, a, b, t->filters)) continue;
				const float* bb = world->fatAabb + 4 * b;
				int32_t bx = cellOf(bb[0], t->coarseInv), by = cellOf(bb[1], t->coarseInv);
				if ((x0 > bx ? x0 : bx) == cx && (y0 > by ? y0 : by) == cy) pushPair(t->world, out, a, b);
			}
		}
	}
}

// The pairs of live shape p with shapes of larger slots, sorted, into its block's buffer.
static void shapePairs(const dkGridTask* t, int32_t p, dkGridBlock* out)
{
	const dkPairGrid* g = t->grid;
	const dkWorld* world = t->world;
	if (g->offset[p + 1] == g->offset[p]) {
		largePairs(t, p, out);
		return;
	}
	int32_t a = t->slots[p], from = out->pairCount;
	const float* box = world->fatAabb + 4 * a;
	float ax0 = box[0], ay0 = box[1], ax1 = box[2], ay1 = box[3];
	const int32_t* range = g->cellRange + 4 * a;
	int32_t x0 = range[0], y0 = range[1], x1 = range[2], y1 = range[3];
	int32_t e = g->offset[p];
	for (int32_t cy = y0; cy <= y1; ++cy) {
		for (int32_t cx = x0; cx <= x1; ++cx) {
			int32_t r = g->position[e++];
			uint64_t key = g->cells[r];
			for (int32_t j = r + 1; j < t->used && g->cells[j] == key && out->ok; ++j) {
				int32_t b = g->members[j];
				const float* bb = world->fatAabb + 4 * b; // the tests of dkCandidate, the cheapest first
				if (ax0 > bb[2] || bb[0] > ax1 || ay0 > bb[3] || bb[1] > ay1) continue;
				// Report the pair only in the cell of the overlap's lower corner; floor is monotone, so that
				// cell is the larger of the two boxes' lower cells on each axis.
				int32_t bx = g->cellRange[4 * b], by = g->cellRange[4 * b + 1];
				if ((x0 > bx ? x0 : bx) != cx || (y0 > by ? y0 : by) != cy) continue;
				if (!t->filters[a].active && !t->filters[b].active) continue;
				if (dkAccepts(t->world, &t->filters[a], &t->filters[b])) pushPair(t->world, out, a, b);
			}
		}
	}
	if (t->largeCount > 0) largePartners(t, a, box, out);
	sortPartners(out, from);
}

static int compareCoarse(const void* x, const void* y)
{
	const dkCoarseEntry *a = x, *b = y;
	if (a->key != b->key) return a->key < b->key ? -1 : 1;
	return (a->slot > b->slot) - (a->slot < b->slot);
}

// The coarse grid of the large shapes (serial: they are few). Its cell is twice their mean extent; a large
// shape spanning DK_GRID_LARGE_CELLS coarse cells on an axis is huge and tested against every box instead.
// With DK_GRID_FEW_LARGE large shapes or fewer (a scene's walls and floors), all of them are.
static bool buildCoarse(dkGridTask* t)
{
	dkPairGrid* g = t->grid;
	const dkWorld* world = t->world;
	const float* fat = world->fatAabb;
	t->coarseCount = t->hugeCount = 0;
	if (t->largeCount <= DK_GRID_FEW_LARGE) {
		memcpy(g->huge, g->large, (size_t)t->largeCount * sizeof(int32_t));
		t->hugeCount = t->largeCount;
		return true;
	}
	double extent = 0;
	for (int32_t l = 0; l < t->largeCount; ++l) {
		const float* box = fat + 4 * g->large[l];
		extent += fmaxf(box[2] - box[0], box[3] - box[1]);
	}
	float cell = (float)(2.0 * extent / t->largeCount);
	t->coarseInv = cell > 1e-3f ? 1.0f / cell : 1.0f;
	size_t n = 0;
	int32_t minX = INT32_MAX, minY = INT32_MAX, maxX = INT32_MIN, maxY = INT32_MIN;
	for (int32_t l = 0; l < t->largeCount; ++l) {
		const float* box = fat + 4 * g->large[l];
		int32_t x0 = cellOf(box[0], t->coarseInv), y0 = cellOf(box[1], t->coarseInv);
		int32_t x1 = cellOf(box[2], t->coarseInv), y1 = cellOf(box[3], t->coarseInv);
		if (spansLarge(x0, y0, x1, y1)) continue;
		n += (size_t)(x1 - x0 + 1) * (size_t)(y1 - y0 + 1);
		minX = x0 < minX ? x0 : minX, minY = y0 < minY ? y0 : minY;
		maxX = x1 > maxX ? x1 : maxX, maxY = y1 > maxY ? y1 : maxY;
	}
	if (n > INT32_MAX) return false;
	if (g->coarseCapacity < n) {
		if (!reserve(world, (void**)&g->coarse, 0, n + n / 2, sizeof(dkCoarseEntry))) return false;
		g->coarseCapacity = n + n / 2;
	}
	t->coarseMinX = minX, t->coarseMinY = minY, t->coarseMaxX = maxX, t->coarseMaxY = maxY;
	t->coarseWidth = n > 0 ? (uint64_t)((int64_t)maxX - minX + 1) : 1;
	int32_t k = 0;
	for (int32_t l = 0; l < t->largeCount; ++l) {
		int32_t slot = g->large[l];
		const float* box = fat + 4 * slot;
		int32_t x0 = cellOf(box[0], t->coarseInv), y0 = cellOf(box[1], t->coarseInv);
		int32_t x1 = cellOf(box[2], t->coarseInv), y1 = cellOf(box[3], t->coarseInv);
		if (spansLarge(x0, y0, x1, y1)) {
			g->huge[t->hugeCount++] = slot;
			continue;
		}
		for (int32_t cy = y0; cy <= y1; ++cy)
			for (int32_t cx = x0; cx <= x1; ++cx)
				g->coarse[k++] = (dkCoarseEntry){
					(uint64_t)(uint32_t)(cy - minY) * t->coarseWidth + (uint32_t)(cx - minX), slot, 0};
	}
	t->coarseCount = k;
	if (k > 1) qsort(g->coarse, (size_t)k, sizeof(dkCoarseEntry), compareCoarse);
	return true;
}

static void gridTask(void* context, int32_t worker)
{
	(void)worker;
	dkGridTask* t = context;
	dkPairGrid* g = t->grid;
	const float* fat = t->world->fatAabb;
	int32_t count = t->pass == dkGridInvert ? (t->used + DK_GRID_ENTRY_BLOCK - 1) / DK_GRID_ENTRY_BLOCK : t->blocks;
	for (;;) {
		int32_t k = atomic_fetch_add(&t->next, 1);
		if (k >= count) return;
		dkGridBlock* block = t->pass == dkGridInvert ? NULL : &g->blocks[k];
		int32_t b = k * DK_GRID_BLOCK, e = b + DK_GRID_BLOCK < t->live ? b + DK_GRID_BLOCK : t->live;
		switch (t->pass) {
		case dkGridExtent: {
			double extent = 0;
			for (int32_t p = b; p < e; ++p) {
				const float* box = fat + 4 * t->slots[p];
				extent += fmaxf(box[2] - box[0], box[3] - box[1]);
			}
			block->extent = extent;
			break;
		}
		case dkGridBounds: {
			dkGridBlock s = {.minX = INT32_MAX, .minY = INT32_MAX, .maxX = INT32_MIN, .maxY = INT32_MIN};
			for (int32_t p = b; p < e; ++p) {
				int32_t slot = t->slots[p];
				const float* box = fat + 4 * slot;
				int32_t x0 = cellOf(box[0], t->inv), y0 = cellOf(box[1], t->inv);
				int32_t x1 = cellOf(box[2], t->inv), y1 = cellOf(box[3], t->inv);
				int32_t* range = g->cellRange + 4 * slot;
				range[0] = x0, range[1] = y0, range[2] = x1, range[3] = y1;
				if (spansLarge(x0, y0, x1, y1)) {
					s.large++;
					continue;
				}
				s.entries += (x1 - x0 + 1) * (y1 - y0 + 1);
				s.minX = x0 < s.minX ? x0 : s.minX;
				s.minY = y0 < s.minY ? y0 : s.minY;
				s.maxX = x1 > s.maxX ? x1 : s.maxX;
				s.maxY = y1 > s.maxY ? y1 : s.maxY;
			}
			block->minX = s.minX, block->minY = s.minY, block->maxX = s.maxX, block->maxY = s.maxY;
			block->entries = s.entries;
			block->large = s.large;
			break;
		}
		case dkGridList: {
			int32_t at = block->entryStart, large = block->largeStart;
			for (int32_t p = b; p < e; ++p) {
				int32_t slot = t->slots[p];
				const int32_t* range = g->cellRange + 4 * slot;
				int32_t x0 = range[0], y0 = range[1], x1 = range[2], y1 = range[3];
				g->offset[p] = at;
				if (spansLarge(x0, y0, x1, y1)) {
					g->large[large++] = slot;
					continue;
				}
				for (int32_t cy = y0; cy <= y1; ++cy) {
					for (int32_t cx = x0; cx <= x1; ++cx) {
						g->cells[at] = cellKey(t, cx, cy);
						g->listing[at] = at;
						g->listSlot[at++] = slot;
					}
				}
			}
			break;
		}
		case dkGridInvert: { // block k of sorted listings
			int32_t rb = k * DK_GRID_ENTRY_BLOCK, re = rb + DK_GRID_ENTRY_BLOCK < t->used ? rb + DK_GRID_ENTRY_BLOCK : t->used;
			for (int32_t r = rb; r < re; ++r) {
				int32_t listing = g->listing[r];
				g->position[listing] = r;
				g->members[r] = g->listSlot[listing];
			}
			break;
		}
		case dkGridPairs: { // into a copy of the block: a worker writing its neighbour's cache line would slow both
			dkGridBlock out = *block;
			out.pairCount = 0;
			out.ok = true;
			for (int32_t p = b; p < e && out.ok; ++p) shapePairs(t, p, &out);
			*block = out;
			break;
		}
		default: // dkGridGather: block k's pairs into the world's list, after the blocks before it
			if (block->pairCount > 0)
				memcpy(t->world->pairs + 2 * (size_t)block->pairStart, block->pairs,
					   (size_t)block->pairCount * 2 * sizeof(int32_t));
			break;
		}
	}
}

static void runPass(dkGridTask* t, int pass, int32_t work)
{
	t->pass = pass;
	atomic_store(&t->next, 0);
	dkRunTasks(t->world, gridTask, t, work >= 2 * DK_GRID_BLOCK ? t->world->def.workerCount : 1);
}

// Keeps what dkPairGrid_Update and the still grid's lookups read of a build.
static bool keepBuild(dkPairGrid* g, const dkGridTask* t)
{
	g->built = true;
	g->inv = t->inv;
	g->minX = t->minX, g->minY = t->minY, g->maxX = t->maxX, g->maxY = t->maxY;
	g->used = t->used;
	g->largeCount = t->largeCount;
	g->width = t->width;
	return true;
}

// Builds grid g over the live shapes `slots` (ascending); with `pairs`, finds their pairs into the world's
// list, else only lists them, for dkPairGrid_FindSplit's lookups. False when out of memory.
static bool build(dkWorld* world, dkPairGrid* g, const int32_t* slots, int32_t live, const dkFilter* filters, bool pairs)
{
	if (pairs) world->pairCount = 0;
	int32_t blocks = (live + DK_GRID_BLOCK - 1) / DK_GRID_BLOCK;
	if (!g || !reserveShapes(world, g, live, world->shapeIds.next, blocks > 0 ? blocks : 1)) return false;
	dkGridTask t = {.world = world, .grid = g, .slots = slots, .filters = filters, .live = live, .blocks = blocks};
	atomic_init(&t.next, 0);
	g->built = false;

	runPass(&t, dkGridExtent, live);
	double extent = 0; // summed block by block in order: the same for any worker count
	for (int32_t k = 0; k < blocks; ++k) extent += g->blocks[k].extent;
	float cell = live > 0 ? (float)(2.0 * extent / live) : 1.0f;
	if (!(cell > 1e-3f)) cell = 1.0f;
	t.inv = 1.0f / cell;

	runPass(&t, dkGridBounds, live);
	int32_t maxX = INT32_MIN, maxY = INT32_MIN;
	t.minX = INT32_MAX;
	t.minY = INT32_MAX;
	size_t used = 0;
	for (int32_t k = 0; k < blocks; ++k) {
		dkGridBlock* block = &g->blocks[k];
		block->entryStart = (int32_t)used;
		block->largeStart = t.largeCount;
		used += (size_t)block->entries;
		t.largeCount += block->large;
		t.minX = block->minX < t.minX ? block->minX : t.minX;
		t.minY = block->minY < t.minY ? block->minY : t.minY;
		maxX = block->maxX > maxX ? block->maxX : maxX;
		maxY = block->maxY > maxY ? block->maxY : maxY;
	}
	if (used > INT32_MAX || !reserveEntries(world, g, used)) return false;
	t.used = (int32_t)used;
	t.width = used > 0 ? (uint64_t)((int64_t)maxX - t.minX + 1) : 1;
	t.maxX = maxX;
	t.maxY = maxY;
	g->offset[live] = t.used;

	runPass(&t, dkGridList, live);
	if (!buildCoarse(&t)) return false;
	if (!dkRadixSort64(world, g->cells, g->listing, t.used)) return false; // stable: slots stay in order within a cell
	runPass(&t, dkGridInvert, t.used);
	if (!pairs) return keepBuild(g, &t);
	runPass(&t, dkGridPairs, live);

	// Each block's pairs follow the pairs of the blocks before it.
	int64_t total = 0;
	bool ok = true;
	for (int32_t k = 0; k < blocks; ++k) {
		g->blocks[k].pairStart = (int32_t)total;
		total += g->blocks[k].pairCount;
		ok = ok && g->blocks[k].ok;
	}
	if (!ok || total > INT32_MAX / 2) return false;
	if (world->pairCapacity < total) {
		int32_t cap = (int32_t)(total + total / 2 < INT32_MAX / 2 ? total + total / 2 : total);
		int32_t* grown = dkResize(world, world->pairs, (size_t)world->pairCapacity * 2 * sizeof(int32_t), (size_t)cap * 2 * sizeof(int32_t));
		if (!grown) return false;
		world->pairs = grown;
		world->pairCapacity = cap;
	}
	runPass(&t, dkGridGather, (int32_t)total);
	world->pairCount = (int32_t)total;
	return keepBuild(g, &t);
}

bool dkPairGrid_Find(dkWorld* world, const int32_t* slots, int32_t live, const dkFilter* filters)
{
	if (!world->grid) world->grid = dkAllocZeroed(world, sizeof(dkPairGrid));
	if (!world->grid) return false;
	world->grid->split = false;
	return build(world, world->grid, slots, live, filters, true);
}

static bool pushFound(const dkWorld* world, dkPairGrid* g, int32_t a, int32_t b)
{
	if (g->foundCount == g->foundCapacity) {
		int32_t cap = g->foundCapacity > 0 ? g->foundCapacity * 2 : 256;
		if (!reserve(world, (void**)&g->found, (size_t)g->foundCapacity * 2, (size_t)cap * 2, sizeof(int32_t))) return false;
		g->foundCapacity = cap;
	}
	g->found[2 * g->foundCount] = a < b ? a : b;
	g->found[2 * g->foundCount + 1] = a < b ? b : a;
	g->foundCount++;
	return true;
}

static int comparePairs(const void* x, const void* y)
{
	const int32_t *a = x, *b = y;
	if (a[0] != b[0]) return (a[0] > b[0]) - (a[0] < b[0]);
	return (a[1] > b[1]) - (a[1] < b[1]);
}

// The partners of loose shape a among the shapes the last build listed in its cells (not loose ones: they
// are listed where they were), each pair reported in the cell of the overlap's lower corner as a build
// does; and among the build's large shapes. False when out of memory.
static bool looseInGrid(const dkWorld* world, const dkPairGrid* g, int32_t a, const int32_t range[4],
						const uint8_t* isLoose, const dkFilter* filters)
{
	dkPairGrid* out = world->grid;
	const float* box = world->fatAabb + 4 * a;
	int32_t x0 = range[0], y0 = range[1];
	int32_t lx0 = x0 > g->minX ? x0 : g->minX, ly0 = y0 > g->minY ? y0 : g->minY;
	int32_t lx1 = range[2] < g->maxX ? range[2] : g->maxX, ly1 = range[3] < g->maxY ? range[3] : g->maxY;
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

// Merges the found pairs, sorted here, with the world's list, less the pairs of loose shapes (none left
// out without `isLoose`), into the grid's spare buffer, which becomes the list. False when out of memory
// (the list is then unchanged).
static bool mergeFound(dkWorld* world, dkPairGrid* g, const uint8_t* isLoose)
{
	if (g->foundCount > 1) qsort(g->found, (size_t)g->foundCount, 2 * sizeof(int32_t), comparePairs);
	int64_t most = (int64_t)world->pairCount + g->foundCount;
	if (most > INT32_MAX / 2) return false;
	if (g->spareCapacity < most) {
		int32_t cap = (int32_t)(most + most / 2 < INT32_MAX / 2 ? most + most / 2 : most);
		if (!reserve(world, (void**)&g->spare, 0, (size_t)cap * 2, sizeof(int32_t))) return false;
		g->spareCapacity = cap;
	}
	const int32_t *old = world->pairs, *found = g->found;
	int32_t n = 0, i = 0, j = 0;
	for (;;) {
		while (isLoose && i < world->pairCount && (isLoose[old[2 * i]] || isLoose[old[2 * i + 1]])) ++i;
		bool takeOld = i < world->pairCount, takeFound = j < g->foundCount;
		if (!takeOld && !takeFound) break;
		if (takeOld && takeFound) takeOld = comparePairs(old + 2 * i, found + 2 * j) < 0;
		const int32_t* p = takeOld ? old + 2 * i++ : found + 2 * j++;
		g->spare[2 * n] = p[0];
		g->spare[2 * n + 1] = p[1];
		++n;
	}
	int32_t* list = world->pairs;
	int32_t capacity = world->pairCapacity;
	world->pairs = g->spare;
	world->pairCapacity = g->spareCapacity;
	world->pairCount = n;
	g->spare = list;
	g->spareCapacity = capacity;
	return true;
}

// The partners of shape a (which can move) among the still grid's shapes: 1 when found, 0 when a spans so
// many of its cells that a grid of every shape is cheaper, -1 when out of memory.
static int stillPartners(dkWorld* world, int32_t a, const uint8_t* isLoose, const dkFilter* filters)
{
	const dkPairGrid* sg = world->stillGrid;
	const float* box = world->fatAabb + 4 * a;
	int32_t range[4] = {cellOf(box[0], sg->inv), cellOf(box[1], sg->inv), cellOf(box[2], sg->inv), cellOf(box[3], sg->inv)};
	if (spansLarge(range[0], range[1], range[2], range[3])) return 0;
	return looseInGrid(world, sg, a, range, isLoose, filters) ? 1 : -1;
}

int dkPairGrid_Update(dkWorld* world, const int32_t* loose, int32_t looseCount, const uint8_t* isLoose,
					  const dkFilter* filters)
{
	dkPairGrid* g = world->grid;
	if (!g || !g->built) return 1;
	// A loose shape that was large at the build, or is now, finds its partners in every cell it covers;
	// a new grid is cheaper than that.
	for (int32_t k = 0; k < looseCount; ++k) {
		const int32_t* built = g->cellRange + 4 * loose[k];
		if (spansLarge(built[0], built[1], built[2], built[3])) return 1;
	}
	g->foundCount = 0;
	for (int32_t k = 0; k < looseCount; ++k) {
		int32_t a = loose[k];
		const float* box = world->fatAabb + 4 * a;
		int32_t range[4] = {cellOf(box[0], g->inv), cellOf(box[1], g->inv), cellOf(box[2], g->inv), cellOf(box[3], g->inv)};
		if (spansLarge(range[0], range[1], range[2], range[3])) return 1;
		if (!looseInGrid(world, g, a, range, isLoose, filters)) return -1;
		if (g->split) {
			int found = stillPartners(world, a, isLoose, filters);
			if (found != 1) return found == 0 ? 1 : -1; // 0: a shape too large for the still grid's cells
		}
		for (int32_t m = k + 1; m < looseCount; ++m)
			if (dkCandidate(world, a, loose[m], filters) && !pushFound(world, g, a, loose[m])) return -1;
	}
	// The pairs of two shapes that are not loose stay; merged with the loose shapes' pairs in order.
	return mergeFound(world, g, isLoose) ? 0 : -1;
}

int dkPairGrid_FindSplit(dkWorld* world, const int32_t* movers, int32_t moverCount, const int32_t* still,
						 int32_t stillCount, const uint8_t* isLoose, const dkFilter* filters, bool* stillBuilt)
{
	if (!world->grid) world->grid = dkAllocZeroed(world, sizeof(dkPairGrid));
	if (!world->stillGrid) world->stillGrid = dkAllocZeroed(world, sizeof(dkPairGrid));
	dkPairGrid *g = world->grid, *sg = world->stillGrid;
	if (!g || !sg) return -1;
	if (!*stillBuilt) {
		if (!build(world, sg, still, stillCount, filters, false)) return -1;
		*stillBuilt = true;
	}
	for (int32_t k = 0; k < moverCount; ++k) {
		const float* box = world->fatAabb + 4 * movers[k];
		if (spansLarge(cellOf(box[0], sg->inv), cellOf(box[1], sg->inv), cellOf(box[2], sg->inv), cellOf(box[3], sg->inv)))
			return 1;
	}
	g->split = false;
	if (!build(world, g, movers, moverCount, filters, true)) return -1;
	g->foundCount = 0;
	for (int32_t k = 0; k < moverCount; ++k)
		if (stillPartners(world, movers[k], isLoose, filters) < 0) return -1;
	if (!mergeFound(world, g, NULL)) return -1;
	g->split = true;
	return 0;
}
