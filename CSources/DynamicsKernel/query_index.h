// SPDX-License-Identifier: Apache-2.0
// Internal: the grid the world's queries search (query_index.c), built from the shapes' boxes at their poses
// of the moment by the first query after a change (dkWorld.revision) and kept for the queries after it.
#ifndef DK_QUERY_INDEX_H
#define DK_QUERY_INDEX_H

#include "collision.h"

typedef struct dkQueryIndex {
	uint64_t revision; // the world's revision it was built at
	bool built;
	float* boxes; // shape slot → its box (x0, y0, x1, y1) at the pose of the build, pt
	float* poses; // shape slot → its item's pose at the build: x, y (pt), cos and sin (a boundary's: 0, 0, 1, 0)
	int32_t slotCapacity;
	float cell, inv; // cell side, pt, and its inverse
	int32_t minX, minY, maxX, maxY; // range of the listed boxes' cells
	uint64_t width;
	uint64_t* keys; // listing → cell key, sorted; shapes in ascending slots within a cell
	int32_t* slots; // listing → shape slot
	float* listBox; // the listed boxes in sorted order, a column each (x0, y0, x1, y1; entryCapacity + 4 each, the
					// last 4 padding): a ray tests four of a cell's boxes at once before it reads their shapes
	int32_t entries, entryCapacity;
	int32_t* cellStart; // while the grid's cells are few against its listings: cell key → its first listing (keys + 1)
	int64_t cellCapacity;
	bool dense;
	int32_t* large; // shapes spanning DK_GRID_LARGE_CELLS cells or more on an axis: tested by every query
	int32_t largeCount;
} dkQueryIndex;

// Whether query `box` (x0, y0, x1, y1) and a listed shape's box meet.
static inline bool dkQueryIndex_Meets(const float* a, const float* b)
{
	return !(a[0] > b[2] || b[0] > a[2] || a[1] > b[3] || b[1] > a[3]);
}

// Shape `slot` (live at the build) placed at its item's pose of the build, in world coordinates.
void dkQueryIndex_Place(const dkWorld* world, const dkQueryIndex* index, int32_t slot, dkPlaced* out);

// The world's index, built anew when the world changed since; NULL when out of memory.
const dkQueryIndex* dkQueryIndex_Current(dkWorld* world);
void dkQueryIndex_Destroy(const dkWorld* world, dkQueryIndex* index);

// The slots of the shapes whose boxes meet `box`, each once, into `out` (grown as needed; unordered).
// False when out of memory.
bool dkQueryIndex_Boxes(const dkWorld* world, const dkQueryIndex* index, const float box[4], dkInt32Array* out);

// Calls visit(context, slot) for each shape whose box contains the point (px, py), edges included: the listings
// of the point's cell, four boxes at a time, then the large shapes; each once. The same shapes as
// dkQueryIndex_Boxes gives for the point's box.
typedef void dkQueryPointVisit(void* context, int32_t slot);
void dkQueryIndex_Point(const dkQueryIndex* index, float px, float py, dkQueryPointVisit* visit, void* context);

// Calls visit(context, slot) for each shape whose box the segment from (px, py) along (dx, dy) for fractions
// [0, maxFraction] may meet, cell by cell along it (a shape may come more than once), then for the large
// shapes; stops early when visit returns a fraction below the start of the next cell. visit returns the
// fraction up to which the walk must go on (maxFraction to see everything).
typedef float dkQueryRayVisit(void* context, int32_t slot);
void dkQueryIndex_Ray(const dkQueryIndex* index, float px, float py, float dx, float dy, float maxFraction,
					  dkQueryRayVisit* visit, void* context);

#endif
