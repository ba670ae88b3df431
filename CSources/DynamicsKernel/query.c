// SPDX-License-Identifier: Apache-2.0
// Entity API: the world's queries (dk_query.h). Candidates come from the query grid (query_index.c), the exact
// answer from the shapes at their poses of the moment (query_geometry.c); results are in slot order (overlaps)
// or by fraction and slot (rays), whatever order the grid gave them in.
#include "dk_query.h"
#include "query_geometry.h"
#include "query_index.h"
#include "team.h"

#include <stdatomic.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

// Every group bit set sees every shape, one in no group included (an item that meets only boundaries).
static bool sees(const dkShape* s, dkQueryFilter filter)
{
	if (!s->alive || (filter.groups != UINT64_MAX && (s->itemGroups & filter.groups) == 0)) return false;
	return s->body >= 0 ? filter.items : filter.boundaries;
}

static dkShapeId shapeId(const dkWorld* world, int32_t slot)
{
	return (dkShapeId){(uint32_t)slot + 1, world->shapes.data[slot].generation};
}

static dkItemId itemOf(const dkWorld* world, int32_t slot)
{
	int32_t body = world->shapes.data[slot].body;
	if (body < 0) return (dkItemId){0, 0};
	return (dkItemId){(uint32_t)body + 1, world->slots.data[body].generation};
}

// The query shape as a placed shape, with outward normals; false (error set) when it is not a valid one.
static bool placeQuery(const dkQueryShape* q, dkPlaced* out, dkError* error)
{
	if (q->count < 1 || q->count > DK_MAX_POLYGON_VERTICES) {
		dkSetError(error, dkResultInvalidValue, -1, "count", q->count);
		return false;
	}
	if (!isfinite(q->radius) || q->radius < 0.0f) {
		dkSetError(error, dkResultInvalidValue, -1, "radius", q->radius);
		return false;
	}
	*out = (dkPlaced){.kind = q->count == 1 ? dkGeometryCircle : dkGeometryPolygon, .count = q->count, .radius = q->radius};
	for (int32_t i = 0; i < q->count; ++i) {
		if (!isfinite(q->x[i]) || !isfinite(q->y[i])) {
			dkSetError(error, dkResultInvalidValue, i, !isfinite(q->x[i]) ? "x" : "y", !isfinite(q->x[i]) ? q->x[i] : q->y[i]);
			return false;
		}
		out->x[i] = q->x[i], out->y[i] = q->y[i];
	}
	if (q->count < 3) return true;
	double area = 0; // twice the signed area: the winding
	for (int32_t i = 0; i < q->count; ++i) {
		int32_t j = i + 1 < q->count ? i + 1 : 0;
		area += (double)q->x[i] * q->y[j] - (double)q->x[j] * q->y[i];
	}
	for (int32_t i = 0; i < q->count; ++i) {
		int32_t j = i + 1 < q->count ? i + 1 : 0, k = j + 1 < q->count ? j + 1 : 0;
		float ex = q->x[j] - q->x[i], ey = q->y[j] - q->y[i], len = sqrtf(ex * ex + ey * ey);
		double turn = (double)ex * (q->y[k] - q->y[j]) - (double)ey * (q->x[k] - q->x[j]);
		if (!(len > 0.0f) || area == 0 || turn * area < 0) { // a repeated point, no area, or a turn the other way
			dkSetError(error, dkResultInvalidValue, i, "convexity", turn);
			return false;
		}
		out->nx[i] = (area > 0 ? ey : -ey) / len; // outward: right of a counter-clockwise edge
		out->ny[i] = (area > 0 ? -ex : ex) / len;
	}
	return true;
}

static int compareSlots(const void* x, const void* y)
{
	int32_t a = *(const int32_t*)x, b = *(const int32_t*)y;
	return (a > b) - (a < b);
}

