// SPDX-License-Identifier: Apache-2.0
// Data structure: the grid the world's queries search. Not the broadphase's: that one lists fat boxes as of
// its last full pass, and between passes the shapes that left them are listed where they were; a query wants
// the poses of the moment, which also change when poses are set between steps. So the first query after a
// change (anything that bumps dkWorld.revision: a step, poses or shapes set, items made or removed) boxes every
// live shape at its pose and lists it in the cells its box covers, sorted by cell, as the pair grid does
// (pair_grid.c: the cell twice the mean box extent, rows first, a stable radix sort so that a cell's shapes are
// in slot order). Boxes spanning DK_GRID_LARGE_CELLS cells on an axis (long boundaries) are kept aside and
// tested by every query. A query then reads the cells it covers, or walks a ray's cells in order.
#include "query_index.h"
#include "pair_grid.h"
#include "radix_sort.h"
#include "team.h"
#include "trig.h"

#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

// The cells, the large boxes and the binary search are the pair grid's (pair_grid.h: cellOf, spansLarge,
// lowerBound64).
static inline uint64_t keyOf(const dkQueryIndex* q, int32_t cx, int32_t cy)
{
	return (uint64_t)(uint32_t)(cy - q->minY) * q->width + (uint32_t)(cx - q->minX);
}

// Lane by lane minimum and maximum (NaN-free inputs here).
static inline dkF4 min4(dkF4 a, dkF4 b)
{
	dkM4 m = b < a;
	return (dkF4)(((dkM4)b & m) | ((dkM4)a & ~m));
}

static inline dkF4 max4(dkF4 a, dkF4 b)
{
	dkM4 m = b > a;
	return (dkF4)(((dkM4)b & m) | ((dkM4)a & ~m));
}

// A live shape's box at its item's pose of the moment (a boundary's where it is), and that pose.
static void boxOf(const dkWorld* world, const dkShape* s, float* box, float* pose)
{
	float x = 0, y = 0, c = 1, sn = 0;
	if (s->body >= 0) {
		int32_t row = world->slots.data[s->body].dense;
		x = world->col[dkColumnPositionX][row];
		y = world->col[dkColumnPositionY][row];
		dkSinCos(world->col[dkColumnAngle][row], &sn, &c);
	}
	pose[0] = x, pose[1] = y, pose[2] = c, pose[3] = sn;
	float lx = INFINITY, ly = INFINITY, ux = -INFINITY, uy = -INFINITY;
	for (int32_t i = 0; i < s->count; ++i) {
		float px = (c * s->x[i] - sn * s->y[i]) + x, py = (sn * s->x[i] + c * s->y[i]) + y;
		lx = fminf(lx, px), ly = fminf(ly, py), ux = fmaxf(ux, px), uy = fmaxf(uy, py);
	}
	box[0] = lx - s->radius, box[1] = ly - s->radius, box[2] = ux + s->radius, box[3] = uy + s->radius;
}

// The build runs in blocks of DK_QUERY_BLOCK shape slots that the workers claim (boxes; cell ranges and
// counts; listings at each block's offset, in slot order) and of listings (the sorted boxes' columns); the sums
// between passes go block by block in order, so the grid is the same for any worker count.
#define DK_QUERY_BLOCK 4096

typedef struct dkQueryBlock {
	double extent;
	int32_t live, entries, large, minX, minY, maxX, maxY;
	int32_t entryStart, largeStart;
} dkQueryBlock;

enum { dkQueryBoxes, dkQueryRanges, dkQueryListings, dkQueryColumns };

typedef struct dkQueryBuild {
	const dkWorld* world;
	dkQueryIndex* q;
	dkQueryBlock* blocks;
	int32_t slots, blockCount, pass;
	atomic_int next;
} dkQueryBuild;

