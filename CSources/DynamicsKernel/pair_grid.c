// Data structure: the uniform grid the broadphase finds pairs of fat boxes with (why a grid: see
// broadphase.c). The cell is twice the mean box extent. A box is listed in every cell it touches (1–4 as
// a rule); a pair is reported only by the cell holding the lower corner of the two boxes' overlap, so no
// pair comes twice. Shapes wider than 8 cells (long boundaries, giant items) are not listed: they are
// tested against every box directly.
//
// The pairs come out sorted by (smaller slot, larger slot) without a sort of the pairs: each shape
// reports its pairs with larger slots, shapes are taken in slot order, and each shape's few partners are
// sorted in place. Within a cell the listed shapes are in slot order (the listing is in slot order and
// the sort of the cells is stable), so a shape's partners in a cell are the ones listed after it.
//
// Every pass runs in blocks of a fixed size (DK_GRID_BLOCK shapes, DK_GRID_ENTRY_BLOCK listings) that
// workers claim; each block writes only its own part of the output, so the pairs and their order do not
// depend on the worker count. Only the sort of the cells and the sums over blocks are serial. The
// scratch arrays persist in the world and grow as needed.
#include "collision.h"
#include "radix_sort.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define DK_GRID_BLOCK 2048		  // live shapes per block of work
#define DK_GRID_ENTRY_BLOCK 8192  // cell listings per block of work
#define DK_GRID_LARGE_CELLS 8	  // a box spanning this many cells on an axis is tested against every box
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

struct dkPairGrid {
	int32_t* offset;   // live index → its first cell listing (live + 1 of them)
	int32_t* cellRange; // shape slot → columns and rows of its box's corners: x0, y0, x1, y1
	int32_t* large;	   // large shapes, in slot order
	uint64_t* cells;   // listing → cell key; sorted
	int32_t* listing;  // the sort's payload: sorted position → listing
	int32_t* listSlot; // listing → shape slot
	int32_t* position; // listing → sorted position
	int32_t* members;  // sorted position → shape slot
	size_t entryCapacity;
	int32_t liveCapacity, slotCapacity;
	dkGridBlock* blocks;
	int32_t blockCapacity;
};

static bool reserve(void** p, size_t need, size_t elem)
{
	void* grown = realloc(*p, (need > 0 ? need : 1) * elem);
	if (!grown) return false;
	*p = grown;
	return true;
}

// Grows the arrays sized by live shapes, shape slots and blocks (contents are rewritten every build).
static bool reserveShapes(dkPairGrid* g, int32_t live, int32_t slots, int32_t blocks)
{
	if (g->liveCapacity < live + 1) {
		int32_t cap = live + 1 + live / 2;
		if (!reserve((void**)&g->offset, (size_t)cap, sizeof(int32_t)) ||
			!reserve((void**)&g->large, (size_t)cap, sizeof(int32_t)))
			return false;
		g->liveCapacity = cap;
	}
	if (g->slotCapacity < slots) {
		int32_t cap = slots + slots / 2;
		if (!reserve((void**)&g->cellRange, (size_t)cap * 4, sizeof(int32_t))) return false;
		g->slotCapacity = cap;
	}
	if (g->blockCapacity < blocks) {
		if (!reserve((void**)&g->blocks, (size_t)blocks, sizeof(dkGridBlock))) return false;
		memset(g->blocks + g->blockCapacity, 0, (size_t)(blocks - g->blockCapacity) * sizeof(dkGridBlock));
		g->blockCapacity = blocks;
	}
	return true;
}

static bool reserveEntries(dkPairGrid* g, size_t entries)
{
	if (g->entryCapacity >= entries) return true;
	size_t cap = entries + entries / 2;
	if (!reserve((void**)&g->cells, cap, sizeof(uint64_t)) || !reserve((void**)&g->listing, cap, sizeof(int32_t)) ||
		!reserve((void**)&g->listSlot, cap, sizeof(int32_t)) || !reserve((void**)&g->position, cap, sizeof(int32_t)) ||
		!reserve((void**)&g->members, cap, sizeof(int32_t)))
		return false;
	g->entryCapacity = cap;
	return true;
}

