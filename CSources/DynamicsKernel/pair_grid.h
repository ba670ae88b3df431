// SPDX-License-Identifier: Apache-2.0
// Internal: the pair grid's layout (pair_grid.c builds it and finds every pair; pair_grid_update.c finds the
// pairs of the shapes whose fat boxes changed since, and the moving shapes' pairs beside the still grid).
#ifndef DK_PAIR_GRID_H
#define DK_PAIR_GRID_H

#include "collision.h"

#include <stddef.h>
#include <stdint.h>

#define DK_GRID_BLOCK 512		  // live shapes per block of work
#define DK_GRID_ENTRY_BLOCK 8192  // cell listings per block of work
#define DK_GRID_LARGE_CELLS 8	  // a box spanning this many cells on an axis is large: not listed in the grid
#define DK_GRID_FEW_LARGE 16	  // up to this many large shapes, every box tests each of them (no coarse grid)
#define DK_GRID_LOOSE_EACH 64	  // up to this many loose shapes, each is tested against each (dkPairGrid_Update)
#define DK_GRID_CELL_LIMIT 536870912.0f // 2^29: the farthest cell from the origin on an axis

// One block's share of each pass: sums for the serial steps between passes, and its pairs.
typedef struct dkGridBlock {
	double extent;					// sum of the boxes' larger sides, pt
	int32_t minX, minY, maxX, maxY; // range of the listed boxes' cells
	int32_t entries, large;			// cell listings and large shapes of the block
	int32_t entryStart, largeStart; // where the block writes them
	int32_t pairStart;				// where its pairs go in the world's list
	dkPairArray pairs;				// sorted
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
	uint32_t* stamp;	// shape slot → the build that last listed it (builds), so that a slot's cellRange is
						// known to be this build's
	int32_t* large;	   // large shapes, in slot order
	int32_t* huge;	   // large shapes that span more than DK_GRID_LARGE_CELLS coarse cells, in slot order
	dkCoarseEntry* coarse; // the other large shapes' coarse cell listings, sorted by (cell, slot)
	size_t coarseCapacity;
	uint64_t* cells;   // listing → cell key; sorted
	int32_t* listing;  // the sort's payload: sorted position → listing
	int32_t* listSlot; // listing → shape slot
	int32_t* position; // listing → sorted position
	int32_t* members;  // sorted position → shape slot
	float* memberBox;  // sorted position → that shape's fat box (x0, y0, x1, y1), read in order by the pair pass
	int32_t* memberLow; // sorted position → the cell of that box's lower corner (x, y)
	size_t memberCapacity; // of memberBox and memberLow (only builds of at most DK_GRID_COPY_LIMIT listings use them)
	size_t entryCapacity;
	int32_t liveCapacity, slotCapacity;
	dkGridBlock* blocks;
	int32_t blockCapacity;
	// The last build, which dkPairGrid_Update looks shapes up in.
	uint32_t builds; // builds begun
	bool built;
	bool split; // the world's grid only: it lists the shapes that can move, the still grid the others
	float inv;
	int32_t minX, minY, maxX, maxY, used, largeCount;
	uint64_t width;
	dkPairArray found; // pairs of the loose shapes (dkPairGrid_Update)
	dkPairArray spare; // the other buffer of the world's pair list (its count unused)
	dkPairArray* workerFound; // the world's grid only: each worker's pairs of a lookup (pair_grid_update.c)
	int32_t workerFoundCount;
};

// Grows an array from `old` to `need` elements of `elem` bytes, keeping the first `keep` (0 for arrays every
// build rewrites).
static inline bool dkGrid_Reserve(const dkWorld* world, void** p, size_t keep, size_t need, size_t elem)
{
	return dkResizeArray(world, p, keep, need > 0 ? need : 1, elem);
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

// The first of the n sorted keys that is not below key.
static inline int32_t lowerBound64(const uint64_t* keys, int32_t n, uint64_t key)
{
	int32_t lo = 0, hi = n;
	while (lo < hi) {
		int32_t mid = lo + (hi - lo) / 2;
		if (keys[mid] < key) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

// Whether the last build of grid g listed shape `slot` (its cellRange is then that build's).
static inline bool dkPairGrid_Lists(const dkPairGrid* g, int32_t slot)
{
	return g && g->built && slot < g->slotCapacity && g->stamp[slot] == g->builds;
}

// Lists `live` shapes (slots) in grid g and, with `pairs`, finds every pair among them into the world's pair
// list (pair_grid.c). False when out of memory.
bool dkPairGrid_Build(dkWorld* world, dkPairGrid* g, const int32_t* slots, int32_t live, const dkFilter* filters, bool pairs);

#endif
