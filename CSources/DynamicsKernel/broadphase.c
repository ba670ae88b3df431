// Stage: broadphase. Every step it recomputes each shape's AABB (item shapes fattened by the speculative
// distance plus |v|·dt). Pairs come from fat boxes (DK_AABB_MARGIN more): while every box stays inside
// its fat box and nothing that changes pairs happened (shapes, groups, anchoring, rest), last step's
// pairs still cover every overlap and are kept. Otherwise it finds the pairs of fat boxes with a grid. The cell is twice the mean box
// extent; a box is listed in every cell it touches (1–4 as a rule), and a pair is reported only by the
// cell holding the lower corner of the two boxes' overlap, so no pair comes twice. Shapes wider than
// 8 cells (long boundaries, giant items) are tested against every box directly.
//
// Why a grid: sort-and-sweep on x, the first version, slows down in tall stacks, where a box shares its
// x range with every box of its column (pyramid of 5 050 boxes: 6.5 ms/step sweeping). The grid needs no
// persistent tree and its cost does not depend on the stacking direction. Its output, sorted by shape
// slot, does not depend on the worker count.
// A pair needs at least one shape on an awake dynamic item, and the two filters must accept each other.
#include "collision.h"
#include "radix_sort.h"

#include <math.h>
#include <stdlib.h>

// Sorts the pairs by (smaller slot, larger slot); false when out of memory.
static bool sortPairs(dkWorld* world)
{
	int32_t n = world->pairCount;
	uint64_t* keys = malloc((size_t)(n > 0 ? n : 1) * sizeof(uint64_t));
	if (!keys) return false;
	for (int32_t i = 0; i < n; ++i)
		keys[i] = ((uint64_t)(uint32_t)world->pairs[2 * i] << 32) | (uint32_t)world->pairs[2 * i + 1];
	bool sorted = dkRadixSort64(keys, NULL, n);
	if (sorted) {
		for (int32_t i = 0; i < n; ++i) {
			world->pairs[2 * i] = (int32_t)(keys[i] >> 32);
			world->pairs[2 * i + 1] = (int32_t)(uint32_t)keys[i];
		}
	}
	free(keys);
	return sorted;
}

// Whether a shape moves this step (belongs to an awake item that is not anchored).
static bool isActive(const dkWorld* world, const dkShape* s)
{
	if (s->body < 0) return false;
	int32_t row = world->slots[s->body].dense;
	return row >= 0 && row < world->awake && world->col[dkColumnInverseMass][row] > 0.0f;
}

// The AABB of a shape at its item's pose (rotation from the step's cached cos/sin columns).
static void computeBox(const dkWorld* world, const dkShape* s, float dt, float* box)
{
	float x = 0, y = 0, c = 1, sn = 0, margin = 0;
	if (s->body >= 0) {
		int32_t row = world->slots[s->body].dense;
		x = world->col[dkColumnPositionX][row];
		y = world->col[dkColumnPositionY][row];
		c = world->col[dkColumnCos][row];
		sn = world->col[dkColumnSin][row];
		float vx = world->col[dkColumnVelocityX][row], vy = world->col[dkColumnVelocityY][row];
		margin = DK_SPECULATIVE_DISTANCE + dt * sqrtf(vx * vx + vy * vy);
	}
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
	if (world->pairCount == world->pairCapacity) {
		int32_t cap = world->pairCapacity > 0 ? world->pairCapacity * 2 : 1024;
		int32_t* p = realloc(world->pairs, (size_t)cap * 2 * sizeof(int32_t));
		if (!p) return false;
		world->pairs = p;
		world->pairCapacity = cap;
	}
	world->pairs[2 * world->pairCount] = a < b ? a : b;
	world->pairs[2 * world->pairCount + 1] = a < b ? b : a;
	world->pairCount++;
	return true;
}

// What the pair test needs of a shape, 24 bytes (the shapes themselves are ~300).
typedef struct dkFilter {
	uint64_t itemGroups, boundaryGroups;
	int32_t body;
	bool active; // on an awake item that moves
} dkFilter;

// Two shapes collide when they are on different items (or one is a boundary) and their groups accept
// each other: items share an item group; an item's boundary groups contain the boundary's group.
static bool accepts(const dkFilter* a, const dkFilter* b)
{
	if (a->body >= 0 && a->body == b->body) return false;
	if (a->body < 0 && b->body < 0) return false;
	if (a->body >= 0 && b->body >= 0) return (a->itemGroups & b->itemGroups) != 0;
	const dkFilter* item = a->body >= 0 ? a : b;
	const dkFilter* boundary = a->body >= 0 ? b : a;
	return (item->boundaryGroups & boundary->itemGroups) != 0;
}

