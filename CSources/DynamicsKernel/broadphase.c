// SPDX-License-Identifier: Apache-2.0
// Stage: broadphase. Every step it recomputes each shape's AABB (item shapes fattened by the speculative
// distance plus |v|·dt). Pairs come from fat boxes (DK_AABB_MARGIN more): while every box stays inside
// its fat box and nothing that changes pairs happened (shapes, groups, anchoring, rest), last step's
// pairs still cover every overlap and are kept. Otherwise it finds the pairs of fat boxes with a uniform
// grid (pair_grid.c), whose output is sorted by shape slot and does not depend on the worker count.
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
#include "collision.h"
#include "joint.h"
#include "team.h"

#include <math.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

// Whether a shape moves this step (belongs to an awake item that is not anchored).
static bool isActive(const dkWorld* world, const dkShape* s)
{
	if (s->body < 0) return false;
	int32_t row = world->slots[s->body].dense;
	return row >= 0 && row < world->awake && world->col[dkColumnInverseMass][row] > 0.0f;
}

// The AABB of a shape at its item's pose (rotation from the step's cached cos/sin columns), and its
// motion (the narrowphase's use).
static void computeBox(const dkWorld* world, const dkShape* s, float dt, float* box, float* motion)
{
	float x = 0, y = 0, c = 1, sn = 0, vx = 0, vy = 0, margin = 0;
	if (s->body >= 0) {
		int32_t row = world->slots[s->body].dense;
		x = world->col[dkColumnPositionX][row];
		y = world->col[dkColumnPositionY][row];
		c = world->col[dkColumnCos][row];
		sn = world->col[dkColumnSin][row];
		vx = world->col[dkColumnVelocityX][row];
		vy = world->col[dkColumnVelocityY][row];
		margin = DK_SPECULATIVE_DISTANCE + dt * sqrtf(vx * vx + vy * vy);
	}
	motion[0] = vx;
	motion[1] = vy;
	motion[2] = margin;
	motion[3] = 0;
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

// The per-step pass over rows and shapes, run by any number of workers: first every item's rotation
// (the narrowphase reads it too), then each live shape's box, filter and whether it left its fat box.
// Workers claim chunks; the shape phase starts once every rotation chunk is done.
#define DK_BOX_CHUNK 512 // 2048 split the pyramid's 5 051 shapes 2:1 between two workers
// The shape records are 304 bytes apart, and the hardware prefetcher did not keep up with them: the first
// read of each record was most of the pass. The pass asks for the record this many shapes ahead.
#define DK_BOX_AHEAD 16

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
	int32_t rows = world->count, rowChunks = (rows + DK_BOX_CHUNK - 1) / DK_BOX_CHUNK;
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
		for (int32_t i = b; i < e; ++i) {
			const dkShape* s = &world->shapes[i];
			if (i + DK_BOX_AHEAD < e) { // a box's pass reads the record's first two lines
				__builtin_prefetch((const char*)(s + DK_BOX_AHEAD));
				__builtin_prefetch((const char*)(s + DK_BOX_AHEAD) + 64);
			}
			t->filters[i].alive = s->alive;
			if (!s->alive) continue;
			t->filters[i] = (dkFilter){s->itemGroups, s->boundaryGroups, s->body, true, isActive(world, s),
									   dkJointPairs_HasSlot(world, s->body)};
			float* box = world->aabb + 4 * i;
			computeBox(world, s, t->dt, box, world->motion + 4 * i);
			const float* fat = world->fatAabb + 4 * i;
			escaped = escaped || box[0] < fat[0] || box[1] < fat[1] || box[2] > fat[2] || box[3] > fat[3];
		}
		if (escaped) atomic_store(&t->escaped, 1);
	}
}

// New fat boxes for the live shapes, in parallel blocks: item boxes grow by DK_AABB_MARGIN, boundaries
// do not move and keep their own.
typedef struct dkFatTask {
	dkWorld* world;
	const int32_t* slots;
	const dkFilter* filters;
	int32_t live;
	atomic_int next;
} dkFatTask;

static void fatTask(void* context, int32_t worker)
{
	(void)worker;
	dkFatTask* t = context;
	for (int32_t b, e; dkClaimChunk(&t->next, DK_BOX_CHUNK, t->live, &b, &e);) {
		for (int32_t p = b; p < e; ++p) {
			int32_t slot = t->slots[p];
			const float* box = t->world->aabb + 4 * slot;
			float* fat = t->world->fatAabb + 4 * slot;
			float margin = t->filters[slot].body >= 0 ? DK_AABB_MARGIN : 0.0f;
			fat[0] = box[0] - margin;
			fat[1] = box[1] - margin;
			fat[2] = box[2] + margin;
			fat[3] = box[3] + margin;
		}
	}
}

int32_t dkBroadphase_Pairs(dkWorld* world, float dt, bool bruteForce)
{
	int32_t n = world->shapeSlots;
	world->pairsReused = false;
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
		float* motion = realloc(world->motion, (size_t)n * 4 * sizeof(float));
		if (!motion) return -1;
		world->motion = motion;
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
	dkRunTasks(world, boxTask, &task, n >= DK_MIN_PARALLEL_SHAPES ? world->def.workerCount : 1);
	world->rotationsCurrent = true;
	int32_t live = 0;
	bool ok = true, contained = world->pairsValid && !bruteForce && atomic_load(&task.escaped) == 0;
	for (int32_t i = 0; i < n; ++i)
		if (filters[i].alive) slots[live++] = i;
	if (contained) { // nothing left its fat box: last step's pairs still cover every pair of boxes
		free(filters);
		free(slots);
		world->pairsReused = true;
		return world->pairCount;
	}
	dkFatTask fatten = {.world = world, .slots = slots, .filters = filters, .live = live};
	atomic_init(&fatten.next, 0);
	dkRunTasks(world, fatTask, &fatten, live >= 2 * DK_BOX_CHUNK ? world->def.workerCount : 1);
	if (bruteForce) { // every pair in slot order, which is the sorted order
		world->pairCount = 0;
		for (int32_t p = 0; p < live; ++p)
			for (int32_t q = p + 1; q < live; ++q)
				if (dkCandidate(world, slots[p], slots[q], filters)) ok = pushPair(world, slots[p], slots[q]) && ok;
	} else {
		ok = dkPairGrid_Find(world, slots, live, filters);
	}
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
