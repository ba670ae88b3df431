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
#include "pair_grid.h"
#include "radix_sort.h"
#include "team.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

// Grows the arrays sized by live shapes, shape slots and blocks (contents are rewritten every build).
static bool reserveShapes(const dkWorld* world, dkPairGrid* g, int32_t live, int32_t slots, int32_t blocks)
{
	if (g->liveCapacity < live + 1) {
		int32_t cap = live + 1 + live / 2;
		if (!dkGrid_Reserve(world, (void**)&g->offset, 0, (size_t)cap, sizeof(int32_t)) ||
			!dkGrid_Reserve(world, (void**)&g->large, 0, (size_t)cap, sizeof(int32_t)) || !dkGrid_Reserve(world, (void**)&g->huge, 0, (size_t)cap, sizeof(int32_t)))
			return false;
		g->liveCapacity = cap;
	}
	if (g->slotCapacity < slots) {
		int32_t cap = slots + slots / 2;
		if (!dkGrid_Reserve(world, (void**)&g->cellRange, 0, (size_t)cap * 4, sizeof(int32_t)) ||
			!dkGrid_Reserve(world, (void**)&g->stamp, (size_t)g->slotCapacity, (size_t)cap, sizeof(uint32_t)))
			return false;
		memset(g->stamp + g->slotCapacity, 0, (size_t)(cap - g->slotCapacity) * sizeof(uint32_t));
		g->slotCapacity = cap;
	}
	if (g->blockCapacity < blocks) {
		if (!dkGrid_Reserve(world, (void**)&g->blocks, (size_t)g->blockCapacity, (size_t)blocks, sizeof(dkGridBlock))) return false;
		memset(g->blocks + g->blockCapacity, 0, (size_t)(blocks - g->blockCapacity) * sizeof(dkGridBlock));
		g->blockCapacity = blocks;
	}
	return true;
}

static bool reserveEntries(const dkWorld* world, dkPairGrid* g, size_t entries)
{
	if (g->entryCapacity >= entries) return true;
	size_t cap = entries + entries / 2;
	if (!dkGrid_Reserve(world, (void**)&g->cells, 0, cap, sizeof(uint64_t)) || !dkGrid_Reserve(world, (void**)&g->listing, 0, cap, sizeof(int32_t)) ||
		!dkGrid_Reserve(world, (void**)&g->listSlot, 0, cap, sizeof(int32_t)) || !dkGrid_Reserve(world, (void**)&g->position, 0, cap, sizeof(int32_t)) ||
		!dkGrid_Reserve(world, (void**)&g->members, 0, cap, sizeof(int32_t)))
		return false;
	g->entryCapacity = cap;
	return true;
}