// The shapes that filter sees and that overlap placed shape q, into `found` (unordered; its contents replaced).
// False when out of memory.
static bool overlapping(const dkWorld* world, const dkQueryIndex* index, const dkPlaced* q, dkQueryFilter filter,
						dkInt32Array* found)
{
	float box[4] = {INFINITY, INFINITY, -INFINITY, -INFINITY};
	for (int32_t i = 0; i < q->count; ++i)
		box[0] = fminf(box[0], q->x[i]), box[1] = fminf(box[1], q->y[i]), box[2] = fmaxf(box[2], q->x[i]), box[3] = fmaxf(box[3], q->y[i]);
	box[0] -= q->radius, box[1] -= q->radius, box[2] += q->radius, box[3] += q->radius;
	found->count = 0;
	if (!dkQueryIndex_Boxes(world, index, box, found)) return false;
	int32_t n = 0;
	for (int32_t k = 0; k < found->count; ++k) {
		if (!sees(&world->shapes.data[found->data[k]], filter)) continue;
		dkPlaced placed;
		dkQueryIndex_Place(world, index, found->data[k], &placed);
		if (dkQuery_Overlaps(q, &placed)) found->data[n++] = found->data[k];
	}
	found->count = n;
	return true;
}

int32_t dkWorld_QueryOverlaps(dkWorld* world, const dkQueryShape* shape, dkQueryFilter filter, dkShapeId* out,
							  int32_t capacity, dkError* error)
{
	dkPlaced q;
	if (!placeQuery(shape, &q, error)) return -1;
	const dkQueryIndex* index = dkQueryIndex_Current(world);
	dkInt32Array found = {0};
	if (!index || !overlapping(world, index, &q, filter, &found)) {
		dkInt32Array_Destroy(world, &found);
		dkSetError(error, dkResultOutOfMemory, -1, "query", world->shapeIds.next);
		return -1;
	}
	int32_t n = found.count;
	if (n > 1) qsort(found.data, (size_t)n, sizeof(int32_t), compareSlots);
	for (int32_t k = 0; k < n && k < capacity; ++k) out[k] = shapeId(world, found.data[k]);
	dkInt32Array_Destroy(world, &found);
	return n;
}

int32_t dkQueryShapes_Overlap(const dkQueryShape* a, const dkQueryShape* b, dkError* error)
{
	dkPlaced pa, pb;
	if (!placeQuery(a, &pa, error) || !placeQuery(b, &pb, error)) return -1;
	return dkQuery_Overlaps(&pa, &pb) ? 1 : 0;
}

typedef struct dkRayTask {
	const dkWorld* world;
	const dkQueryIndex* index;
	dkQueryFilter filter;
	float px, py, dx, dy;
	bool all;
	dkRayResult best; // the first hit so far (without `all`), of shape bestSlot (INT32_MAX: none yet)
	int32_t bestSlot;
	dkRayHit* hits; // every hit (all), grown as needed
	int32_t hitCount, hitCapacity;
	bool failed;
} dkRayTask;

static dkRayHit rayHit(const dkWorld* world, int32_t slot, const dkRayResult* r)
{
	return (dkRayHit){.shape = shapeId(world, slot), .item = itemOf(world, slot), .fraction = r->fraction, .x = r->x,
					  .y = r->y, .nx = r->nx, .ny = r->ny};
}

static float rayVisit(void* context, int32_t slot)
{
	dkRayTask* t = context;
	const dkShape* s = &t->world->shapes.data[slot];
	float limit = t->all ? 1.0f : fminf(t->best.fraction, 1.0f);
	if (!sees(s, t->filter)) return limit;
	dkPlaced placed;
	dkQueryIndex_Place(t->world, t->index, slot, &placed);
	dkRayResult r;
	// Without `all`, only a hit no farther than the first so far matters (an equal one of a lower slot wins).
	if (!dkQuery_RayCast(&placed, t->px, t->py, t->dx, t->dy, limit, &r)) return limit;
	if (!t->all) {
		if (r.fraction < t->best.fraction || (r.fraction == t->best.fraction && slot < t->bestSlot)) {
			t->best = r;
			t->bestSlot = slot;
		}
		return t->best.fraction;
	}
	if (t->hitCount == t->hitCapacity) {
		int32_t cap = dkArray_Grown(t->hitCount + 1);
		dkRayHit* grown = dkResize(t->world, t->hits, (size_t)t->hitCount * sizeof(dkRayHit), (size_t)cap * sizeof(dkRayHit));
		if (!grown) {
			t->failed = true;
			return -1.0f; // stop the walk
		}
		t->hits = grown;
		t->hitCapacity = cap;
	}
	t->hits[t->hitCount++] = rayHit(t->world, slot, &r);
	return 1.0f;
}

