// Stage: broadphase. Every step it recomputes each shape's AABB (item shapes fattened by the speculative
// distance plus |v|·dt). Pairs come from fat boxes (DK_AABB_MARGIN more): while every box stays inside
// its fat box and nothing that changes pairs happened (shapes, groups, anchoring, rest), last step's
// pairs still cover every overlap and are kept. Otherwise it finds the pairs of fat boxes with a grid. The cell is twice the mean box
// extent; a box is listed in every cell it touches (1–4 as a rule), and a pair is reported only by the
// cell holding the lower corner of the two boxes' overlap, so no pair comes twice. Shapes wider than
// 8 cells (long boundaries, giant items) are tested against every box directly.
//
// The per-shape pass and the pair search over cell runs run in parallel chunks; the sorts are serial.
//
// Why a grid: sort-and-sweep on x, the first version, slows down in tall stacks, where a box shares its
// x range with every box of its column (pyramid of 5 050 boxes: 6.5 ms/step sweeping). The grid needs no
// persistent tree and its cost does not depend on the stacking direction. Its output, sorted by shape
// slot, does not depend on the worker count.
// A pair needs at least one shape on an awake dynamic item, and the two filters must accept each other.
#include "collision.h"
#include "radix_sort.h"
#include "trig.h"

#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

// Bits needed for values 0…max.
static int bitsFor(uint32_t max)
{
	int bits = 0;
	while (bits < 32 && (max >> bits) != 0) bits++;
	return bits;
}

