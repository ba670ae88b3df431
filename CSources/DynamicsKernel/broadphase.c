// Stage: broadphase. Every step it recomputes each shape's AABB. Item shapes are fattened by the
// speculative distance plus |v|·dt. It then sorts the boxes by their lower x bound and sweeps: a box
// is tested against the following boxes until their lower bound passes its upper bound.
//
// Why sort-and-sweep: it needs no persistent tree, it costs O(n log n + pairs) for the stacked and piled
// scenes measured so far, and its output, sorted by shape slot, does not depend on thread count.
// A uniform grid, for very tall stacks where many boxes share an x range, is the next candidate and will
// be chosen by benchmark.
// A pair needs at least one shape on an awake dynamic item, and the two filters must accept each other.
#include "collision.h"

#include <math.h>
#include <stdlib.h>

typedef struct dkSweepKey {
	float minX;
	int32_t slot;
} dkSweepKey;

static int compareKeys(const void* a, const void* b)
{
	const dkSweepKey *x = a, *y = b;
	if (x->minX != y->minX) return x->minX < y->minX ? -1 : 1;
	return (x->slot > y->slot) - (x->slot < y->slot);
}

static int comparePairs(const void* a, const void* b)
{
	const int32_t *x = a, *y = b;
	if (x[0] != y[0]) return x[0] < y[0] ? -1 : 1;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

// Whether a shape moves this step (belongs to an awake item that is not anchored).
static bool isActive(const dkWorld* world, const dkShape* s)
{
	if (s->body < 0) return false;
	int32_t row = world->slots[s->body].dense;
	return row >= 0 && row < world->awake && world->col[dkColumnInverseMass][row] > 0.0f;
}

static void computeBox(const dkWorld* world, const dkShape* s, float dt, float* box)
{
	float x = 0, y = 0, c = 1, sn = 0, margin = 0;
	if (s->body >= 0) {
		int32_t row = world->slots[s->body].dense;
		x = world->col[dkColumnPositionX][row];
		y = world->col[dkColumnPositionY][row];
		float a = world->col[dkColumnAngle][row];
		c = cosf(a);
		sn = sinf(a);
		float vx = world->col[dkColumnVelocityX][row], vy = world->col[dkColumnVelocityY][row];
		margin = DK_SPECULATIVE_DISTANCE + dt * sqrtf(vx * vx + vy * vy);
	}
	dkPlaced p;
	dkPlaceShape(s, x, y, c, sn, 0, 0, &p);
	float lx = INFINITY, ly = INFINITY, ux = -INFINITY, uy = -INFINITY;
	for (int32_t i = 0; i < p.count; ++i) {
		lx = fminf(lx, p.x[i]);
		ly = fminf(ly, p.y[i]);
		ux = fmaxf(ux, p.x[i]);
		uy = fmaxf(uy, p.y[i]);
	}
	float r = p.radius + margin;
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

static bool candidate(const dkWorld* world, int32_t i, int32_t j, const bool* active)
{
	const float *a = world->aabb + 4 * i, *b = world->aabb + 4 * j;
	if (a[0] > b[2] || b[0] > a[2] || a[1] > b[3] || b[1] > a[3]) return false;
	if (!active[i] && !active[j]) return false;
	return dkShouldCollide(&world->shapes[i], &world->shapes[j]);
}

int32_t dkBroadphase_Pairs(dkWorld* world, float dt, bool bruteForce)
{
	world->pairCount = 0;
	int32_t n = world->shapeSlots;
	if (n == 0) return 0;
	if (world->aabbCapacity < n) {
		float* boxes = realloc(world->aabb, (size_t)n * 4 * sizeof(float));
		if (!boxes) return 0;
		world->aabb = boxes;
		world->aabbCapacity = n;
	}
	bool* active = malloc((size_t)n * sizeof(bool));
	dkSweepKey* keys = malloc((size_t)n * sizeof(dkSweepKey));
	if (!active || !keys) {
		free(active);
		free(keys);
		return 0;
	}
	int32_t live = 0;
	for (int32_t i = 0; i < n; ++i) {
		const dkShape* s = &world->shapes[i];
		active[i] = s->alive && isActive(world, s);
		if (!s->alive) continue;
		computeBox(world, s, dt, world->aabb + 4 * i);
		keys[live++] = (dkSweepKey){world->aabb[4 * i], i};
	}
	if (bruteForce) {
		for (int32_t p = 0; p < live; ++p)
			for (int32_t q = p + 1; q < live; ++q)
				if (candidate(world, keys[p].slot, keys[q].slot, active)) pushPair(world, keys[p].slot, keys[q].slot);
	} else {
		qsort(keys, (size_t)live, sizeof *keys, compareKeys);
		for (int32_t p = 0; p < live; ++p) {
			float upper = world->aabb[4 * keys[p].slot + 2];
			for (int32_t q = p + 1; q < live && keys[q].minX <= upper; ++q)
				if (candidate(world, keys[p].slot, keys[q].slot, active)) pushPair(world, keys[p].slot, keys[q].slot);
		}
	}
	qsort(world->pairs, (size_t)world->pairCount, 2 * sizeof(int32_t), comparePairs);
	free(active);
	free(keys);
	return world->pairCount;
}

static int32_t copyPairs(const dkWorld* world, int32_t* out, int32_t capacity)
{
	for (int32_t i = 0; i < world->pairCount && i < capacity; ++i) {
		out[2 * i] = world->pairs[2 * i];
		out[2 * i + 1] = world->pairs[2 * i + 1];
	}
	return world->pairCount;
}

int32_t dkWorld_FindPairs(dkWorld* world, int32_t* outPairs, int32_t capacity)
{
	dkBroadphase_Pairs(world, 0.0f, false);
	return copyPairs(world, outPairs, capacity);
}

int32_t dkWorld_FindPairsBruteForce(dkWorld* world, int32_t* outPairs, int32_t capacity)
{
	dkBroadphase_Pairs(world, 0.0f, true);
	return copyPairs(world, outPairs, capacity);
}