static void buildTask(void* context, int32_t worker)
{
	(void)worker;
	dkQueryBuild* t = context;
	dkQueryIndex* q = t->q;
	const dkWorld* world = t->world;
	int32_t count = t->pass == dkQueryColumns ? (q->entries + DK_QUERY_BLOCK - 1) / DK_QUERY_BLOCK : t->blockCount;
	for (int32_t k; (k = atomic_fetch_add(&t->next, 1)) < count;) {
		int32_t b = k * DK_QUERY_BLOCK, e = b + DK_QUERY_BLOCK < t->slots ? b + DK_QUERY_BLOCK : t->slots;
		dkQueryBlock* block = t->pass == dkQueryColumns ? NULL : &t->blocks[k];
		switch (t->pass) {
		case dkQueryBoxes:
			block->extent = 0, block->live = 0;
			for (int32_t i = b; i < e; ++i) {
				const dkShape* s = &world->shapes.data[i];
				if (!s->alive) continue;
				float* box = q->boxes + 4 * i;
				boxOf(world, s, box, q->poses + 4 * i);
				block->extent += fmaxf(box[2] - box[0], box[3] - box[1]);
				block->live++;
			}
			break;
		case dkQueryRanges:
			*block = (dkQueryBlock){.minX = INT32_MAX, .minY = INT32_MAX, .maxX = INT32_MIN, .maxY = INT32_MIN};
			for (int32_t i = b; i < e; ++i) {
				if (!world->shapes.data[i].alive) continue;
				const float* box = q->boxes + 4 * i;
				int32_t x0 = cellOf(box[0], q->inv), y0 = cellOf(box[1], q->inv), x1 = cellOf(box[2], q->inv), y1 = cellOf(box[3], q->inv);
				if (spansLarge(x0, y0, x1, y1)) {
					block->large++;
					continue;
				}
				block->entries += (x1 - x0 + 1) * (y1 - y0 + 1); // at most 64 a shape (spansLarge)
				block->minX = x0 < block->minX ? x0 : block->minX, block->minY = y0 < block->minY ? y0 : block->minY;
				block->maxX = x1 > block->maxX ? x1 : block->maxX, block->maxY = y1 > block->maxY ? y1 : block->maxY;
			}
			break;
		case dkQueryListings: {
			int32_t at = block->entryStart, large = block->largeStart;
			for (int32_t i = b; i < e; ++i) {
				if (!world->shapes.data[i].alive) continue;
				const float* box = q->boxes + 4 * i;
				int32_t x0 = cellOf(box[0], q->inv), y0 = cellOf(box[1], q->inv), x1 = cellOf(box[2], q->inv), y1 = cellOf(box[3], q->inv);
				if (spansLarge(x0, y0, x1, y1)) {
					q->large[large++] = i;
					continue;
				}
				for (int32_t cy = y0; cy <= y1; ++cy)
					for (int32_t cx = x0; cx <= x1; ++cx) q->keys[at] = keyOf(q, cx, cy), q->slots[at++] = i;
			}
			break;
		}
		default: { // dkQueryColumns: listings [b, e) of the sorted order
			size_t column = (size_t)q->entryCapacity + 4;
			int32_t end = b + DK_QUERY_BLOCK < q->entries ? b + DK_QUERY_BLOCK : q->entries;
			for (int32_t j = b; j < end; ++j)
				for (int c = 0; c < 4; ++c) q->listBox[c * column + (size_t)j] = q->boxes[4 * q->slots[j] + c];
		}
		}
	}
}

static void runBuildPass(dkWorld* world, dkQueryBuild* t, int pass, int32_t work)
{
	t->pass = pass;
	atomic_store(&t->next, 0);
	dkRunTasks(world, buildTask, t, work >= 2 * DK_QUERY_BLOCK ? world->def.workerCount : 1);
}