void dkPairGrid_Destroy(const dkWorld* world, dkPairGrid* g)
{
	if (!g) return;
	for (int32_t b = 0; b < g->blockCapacity; ++b) dkPairArray_Destroy(world, &g->blocks[b].pairs);
	dkFree(world, g->blocks);
	dkFree(world, g->offset);
	dkFree(world, g->cellRange);
	dkFree(world, g->stamp);
	dkFree(world, g->large);
	dkFree(world, g->huge);
	dkFree(world, g->coarse);
	dkFree(world, g->cells);
	dkFree(world, g->listing);
	dkFree(world, g->listSlot);
	dkFree(world, g->position);
	dkFree(world, g->members);
	dkFree(world, g->memberBox);
	dkFree(world, g->memberLow);
	dkPairArray_Destroy(world, &g->found);
	dkPairArray_Destroy(world, &g->spare);
	for (int32_t w = 0; w < g->workerFoundCount; ++w) dkPairArray_Destroy(world, &g->workerFound[w]);
	dkFree(world, g->workerFound);
	dkFree(world, g);
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
	bool copied;		  // the members' boxes are copied in sorted order (DK_GRID_COPY_LIMIT)
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

#define DK_GRID_HITS 64 // boxes of a cell found to meet one box, noted before they are filtered
// Up to this many cell listings, the pair pass reads the members' boxes from a copy in sorted order and tests
// them without a branch: in piles and drums of small items about a third of a cell's boxes meet, which no
// branch predicts (the pass took 0.2–0.5 ms less a step in tumbler, junkyard and washer on an AMD EPYC).
// Beyond it, as in `scatter` (10⁵ boxes strewn at random), the copy's reads miss the cache and most tests
// fail, which a branch predicts well: there the copy made the broadphase 39 % slower.
#define DK_GRID_COPY_LIMIT 65536

static bool pushPair(const dkWorld* world, dkGridBlock* out, int32_t a, int32_t b)
{
	dkPair pair = {a, b};
	if (dkPairArray_Push(world, &out->pairs, &pair)) return true;
	return out->ok = false;
}

static int comparePartners(const void* x, const void* y)
{
	int32_t a = ((const dkPair*)x)->b, b = ((const dkPair*)y)->b;
	return (a > b) - (a < b);
}

// Sorts pairs [from, count) of one shape by partner (no two alike). The grid lists a shape's partners cell by
// cell, each cell's in slot order, so the list comes nearly sorted and insertion sort orders it in few moves:
// with qsort above 32 partners, sorting was 9 % of spinner's step, whose ring segments and the items pressed
// against them have about 60 partners each. Insertion sort moves each partner past every smaller one listed
// after it, though, and a drum's wall meeting a thousand boxes in cells far apart took a sixth of the step:
// past DK_SORT_MOVES moves a partner on average, qsort orders the list.
#define DK_SORT_MOVES 32

static void sortPartners(dkGridBlock* out, int32_t from)
{
	dkPair* p = out->pairs.data;
	int64_t budget = (int64_t)DK_SORT_MOVES * (out->pairs.count - from);
	for (int32_t i = from + 1; i < out->pairs.count; ++i) {
		int32_t b = p[i].b, j = i;
		for (; j > from && p[j - 1].b > b; --j) p[j].b = p[j - 1].b;
		p[j].b = b;
		budget -= i - j;
		if (budget < 0) {
			qsort(p + from, (size_t)(out->pairs.count - from), sizeof(dkPair), comparePartners);
			return;
		}
	}
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
	int32_t a = t->slots[p], from = out->pairs.count;
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
	int32_t a = t->slots[p], from = out->pairs.count;
	const float* box = world->fatAabb + 4 * a;
	float ax0 = box[0], ay0 = box[1], ax1 = box[2], ay1 = box[3];
	const int32_t* range = g->cellRange + 4 * a;
	int32_t x0 = range[0], y0 = range[1], x1 = range[2], y1 = range[3];
	int32_t e = g->offset[p], used = t->used;
	// Read through locals: the compiler cannot tell that pushing a pair leaves the grid alone.
	const uint64_t* restrict cells = g->cells;
	const int32_t* restrict members = g->members;
	const dkFilter* restrict filters = t->filters;
	if (!t->copied) { // the boxes where they are, most tests failing (DK_GRID_COPY_LIMIT)
		const int32_t* restrict cellRange = g->cellRange;
		const float* restrict fat = world->fatAabb;
		for (int32_t cy = y0; cy <= y1; ++cy) {
			for (int32_t cx = x0; cx <= x1; ++cx) {
				int32_t r = g->position[e++];
				uint64_t key = cells[r];
				for (int32_t j = r + 1; j < used && cells[j] == key; ++j) {
					int32_t b = members[j];
					const float* bb = fat + 4 * b; // the tests of dkCandidate, the cheapest first
					if (ax0 > bb[2] || bb[0] > ax1 || ay0 > bb[3] || bb[1] > ay1) continue;
					// Report the pair only in the cell of the overlap's lower corner; floor is monotone, so
					// that cell is the larger of the two boxes' lower cells on each axis.
					int32_t bx = cellRange[4 * b], by = cellRange[4 * b + 1];
					if ((x0 > bx ? x0 : bx) != cx || (y0 > by ? y0 : by) != cy) continue;
					if (!filters[a].active && !filters[b].active) continue;
					if (dkAccepts(world, &filters[a], &filters[b]) && !pushPair(world, out, a, b)) return;
				}
			}
		}
	} else { // the boxes copied in sorted order: tested without a branch, noting those that meet (hits)
		const float* restrict memberBox = g->memberBox;
		const int32_t* restrict memberLow = g->memberLow;
		int32_t hits[DK_GRID_HITS];
		for (int32_t cy = y0; cy <= y1; ++cy) {
			for (int32_t cx = x0; cx <= x1; ++cx) {
				int32_t r = g->position[e++];
				uint64_t key = cells[r];
				for (int32_t j = r + 1; j < used && cells[j] == key;) {
					int32_t n = 0;
					for (; j < used && cells[j] == key && n < DK_GRID_HITS; ++j) {
						const float* bb = memberBox + 4 * (size_t)j;
						int32_t bx = memberLow[2 * (size_t)j], by = memberLow[2 * (size_t)j + 1];
						int miss = (ax0 > bb[2]) | (bb[0] > ax1) | (ay0 > bb[3]) | (bb[1] > ay1);
						miss |= ((x0 > bx ? x0 : bx) != cx) | ((y0 > by ? y0 : by) != cy);
						hits[n] = j;
						n += !miss;
					}
					for (int32_t h = 0; h < n; ++h) {
						int32_t b = members[hits[h]];
						if (!filters[a].active && !filters[b].active) continue;
						if (dkAccepts(world, &filters[a], &filters[b]) && !pushPair(world, out, a, b)) return;
					}
				}
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
		if (!dkGrid_Reserve(world, (void**)&g->coarse, 0, n + n / 2, sizeof(dkCoarseEntry))) return false;
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
				g->stamp[slot] = g->builds;
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
				int32_t listing = g->listing[r], slot = g->listSlot[listing];
				g->position[listing] = r;
				g->members[r] = slot;
				if (!t->copied) continue;
				memcpy(g->memberBox + 4 * (size_t)r, t->world->fatAabb + 4 * (size_t)slot, 4 * sizeof(float));
				g->memberLow[2 * (size_t)r] = g->cellRange[4 * (size_t)slot];
				g->memberLow[2 * (size_t)r + 1] = g->cellRange[4 * (size_t)slot + 1];
			}
			break;
		}
		case dkGridPairs: { // into a copy of the block: a worker writing its neighbour's cache line would slow both
			dkGridBlock out = *block;
			out.pairs.count = 0;
			out.ok = true;
			for (int32_t p = b; p < e && out.ok; ++p) shapePairs(t, p, &out);
			*block = out;
			break;
		}
		default: // dkGridGather: block k's pairs into the world's list, after the blocks before it
			if (block->pairs.count > 0)
				memcpy(t->world->pairs.data + block->pairStart, block->pairs.data, (size_t)block->pairs.count * sizeof(dkPair));
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
bool dkPairGrid_Build(dkWorld* world, dkPairGrid* g, const int32_t* slots, int32_t live, const dkFilter* filters, bool pairs)
{
	if (pairs) world->pairs.count = 0;
	int32_t blocks = (live + DK_GRID_BLOCK - 1) / DK_GRID_BLOCK;
	if (!g || !reserveShapes(world, g, live, world->shapeIds.next, blocks > 0 ? blocks : 1)) return false;
	dkGridTask t = {.world = world, .grid = g, .slots = slots, .filters = filters, .live = live, .blocks = blocks};
	atomic_init(&t.next, 0);
	g->built = false;
	if (++g->builds == 0) { // (after 2^32 builds) no slot may keep a stamp of an earlier build with this number
		memset(g->stamp, 0, (size_t)g->slotCapacity * sizeof(uint32_t));
		g->builds = 1;
	}

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
	t.copied = pairs && used <= DK_GRID_COPY_LIMIT;
	if (t.copied && g->memberCapacity < used) {
		size_t cap = used + used / 2 < DK_GRID_COPY_LIMIT ? used + used / 2 : DK_GRID_COPY_LIMIT;
		if (!dkGrid_Reserve(world, (void**)&g->memberBox, 0, cap, 4 * sizeof(float)) ||
			!dkGrid_Reserve(world, (void**)&g->memberLow, 0, cap, 2 * sizeof(int32_t)))
			return false;
		g->memberCapacity = cap;
	}
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
		total += g->blocks[k].pairs.count;
		ok = ok && g->blocks[k].ok;
	}
	if (!ok || total > INT32_MAX / 2) return false;
	if (!dkPairArray_Reserve(world, &world->pairs, (int32_t)total)) return false;
	runPass(&t, dkGridGather, (int32_t)total);
	world->pairs.count = (int32_t)total;
	return keepBuild(g, &t);
}

bool dkPairGrid_Find(dkWorld* world, const int32_t* slots, int32_t live, const dkFilter* filters)
{
	if (!world->grid) world->grid = dkAllocZeroed(world, sizeof(dkPairGrid));
	if (!world->grid) return false;
	world->grid->split = false;
	return dkPairGrid_Build(world, world->grid, slots, live, filters, true);
}