void dkPairGrid_Destroy(dkPairGrid* g)
{
	if (!g) return;
	for (int32_t b = 0; b < g->blockCapacity; ++b) free(g->blocks[b].pairs);
	free(g->blocks);
	free(g->offset);
	free(g->cellRange);
	free(g->large);
	free(g->cells);
	free(g->listing);
	free(g->listSlot);
	free(g->position);
	free(g->members);
	free(g);
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
	uint64_t width;		  // columns spanned by the listed boxes
	int pass;
	atomic_int next;
} dkGridTask;

// A cell's sort key: its index in the row-major grid spanned by the listed boxes, so the sort takes one
// pass while that grid has fewer than 65 536 cells. Rows first: scenes create items row by row, so shapes
// near in slot order are near in the sorted cells (column-major keys made the pair pass of the 100 000-box
// pile a third slower, 12.8 against 9.3 ms per build at 1 worker).
static inline uint64_t cellKey(const dkGridTask* t, int32_t cx, int32_t cy)
{
	return (uint64_t)(uint32_t)(cy - t->minY) * t->width + (uint32_t)(cx - t->minX);
}

static bool pushPair(dkGridBlock* out, int32_t a, int32_t b)
{
	if (out->pairCount == out->pairCapacity) {
		int32_t cap = out->pairCapacity > 0 ? out->pairCapacity * 2 : 1024;
		int32_t* grown = realloc(out->pairs, (size_t)cap * 2 * sizeof(int32_t));
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

// The pairs of live shape p with shapes of larger slots, sorted, into its block's buffer.
static void shapePairs(const dkGridTask* t, int32_t p, dkGridBlock* out)
{
	const dkPairGrid* g = t->grid;
	const dkWorld* world = t->world;
	int32_t a = t->slots[p], from = out->pairCount;
	if (g->offset[p + 1] == g->offset[p]) { // a large shape: every box after it
		for (int32_t q = p + 1; q < t->live && out->ok; ++q)
			if (dkCandidate(world, a, t->slots[q], t->filters)) pushPair(out, a, t->slots[q]);
		return;
	}
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
				if (dkAccepts(&t->filters[a], &t->filters[b])) pushPair(out, a, b);
			}
		}
	}
	for (int32_t l = 0; l < t->largeCount && out->ok; ++l) {
		int32_t b = g->large[l];
		if (b > a && dkCandidate(world, a, b, t->filters)) pushPair(out, a, b);
	}
	sortPartners(out, from);
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
				if (x1 - x0 >= DK_GRID_LARGE_CELLS || y1 - y0 >= DK_GRID_LARGE_CELLS) {
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
				if (x1 - x0 >= DK_GRID_LARGE_CELLS || y1 - y0 >= DK_GRID_LARGE_CELLS) {
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

bool dkPairGrid_Find(dkWorld* world, const int32_t* slots, int32_t live, const dkFilter* filters)
{
	world->pairCount = 0;
	if (!world->grid) world->grid = calloc(1, sizeof(dkPairGrid));
	dkPairGrid* g = world->grid;
	int32_t blocks = (live + DK_GRID_BLOCK - 1) / DK_GRID_BLOCK;
	if (!g || !reserveShapes(g, live, world->shapeSlots, blocks > 0 ? blocks : 1)) return false;
	dkGridTask t = {.world = world, .grid = g, .slots = slots, .filters = filters, .live = live, .blocks = blocks};
	atomic_init(&t.next, 0);

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
	if (used > INT32_MAX || !reserveEntries(g, used)) return false;
	t.used = (int32_t)used;
	t.width = used > 0 ? (uint64_t)((int64_t)maxX - t.minX + 1) : 1;
	g->offset[live] = t.used;

	runPass(&t, dkGridList, live);
	if (!dkRadixSort64(g->cells, g->listing, t.used)) return false; // stable: slots stay in order within a cell
	runPass(&t, dkGridInvert, t.used);
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
		int32_t* grown = realloc(world->pairs, (size_t)cap * 2 * sizeof(int32_t));
		if (!grown) return false;
		world->pairs = grown;
		world->pairCapacity = cap;
	}
	runPass(&t, dkGridGather, (int32_t)total);
	world->pairCount = (int32_t)total;
	return true;
}