static bool build(dkWorld* world, dkQueryIndex* q)
{
	int32_t slots = world->shapeIds.next, blockCount = (slots + DK_QUERY_BLOCK - 1) / DK_QUERY_BLOCK;
	if (q->slotCapacity < slots) {
		int32_t cap = dkArray_Grown(slots);
		float* boxes = dkResize(world, q->boxes, 0, (size_t)cap * 4 * sizeof(float));
		if (!boxes) return false;
		q->boxes = boxes;
		float* poses = dkResize(world, q->poses, 0, (size_t)cap * 4 * sizeof(float));
		if (!poses) return false;
		q->poses = poses;
		int32_t* large = dkResize(world, q->large, 0, (size_t)cap * sizeof(int32_t));
		if (!large) return false;
		q->large = large;
		q->slotCapacity = cap;
	}
	dkQueryBlock* blocks = dkAlloc(world, (size_t)(blockCount > 0 ? blockCount : 1) * sizeof(dkQueryBlock));
	if (!blocks) return false;
	dkQueryBuild t = {.world = world, .q = q, .blocks = blocks, .slots = slots, .blockCount = blockCount};
	atomic_init(&t.next, 0);
	runBuildPass(world, &t, dkQueryBoxes, slots);
	double extent = 0;
	int32_t live = 0;
	for (int32_t k = 0; k < blockCount; ++k) extent += blocks[k].extent, live += blocks[k].live;
	q->cell = live > 0 ? (float)(2.0 * extent / live) : 1.0f;
	if (!(q->cell > 1e-3f) || !isfinite(q->cell)) q->cell = 1.0f;
	q->inv = 1.0f / q->cell;
	// The listings' count and range, then the listings in slot order.
	runBuildPass(world, &t, dkQueryRanges, slots);
	int64_t entries = 0;
	q->minX = q->minY = INT32_MAX;
	q->maxX = q->maxY = INT32_MIN;
	q->largeCount = 0;
	for (int32_t k = 0; k < blockCount; ++k) {
		const dkQueryBlock* block = &blocks[k];
		blocks[k].entryStart = (int32_t)(entries < INT32_MAX ? entries : INT32_MAX);
		blocks[k].largeStart = q->largeCount;
		entries += block->entries;
		q->largeCount += block->large;
		q->minX = block->minX < q->minX ? block->minX : q->minX, q->minY = block->minY < q->minY ? block->minY : q->minY;
		q->maxX = block->maxX > q->maxX ? block->maxX : q->maxX, q->maxY = block->maxY > q->maxY ? block->maxY : q->maxY;
	}
	bool ok = entries <= INT32_MAX / 2;
	if (ok && (q->entryCapacity < entries || !q->listBox)) { // (the columns' padding exists even with no listing)
		int32_t cap = dkArray_Grown((int32_t)entries);
		uint64_t* keys = dkResize(world, q->keys, 0, (size_t)cap * sizeof(uint64_t));
		if (keys) q->keys = keys;
		int32_t* listed = keys ? dkResize(world, q->slots, 0, (size_t)cap * sizeof(int32_t)) : NULL;
		if (listed) q->slots = listed;
		float* boxes = listed ? dkResize(world, q->listBox, 0, 4 * ((size_t)cap + 4) * sizeof(float)) : NULL;
		if (boxes) q->listBox = boxes, q->entryCapacity = cap;
		ok = boxes != NULL;
	}
	if (ok) {
		q->width = entries > 0 ? (uint64_t)((int64_t)q->maxX - q->minX + 1) : 1;
		q->entries = (int32_t)entries;
		runBuildPass(world, &t, dkQueryListings, slots);
	}
	ok = ok && dkRadixSort64(world, q->keys, q->slots, q->entries); // stable: slots stay ascending within a cell
	if (ok) runBuildPass(world, &t, dkQueryColumns, q->entries);
	dkFree(world, blocks);
	if (!ok) return false;
	size_t column = (size_t)q->entryCapacity + 4;
	int32_t at = q->entries;
	for (int32_t j = at; j < at + 4; ++j) // padding no ray meets
		for (int c = 0; c < 4; ++c) q->listBox[c * column + (size_t)j] = c < 2 ? INFINITY : -INFINITY;
	// A cell's first listing from a table while the cells are at most four per listing, else by binary search.
	int64_t cells = at > 0 ? (int64_t)q->width * ((int64_t)q->maxY - q->minY + 1) : 0;
	q->dense = at > 0 && cells <= 4 * (int64_t)at + 4096;
	if (!q->dense) return true;
	if (q->cellCapacity < cells + 1) {
		int32_t* starts = dkResize(world, q->cellStart, 0, (size_t)(cells + 1) * sizeof(int32_t));
		if (!starts) return false;
		q->cellStart = starts;
		q->cellCapacity = cells + 1;
	}
	for (int64_t c = 0, j = 0; c <= cells; ++c) {
		while (j < at && q->keys[j] < (uint64_t)c) ++j;
		q->cellStart[c] = (int32_t)j;
	}
	return true;
}