static int compareHits(const void* x, const void* y)
{
	const dkRayHit *a = x, *b = y;
	if (a->fraction != b->fraction) return (a->fraction > b->fraction) - (a->fraction < b->fraction);
	return (a->shape.index1 > b->shape.index1) - (a->shape.index1 < b->shape.index1);
}

int32_t dkWorld_RayCast(dkWorld* world, float x0, float y0, float x1, float y1, dkQueryFilter filter, bool all,
						dkRayHit* out, int32_t capacity, dkError* error)
{
	float ends[4] = {x0, y0, x1, y1};
	static const char* const names[4] = {"x0", "y0", "x1", "y1"};
	for (int k = 0; k < 4; ++k) {
		if (!isfinite(ends[k])) {
			dkSetError(error, dkResultInvalidValue, -1, names[k], ends[k]);
			return -1;
		}
	}
	const dkQueryIndex* index = dkQueryIndex_Current(world);
	if (!index) {
		dkSetError(error, dkResultOutOfMemory, -1, "query", world->shapeIds.next);
		return -1;
	}
	dkRayTask t = {.world = world, .index = index, .filter = filter, .px = x0, .py = y0, .dx = x1 - x0, .dy = y1 - y0, .all = all,
				   .best = {.fraction = INFINITY}, .bestSlot = INT32_MAX};
	dkQueryIndex_Ray(index, t.px, t.py, t.dx, t.dy, 1.0f, rayVisit, &t);
	if (t.failed) {
		dkFree(world, t.hits);
		dkSetError(error, dkResultOutOfMemory, -1, "query", world->shapeIds.next);
		return -1;
	}
	if (!all) {
		if (t.bestSlot == INT32_MAX) return 0;
		if (capacity > 0) out[0] = rayHit(world, t.bestSlot, &t.best);
		return 1;
	}
	// A shape listed in several cells was seen in each: sorted by fraction and slot, its copies are neighbours.
	if (t.hitCount > 1) qsort(t.hits, (size_t)t.hitCount, sizeof(dkRayHit), compareHits);
	int32_t n = 0;
	for (int32_t k = 0; k < t.hitCount; ++k)
		if (n == 0 || t.hits[k].shape.index1 != t.hits[n - 1].shape.index1 || t.hits[k].fraction != t.hits[n - 1].fraction)
			t.hits[n++] = t.hits[k];
	for (int32_t k = 0; k < n && k < capacity; ++k) out[k] = t.hits[k];
	dkFree(world, t.hits);
	return n;
}

// The bulk queries run in chunks of DK_QUERY_CHUNK queries that the workers claim; each query writes only its
// own answer, so the answers do not depend on the split.
#define DK_QUERY_CHUNK 256

typedef struct dkBulkTask {
	const dkWorld* world;
	const dkQueryIndex* index;
	dkQueryFilter filter;
	const float *x0, *y0, *x1, *y1; // rays; points: x0, y0
	int32_t count;
	dkRayHit* hits;
	dkShapeId* shapes;
	int32_t* counts;
	atomic_int next;
} dkBulkTask;

static void rayManyTask(void* context, int32_t worker)
{
	(void)worker;
	dkBulkTask* t = context;
	for (int32_t b, e; dkClaimChunk(&t->next, DK_QUERY_CHUNK, t->count, &b, &e);) {
		for (int32_t i = b; i < e; ++i) {
			dkRayTask ray = {.world = t->world, .index = t->index, .filter = t->filter, .px = t->x0[i], .py = t->y0[i], .dx = t->x1[i] - t->x0[i],
							 .dy = t->y1[i] - t->y0[i], .best = {.fraction = INFINITY}, .bestSlot = INT32_MAX};
			dkQueryIndex_Ray(t->index, ray.px, ray.py, ray.dx, ray.dy, 1.0f, rayVisit, &ray);
			t->hits[i] = ray.bestSlot == INT32_MAX ? (dkRayHit){.fraction = 1.0f} : rayHit(t->world, ray.bestSlot, &ray.best);
		}
	}
}