static bool candidate(const dkWorld* world, int32_t i, int32_t j, const dkFilter* filters)
{
	const float *a = world->fatAabb + 4 * i, *b = world->fatAabb + 4 * j;
	if (a[0] > b[2] || b[0] > a[2] || a[1] > b[3] || b[1] > a[3]) return false;
	if (!filters[i].active && !filters[j].active) return false;
	return accepts(&filters[i], &filters[j]);
}

static inline int32_t cellOf(float v, float inv)
{
	float f = v * inv;
	int32_t t = (int32_t)f;
	return t - (f < (float)t); // floor without a library call
}

static inline uint64_t cellKey(int32_t cx, int32_t cy)
{
	return ((uint64_t)(uint32_t)(cx + (1 << 30)) << 32) | (uint32_t)(cy + (1 << 30));
}

static bool gridPairs(dkWorld* world, const int32_t* slots, int32_t live, const dkFilter* filters)
{
	const float* box = world->fatAabb;
	double extent = 0;
	for (int32_t p = 0; p < live; ++p) {
		const float* b = box + 4 * slots[p];
		extent += fmaxf(b[2] - b[0], b[3] - b[1]);
	}
	float cell = live > 0 ? (float)(2.0 * extent / live) : 1.0f;
	if (!(cell > 1e-3f)) cell = 1.0f;
	float inv = 1.0f / cell;
	// Large shapes are kept apart; the rest are listed in the cells they touch.
	int32_t* large = malloc((size_t)(live > 0 ? live : 1) * sizeof(int32_t));
	bool* isLarge = calloc((size_t)world->shapeSlots, sizeof(bool));
	int32_t* lowCell = malloc((size_t)world->shapeSlots * 2 * sizeof(int32_t)); // each box's lower cell
	size_t capacity = (size_t)live * 4 + 16, used = 0;
	uint64_t* cells = malloc(capacity * sizeof(uint64_t));
	int32_t* members = malloc(capacity * sizeof(int32_t));
	if (!large || !isLarge || !cells || !members || !lowCell) {
		free(large);
		free(isLarge);
		free(cells);
		free(members);
		free(lowCell);
		return false;
	}
	int32_t largeCount = 0;
	for (int32_t p = 0; p < live; ++p) {
		int32_t slot = slots[p];
		const float* b = box + 4 * slot;
		int32_t x0 = cellOf(b[0], inv), y0 = cellOf(b[1], inv), x1 = cellOf(b[2], inv), y1 = cellOf(b[3], inv);
		lowCell[2 * slot] = x0;
		lowCell[2 * slot + 1] = y0;
		if (x1 - x0 >= 8 || y1 - y0 >= 8) {
			large[largeCount++] = slot;
			isLarge[slot] = true;
			continue;
		}
		for (int32_t cx = x0; cx <= x1; ++cx) {
			for (int32_t cy = y0; cy <= y1; ++cy) {
				if (used == capacity) {
					capacity *= 2;
					uint64_t* grownCells = realloc(cells, capacity * sizeof(uint64_t));
					if (grownCells) cells = grownCells;
					int32_t* grownMembers = grownCells ? realloc(members, capacity * sizeof(int32_t)) : NULL;
					if (grownMembers) members = grownMembers;
					if (!grownCells || !grownMembers) {
						free(large);
						free(isLarge);
						free(cells);
						free(members);
						free(lowCell);
						return false;
					}
				}
				cells[used] = cellKey(cx, cy);
				members[used++] = slot;
			}
		}
	}
	bool ok = dkRadixSort64(cells, members, (int32_t)used); // stable: slots stay in order within a cell
	for (size_t r = 0; r < used;) {
		size_t end = r + 1;
		while (end < used && cells[end] == cells[r]) ++end;
		int32_t cx = (int32_t)(cells[r] >> 32) - (1 << 30), cy = (int32_t)(uint32_t)cells[r] - (1 << 30);
		for (size_t i = r; i < end; ++i) {
			for (size_t j = i + 1; j < end; ++j) {
				int32_t a = members[i], b = members[j];
				if (!candidate(world, a, b, filters)) continue;
				// Report the pair only in the cell of the overlap's lower corner; floor is monotone, so that
				// cell is the larger of the two boxes' lower cells on each axis.
				int32_t ox = lowCell[2 * a] > lowCell[2 * b] ? lowCell[2 * a] : lowCell[2 * b];
				int32_t oy = lowCell[2 * a + 1] > lowCell[2 * b + 1] ? lowCell[2 * a + 1] : lowCell[2 * b + 1];
				if (ox == cx && oy == cy) ok = pushPair(world, a, b) && ok;
			}
		}
		r = end;
	}
	// Large shapes against everything (each large pair once).
	for (int32_t l = 0; l < largeCount; ++l) {
		for (int32_t p = 0; p < live; ++p) {
			int32_t other = slots[p];
			if (other == large[l] || (isLarge[other] && other < large[l])) continue;
			if (candidate(world, large[l], other, filters)) ok = pushPair(world, large[l], other) && ok;
		}
	}
	free(large);
	free(isLarge);
	free(cells);
	free(members);
	free(lowCell);
	return ok;
}