// The first listing of cell `key` (or where it would be).
static inline int32_t firstListing(const dkQueryIndex* q, uint64_t key)
{
	return q->dense ? q->cellStart[key] : lowerBound64(q->keys, q->entries, key);
}

void dkQueryIndex_Place(const dkWorld* world, const dkQueryIndex* q, int32_t slot, dkPlaced* out)
{
	const float* pose = q->poses + 4 * slot;
	dkPlaceShape(&world->shapes.data[slot], pose[0], pose[1], pose[2], pose[3], 0.0f, 0.0f, out);
}

const dkQueryIndex* dkQueryIndex_Current(dkWorld* world)
{
	if (!world->queryIndex) world->queryIndex = dkAllocZeroed(world, sizeof(dkQueryIndex));
	dkQueryIndex* q = world->queryIndex;
	if (!q) return NULL;
	if (q->built && q->revision == world->revision) return q;
	q->built = false;
	if (!build(world, q)) return NULL;
	q->built = true;
	q->revision = world->revision;
	return q;
}

void dkQueryIndex_Destroy(const dkWorld* world, dkQueryIndex* index)
{
	if (!index) return;
	dkFree(world, index->boxes);
	dkFree(world, index->poses);
	dkFree(world, index->keys);
	dkFree(world, index->slots);
	dkFree(world, index->listBox);
	dkFree(world, index->large);
	dkFree(world, index->cellStart);
	dkFree(world, index);
}

bool dkQueryIndex_Boxes(const dkWorld* world, const dkQueryIndex* q, const float box[4], dkInt32Array* out)
{
	int32_t x0 = cellOf(box[0], q->inv), y0 = cellOf(box[1], q->inv), x1 = cellOf(box[2], q->inv), y1 = cellOf(box[3], q->inv);
	int32_t lx0 = x0 > q->minX ? x0 : q->minX, ly0 = y0 > q->minY ? y0 : q->minY;
	int32_t lx1 = x1 < q->maxX ? x1 : q->maxX, ly1 = y1 < q->maxY ? y1 : q->maxY;
	// A shape is reported by the cell of the lower corner of its box's overlap with the query box, so once.
	if (q->entries > 0 && lx0 <= lx1 && ly0 <= ly1) {
		if ((int64_t)(lx1 - lx0 + 1) * (ly1 - ly0 + 1) > q->entries) { // covering more cells than listings: read them all
			for (int32_t j = 0; j < q->entries; ++j) {
				int32_t s = q->slots[j];
				const float* b = q->boxes + 4 * s;
				if (!dkQueryIndex_Meets(box, b)) continue;
				int32_t bx = cellOf(b[0], q->inv), by = cellOf(b[1], q->inv);
				uint64_t corner = keyOf(q, x0 > bx ? x0 : bx, y0 > by ? y0 : by);
				if (q->keys[j] == corner && !dkInt32Array_Push(world, out, &s)) return false;
			}
		} else {
			for (int32_t cy = ly0; cy <= ly1; ++cy) {
				for (int32_t cx = lx0; cx <= lx1; ++cx) {
					uint64_t key = keyOf(q, cx, cy);
					for (int32_t j = firstListing(q, key); j < q->entries && q->keys[j] == key; ++j) {
						int32_t s = q->slots[j];
						const float* b = q->boxes + 4 * s;
						if (!dkQueryIndex_Meets(box, b)) continue;
						int32_t bx = cellOf(b[0], q->inv), by = cellOf(b[1], q->inv);
						if ((x0 > bx ? x0 : bx) != cx || (y0 > by ? y0 : by) != cy) continue;
						if (!dkInt32Array_Push(world, out, &s)) return false;
					}
				}
			}
		}
	}
	for (int32_t l = 0; l < q->largeCount; ++l)
		if (dkQueryIndex_Meets(box, q->boxes + 4 * q->large[l]) && !dkInt32Array_Push(world, out, &q->large[l])) return false;
	return true;
}