// A bulk point query's exact tests of the shapes whose boxes contain the point: the lowest slot that contains
// it, and how many do.
typedef struct dkPointVisit {
	const dkWorld* world;
	const dkQueryIndex* index;
	dkQueryFilter filter;
	dkPlaced point;
	int32_t first, count;
} dkPointVisit;

static void pointVisit(void* context, int32_t slot)
{
	dkPointVisit* v = context;
	if (!sees(&v->world->shapes.data[slot], v->filter)) return;
	dkPlaced placed;
	dkQueryIndex_Place(v->world, v->index, slot, &placed);
	if (!dkQuery_Overlaps(&v->point, &placed)) return;
	v->first = slot < v->first ? slot : v->first;
	++v->count;
}

static void pointManyTask(void* context, int32_t worker)
{
	(void)worker;
	dkBulkTask* t = context;
	for (int32_t b, e; dkClaimChunk(&t->next, DK_QUERY_CHUNK, t->count, &b, &e);) {
		for (int32_t i = b; i < e; ++i) {
			dkPointVisit v = {.world = t->world, .index = t->index, .filter = t->filter, .first = INT32_MAX,
							  .point = {.kind = dkGeometryCircle, .count = 1, .x = {t->x0[i]}, .y = {t->y0[i]}}};
			dkQueryIndex_Point(t->index, t->x0[i], t->y0[i], pointVisit, &v);
			t->shapes[i] = v.first == INT32_MAX ? (dkShapeId){0, 0} : shapeId(t->world, v.first);
			if (t->counts) t->counts[i] = v.count;
		}
	}
}

static bool finiteAll(const float* v, int32_t count, const char* field, dkError* error)
{
	for (int32_t i = 0; i < count; ++i) {
		if (!isfinite(v[i])) {
			dkSetError(error, dkResultInvalidValue, i, field, v[i]);
			return false;
		}
	}
	return true;
}

static int32_t bulkWorkers(const dkWorld* world, int32_t count)
{
	return count >= 2 * DK_QUERY_CHUNK ? world->def.workerCount : 1;
}

dkResult dkWorld_RayCastMany(dkWorld* world, const float* x0, const float* y0, const float* x1, const float* y1,
							 int32_t count, dkQueryFilter filter, dkRayHit* out, dkError* error)
{
	if (count < 0 || (count > 0 && (!x0 || !y0 || !x1 || !y1 || !out))) {
		dkSetError(error, dkResultInvalidValue, -1, "count", count);
		return dkResultInvalidValue;
	}
	if (!finiteAll(x0, count, "x0", error) || !finiteAll(y0, count, "y0", error) || !finiteAll(x1, count, "x1", error) ||
		!finiteAll(y1, count, "y1", error))
		return dkResultInvalidValue;
	const dkQueryIndex* index = dkQueryIndex_Current(world);
	if (!index) {
		dkSetError(error, dkResultOutOfMemory, -1, "query", world->shapeIds.next);
		return dkResultOutOfMemory;
	}
	dkBulkTask task = {.world = world, .index = index, .filter = filter, .x0 = x0, .y0 = y0, .x1 = x1, .y1 = y1,
					   .count = count, .hits = out};
	atomic_init(&task.next, 0);
	dkRunTasks(world, rayManyTask, &task, bulkWorkers(world, count));
	return dkResultOK;
}

dkResult dkWorld_QueryPointsMany(dkWorld* world, const float* x, const float* y, int32_t count, dkQueryFilter filter,
								 dkShapeId* out, int32_t* counts, dkError* error)
{
	if (count < 0 || (count > 0 && (!x || !y || !out))) {
		dkSetError(error, dkResultInvalidValue, -1, "count", count);
		return dkResultInvalidValue;
	}
	if (!finiteAll(x, count, "x", error) || !finiteAll(y, count, "y", error)) return dkResultInvalidValue;
	const dkQueryIndex* index = dkQueryIndex_Current(world);
	if (!index) {
		dkSetError(error, dkResultOutOfMemory, -1, "query", world->shapeIds.next);
		return dkResultOutOfMemory;
	}
	dkBulkTask task = {.world = world, .index = index, .filter = filter, .x0 = x, .y0 = y, .count = count,
					   .shapes = out, .counts = counts};
	atomic_init(&task.next, 0);
	dkRunTasks(world, pointManyTask, &task, bulkWorkers(world, count));
	return dkResultOK;
}