int32_t dkBroadphase_Pairs(dkWorld* world, float dt, bool bruteForce)
{
	int32_t n = world->shapeSlots;
	if (n == 0) {
		world->pairCount = 0;
		return 0;
	}
	if (world->aabbCapacity < n) {
		float* boxes = realloc(world->aabb, (size_t)n * 4 * sizeof(float));
		if (!boxes) return -1;
		world->aabb = boxes;
		float* fat = realloc(world->fatAabb, (size_t)n * 4 * sizeof(float));
		if (!fat) return -1;
		world->fatAabb = fat;
		world->aabbCapacity = n;
		world->pairsValid = false;
	}
	dkFilter* filters = malloc((size_t)n * sizeof(dkFilter));
	int32_t* slots = malloc((size_t)n * sizeof(int32_t));
	if (!filters || !slots) {
		free(filters);
		free(slots);
		return -1;
	}
	// Each item's rotation, once per step (the narrowphase reads it too).
	float** col = world->col;
	for (int32_t i = 0; i < world->count; ++i) {
		col[dkColumnCos][i] = cosf(col[dkColumnAngle][i]);
		col[dkColumnSin][i] = sinf(col[dkColumnAngle][i]);
	}
	int32_t live = 0;
	bool ok = true, contained = world->pairsValid && !bruteForce;
	for (int32_t i = 0; i < n; ++i) {
		const dkShape* s = &world->shapes[i];
		if (!s->alive) continue;
		filters[i] = (dkFilter){s->itemGroups, s->boundaryGroups, s->body, isActive(world, s)};
		float* box = world->aabb + 4 * i;
		computeBox(world, s, dt, box);
		const float* fat = world->fatAabb + 4 * i;
		contained = contained && box[0] >= fat[0] && box[1] >= fat[1] && box[2] <= fat[2] && box[3] <= fat[3];
		slots[live++] = i;
	}
	if (contained) { // nothing left its fat box: last step's pairs still cover every pair of boxes
		free(filters);
		free(slots);
		return world->pairCount;
	}
	world->pairCount = 0;
	for (int32_t p = 0; p < live; ++p) {
		const float* box = world->aabb + 4 * slots[p];
		float* fat = world->fatAabb + 4 * slots[p];
		float margin = world->shapes[slots[p]].body >= 0 ? DK_AABB_MARGIN : 0.0f;
		fat[0] = box[0] - margin;
		fat[1] = box[1] - margin;
		fat[2] = box[2] + margin;
		fat[3] = box[3] + margin;
	}
	if (bruteForce) {
		for (int32_t p = 0; p < live; ++p)
			for (int32_t q = p + 1; q < live; ++q)
				if (candidate(world, slots[p], slots[q], filters)) ok = pushPair(world, slots[p], slots[q]) && ok;
	} else {
		ok = gridPairs(world, slots, live, filters);
	}
	ok = ok && sortPairs(world);
	world->pairsValid = ok && !bruteForce;
	free(filters);
	free(slots);
	return ok ? world->pairCount : -1;
}

static int32_t copyPairs(const dkWorld* world, int32_t found, int32_t* out, int32_t capacity)
{
	if (found < 0) return -1;
	for (int32_t i = 0; i < world->pairCount && i < capacity; ++i) {
		out[2 * i] = world->pairs[2 * i];
		out[2 * i + 1] = world->pairs[2 * i + 1];
	}
	return world->pairCount;
}

int32_t dkWorld_FindPairs(dkWorld* world, int32_t* outPairs, int32_t capacity)
{
	world->pairsValid = false;
	return copyPairs(world, dkBroadphase_Pairs(world, 0.0f, false), outPairs, capacity);
}

int32_t dkWorld_FindPairsBruteForce(dkWorld* world, int32_t* outPairs, int32_t capacity)
{
	return copyPairs(world, dkBroadphase_Pairs(world, 0.0f, true), outPairs, capacity);
}