void dkQueryIndex_Point(const dkQueryIndex* q, float px, float py, dkQueryPointVisit* visit, void* context)
{
	// A shape is listed by the cell of the lower corner of its box's overlap with the query box (Boxes): for a
	// point, the point's own cell.
	if (q->entries > 0) {
		int32_t cx = cellOf(px, q->inv), cy = cellOf(py, q->inv);
		if (cx >= q->minX && cx <= q->maxX && cy >= q->minY && cy <= q->maxY) {
			uint64_t key = keyOf(q, cx, cy);
			int32_t first = firstListing(q, key), end = first;
			while (end < q->entries && q->keys[end] == key) ++end;
			size_t column = (size_t)q->entryCapacity + 4; // (each column padded by four)
			const float *bx0 = q->listBox, *by0 = bx0 + column, *bx1 = by0 + column, *by1 = bx1 + column;
			dkF4 PX = {px, px, px, px}, PY = {py, py, py, py};
			for (int32_t j = first; j < end; j += 4) { // apart exactly where dkQueryIndex_Meets says so
				dkM4 apart = (PX > dkLoad4(bx1 + j)) | (dkLoad4(bx0 + j) > PX) | (PY > dkLoad4(by1 + j)) | (dkLoad4(by0 + j) > PY);
				int32_t lanes[4];
				memcpy(lanes, &apart, sizeof lanes);
				for (int32_t l = 0; l < 4 && j + l < end; ++l)
					if (!lanes[l]) visit(context, q->slots[j + l]);
			}
		}
	}
	const float box[4] = {px, py, px, py};
	for (int32_t l = 0; l < q->largeCount; ++l)
		if (dkQueryIndex_Meets(box, q->boxes + 4 * q->large[l])) visit(context, q->large[l]);
}