// Sorts the pairs by (smaller slot, larger slot); false when out of memory. The key packs the two slots
// into as few bits as the slot count needs (34 for 100 000 shapes), so the sort takes few passes.
static bool sortPairs(dkWorld* world)
{
	int32_t n = world->pairCount;
	uint64_t* keys = malloc((size_t)(n > 0 ? n : 1) * sizeof(uint64_t));
	if (!keys) return false;
	int bits = bitsFor((uint32_t)world->shapeSlots);
	uint64_t mask = ((uint64_t)1 << bits) - 1;
	for (int32_t i = 0; i < n; ++i)
		keys[i] = ((uint64_t)(uint32_t)world->pairs[2 * i] << bits) | (uint32_t)world->pairs[2 * i + 1];
	bool sorted = dkRadixSort64(keys, NULL, n);
	if (sorted) {
		for (int32_t i = 0; i < n; ++i) {
			world->pairs[2 * i] = (int32_t)(keys[i] >> bits);
			world->pairs[2 * i + 1] = (int32_t)(keys[i] & mask);
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

// A cell's sort key: its column and row relative to the lowest ones listed, packed into as few bits as
// the grid needs (about 20 for a 100 000-box pile), in (column, row) order.
typedef struct dkCellKeys {
	int32_t minX, minY;
	int bitsY;
} dkCellKeys;

static inline uint64_t cellKey(const dkCellKeys* k, int32_t cx, int32_t cy)
{
	return ((uint64_t)(uint32_t)(cx - k->minX) << k->bitsY) | (uint32_t)(cy - k->minY);
}

// Pairs within the cell runs [range's first run, range's last run), into the range's own buffer.
#define DK_PAIR_RANGES 64

typedef struct dkPairBuffer {
	int32_t* pairs;
	int32_t count, capacity;
	bool ok;
} dkPairBuffer;

typedef struct dkPairTask {
	dkWorld* world;
	const uint64_t* cells;
	const int32_t* members;
	const int32_t* lowCell;
	const dkFilter* filters;
	const int32_t* runStart;
	dkCellKeys keys;
	int32_t runs, ranges;
	atomic_int next;
	dkPairBuffer buffer[DK_PAIR_RANGES];
} dkPairTask;

static void pairTask(void* context, int32_t worker)
{
	(void)worker;
	dkPairTask* t = context;
	for (;;) {
		int32_t g = atomic_fetch_add(&t->next, 1);
		if (g >= t->ranges) return;
		dkPairBuffer* out = &t->buffer[g];
		*out = (dkPairBuffer){.ok = true};
		int32_t firstRun = (int32_t)((int64_t)t->runs * g / t->ranges);
		int32_t lastRun = (int32_t)((int64_t)t->runs * (g + 1) / t->ranges);
		for (int32_t run = firstRun; run < lastRun && out->ok; ++run) {
			int32_t r = t->runStart[run], end = t->runStart[run + 1];
			int32_t cx = (int32_t)(uint32_t)(t->cells[r] >> t->keys.bitsY) + t->keys.minX;
			int32_t cy = (int32_t)(uint32_t)(t->cells[r] & (((uint64_t)1 << t->keys.bitsY) - 1)) + t->keys.minY;
			for (int32_t i = r; i < end; ++i) {
				for (int32_t j = i + 1; j < end; ++j) {
					int32_t a = t->members[i], b = t->members[j];
					if (!candidate(t->world, a, b, t->filters)) continue;
					// Report the pair only in the cell of the overlap's lower corner; floor is monotone, so
					// that cell is the larger of the two boxes' lower cells on each axis.
					int32_t ox = t->lowCell[2 * a] > t->lowCell[2 * b] ? t->lowCell[2 * a] : t->lowCell[2 * b];
					int32_t oy = t->lowCell[2 * a + 1] > t->lowCell[2 * b + 1] ? t->lowCell[2 * a + 1] : t->lowCell[2 * b + 1];
					if (ox != cx || oy != cy) continue;
					if (out->count == out->capacity) {
						int32_t cap = out->capacity > 0 ? out->capacity * 2 : 256;
						int32_t* grown = realloc(out->pairs, (size_t)cap * 2 * sizeof(int32_t));
						if (!grown) {
							out->ok = false;
							break;
						}
						out->pairs = grown;
						out->capacity = cap;
					}
					out->pairs[2 * out->count] = a;
					out->pairs[2 * out->count + 1] = b;
					out->count++;
				}
			}
		}
	}
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
	bool ok = large && isLarge && cells && members && lowCell;
	int32_t largeCount = 0;
	dkCellKeys keys = {INT32_MAX, INT32_MAX, 0};
	int32_t maxY = INT32_MIN;
	for (int32_t p = 0; ok && p < live; ++p) {
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
		keys.minX = x0 < keys.minX ? x0 : keys.minX;
		keys.minY = y0 < keys.minY ? y0 : keys.minY;
		maxY = y1 > maxY ? y1 : maxY;
	}
	keys.bitsY = maxY >= keys.minY ? bitsFor((uint32_t)maxY - (uint32_t)keys.minY) : 0;
	for (int32_t p = 0; ok && p < live; ++p) {
		int32_t slot = slots[p];
		if (isLarge[slot]) continue;
		const float* b = box + 4 * slot;
		int32_t x0 = lowCell[2 * slot], y0 = lowCell[2 * slot + 1], x1 = cellOf(b[2], inv), y1 = cellOf(b[3], inv);
		for (int32_t cx = x0; ok && cx <= x1; ++cx) {
			for (int32_t cy = y0; ok && cy <= y1; ++cy) {
				if (used == capacity) {
					capacity *= 2;
					uint64_t* grownCells = realloc(cells, capacity * sizeof(uint64_t));
					if (grownCells) cells = grownCells;
					int32_t* grownMembers = grownCells ? realloc(members, capacity * sizeof(int32_t)) : NULL;
					if (grownMembers) members = grownMembers;
					ok = grownCells && grownMembers;
					if (!ok) break;
				}
				cells[used] = cellKey(&keys, cx, cy);
				members[used++] = slot;
			}
		}
	}
	ok = ok && dkRadixSort64(cells, members, (int32_t)used); // stable: slots stay in order within a cell
	// Cell runs, then ranges of runs that workers take, each into its own pair buffer.
	int32_t runs = 0;
	int32_t* runStart = malloc((used + 1) * sizeof(int32_t));
	ok = ok && runStart;
	for (size_t r = 0; ok && r < used; ++r)
		if (r == 0 || cells[r] != cells[r - 1]) runStart[runs++] = (int32_t)r;
	if (runStart) runStart[runs] = (int32_t)used;
	dkPairTask task = {.world = world, .cells = cells, .members = members, .lowCell = lowCell, .filters = filters,
					   .runStart = runStart, .keys = keys, .runs = runs};
	task.ranges = runs < DK_PAIR_RANGES ? (runs > 0 ? runs : 1) : DK_PAIR_RANGES;
	atomic_init(&task.next, 0);
	if (ok) {
		dkRunTasks(world, pairTask, &task, used >= 4096 ? world->def.workerCount : 1);
		for (int32_t g = 0; g < task.ranges; ++g) {
			ok = ok && task.buffer[g].ok;
			for (int32_t k = 0; ok && k < task.buffer[g].count; ++k)
				ok = pushPair(world, task.buffer[g].pairs[2 * k], task.buffer[g].pairs[2 * k + 1]);
			free(task.buffer[g].pairs);
		}
	}
	free(runStart);
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

// The per-step pass over rows and shapes, run by any number of workers: first every item's rotation
// (the narrowphase reads it too), then each live shape's box, filter and whether it left its fat box.
// Workers claim chunks; the shape phase starts once every rotation chunk is done.
#define DK_BOX_CHUNK 2048

typedef struct dkBoxTask {
	dkWorld* world;
	dkFilter* filters;
	float dt;
	int32_t shapes;
	atomic_int rowNext, rowDone, shapeNext, escaped;
} dkBoxTask;

static void boxTask(void* context, int32_t worker)
{
	(void)worker;
	dkBoxTask* t = context;
	dkWorld* world = t->world;
	float** col = world->col;
	int32_t rows = world->count, rowChunks = (rows + DK_BOX_CHUNK - 1) / DK_BOX_CHUNK;
	for (;;) {
		int32_t chunk = atomic_fetch_add(&t->rowNext, 1);
		if (chunk >= rowChunks) break;
		int32_t e = (chunk + 1) * DK_BOX_CHUNK < rows ? (chunk + 1) * DK_BOX_CHUNK : rows;
		for (int32_t i = chunk * DK_BOX_CHUNK; i < e; ++i) {
			dkSinCos(col[dkColumnAngle][i], &col[dkColumnSin][i], &col[dkColumnCos][i]);
		}
		atomic_fetch_add(&t->rowDone, 1);
	}
	while (atomic_load_explicit(&t->rowDone, memory_order_acquire) < rowChunks) {}
	for (;;) {
		int32_t b = atomic_fetch_add(&t->shapeNext, DK_BOX_CHUNK);
		if (b >= t->shapes) return;
		int32_t e = b + DK_BOX_CHUNK < t->shapes ? b + DK_BOX_CHUNK : t->shapes;
		bool escaped = false;
		for (int32_t i = b; i < e; ++i) {
			const dkShape* s = &world->shapes[i];
			if (!s->alive) continue;
			t->filters[i] = (dkFilter){s->itemGroups, s->boundaryGroups, s->body, isActive(world, s)};
			float* box = world->aabb + 4 * i;
			computeBox(world, s, t->dt, box);
			const float* fat = world->fatAabb + 4 * i;
			escaped = escaped || box[0] < fat[0] || box[1] < fat[1] || box[2] > fat[2] || box[3] > fat[3];
		}
		if (escaped) atomic_store(&t->escaped, 1);
	}
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
	// Rotations, boxes, filters and the fat-box check, in parallel blocks.
	dkBoxTask task = {.world = world, .filters = filters, .dt = dt, .shapes = n};
	atomic_init(&task.rowNext, 0);
	atomic_init(&task.rowDone, 0);
	atomic_init(&task.shapeNext, 0);
	atomic_init(&task.escaped, 0);
	dkRunTasks(world, boxTask, &task, n >= 2 * DK_BOX_CHUNK ? world->def.workerCount : 1);
	int32_t live = 0;
	bool ok = true, contained = world->pairsValid && !bruteForce && atomic_load(&task.escaped) == 0;
	for (int32_t i = 0; i < n; ++i)
		if (world->shapes[i].alive) slots[live++] = i;
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