void dkQueryIndex_Ray(const dkQueryIndex* q, float px, float py, float dx, float dy, float maxFraction,
					  dkQueryRayVisit* visit, void* context)
{
	float limit = maxFraction;
	for (int32_t l = 0; l < q->largeCount; ++l) limit = fminf(limit, visit(context, q->large[l]));
	if (q->entries == 0) return;
	// The part of the ray inside the listed cells' range (slabs), then its cells in order (a DDA walk).
	float lo[2] = {(float)q->minX * q->cell, (float)q->minY * q->cell};
	float hi[2] = {(float)(q->maxX + 1) * q->cell, (float)(q->maxY + 1) * q->cell};
	float p[2] = {px, py}, d[2] = {dx, dy}, t0 = 0.0f, t1 = limit;
	for (int a = 0; a < 2; ++a) {
		if (d[a] == 0.0f) {
			if (p[a] < lo[a] || p[a] > hi[a]) return;
			continue;
		}
		float ta = (lo[a] - p[a]) / d[a], tb = (hi[a] - p[a]) / d[a];
		t0 = fmaxf(t0, fminf(ta, tb));
		t1 = fminf(t1, fmaxf(ta, tb));
	}
	if (!(t0 <= t1)) return;
	float sx = px + t0 * dx, sy = py + t0 * dy;
	int32_t cx = cellOf(sx, q->inv), cy = cellOf(sy, q->inv);
	// A walk through more cells than there are listings (a world strewn over a huge range) reads the listings
	// instead, in order: every shape is visited, some more than once.
	int64_t walk = llabs((int64_t)cellOf(px + t1 * dx, q->inv) - cx) + llabs((int64_t)cellOf(py + t1 * dy, q->inv) - cy);
	if (walk > q->entries) {
		for (int32_t j = 0; j < q->entries; ++j) visit(context, q->slots[j]);
		return;
	}
	cx = cx < q->minX ? q->minX : cx > q->maxX ? q->maxX : cx;
	cy = cy < q->minY ? q->minY : cy > q->maxY ? q->maxY : cy;
	int32_t stepX = dx > 0 ? 1 : -1, stepY = dy > 0 ? 1 : -1;
	float nextX = dx != 0.0f ? ((float)(cx + (dx > 0)) * q->cell - px) / dx : INFINITY;
	float nextY = dy != 0.0f ? ((float)(cy + (dy > 0)) * q->cell - py) / dy : INFINITY;
	float deltaX = dx != 0.0f ? q->cell / fabsf(dx) : INFINITY, deltaY = dy != 0.0f ? q->cell / fabsf(dy) : INFINITY;
	// A hit on a cell's edge may be listed by the next cell only (rounding): the walk goes a little past it.
	float slack = 1e-3f * fminf(deltaX, deltaY);
	// The slab test of four listed boxes at a time (a direction component of 0 taken as 10⁻³⁰, so that no lane
	// divides by it), a little wide so that rounding never leaves out a box the ray touches.
	size_t column = (size_t)q->entryCapacity + 4;
	const float *bx0 = q->listBox, *by0 = bx0 + column, *bx1 = by0 + column, *by1 = bx1 + column;
	float ix = 1.0f / (dx != 0.0f ? dx : 1e-30f), iy = 1.0f / (dy != 0.0f ? dy : 1e-30f);
	dkF4 PX = {px, px, px, px}, PY = {py, py, py, py}, IX = {ix, ix, ix, ix}, IY = {iy, iy, iy, iy};
	const float wide = 1e-5f;
	for (;;) {
		uint64_t key = keyOf(q, cx, cy);
		int32_t first = firstListing(q, key), end = first;
		while (end < q->entries && q->keys[end] == key) ++end;
		for (int32_t j = first; j < end; j += 4) {
			dkF4 ax = (dkLoad4(bx0 + j) - PX) * IX, bx = (dkLoad4(bx1 + j) - PX) * IX;
			dkF4 ay = (dkLoad4(by0 + j) - PY) * IY, by = (dkLoad4(by1 + j) - PY) * IY;
			float enter[4], leave[4];
			dkStore4(enter, max4(min4(ax, bx), min4(ay, by)));
			dkStore4(leave, min4(max4(ax, bx), max4(ay, by)));
			for (int32_t l = 0; l < 4 && j + l < end; ++l)
				if (leave[l] >= -wide && enter[l] <= limit + wide && enter[l] <= leave[l] + wide)
					limit = fminf(limit, visit(context, q->slots[j + l]));
		}
		// The next cell, unless the ray (or what is left of it to see) ends in this one.
		float exit = fminf(nextX, nextY);
		if (exit - slack > limit || exit - slack > t1) return;
		if (nextX < nextY) {
			cx += stepX, nextX += deltaX;
			if (cx < q->minX || cx > q->maxX) return;
		} else {
			cy += stepY, nextY += deltaY;
			if (cy < q->minY || cy > q->maxY) return;
		}
	}
}
