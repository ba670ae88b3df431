// SPDX-License-Identifier: Apache-2.0
// Entity storage: collision shapes. Item shapes are kept in the item's frame, boundaries in world
// coordinates. Polygons are validated (convex, simple) and stored counter-clockwise in the usual math
// sense (positive signed area), with outward normals.
#include "collision.h"
#include "island.h"
#include "solver_set.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

dkShapeDef dkDefaultShapeDef(void)
{
	dkShapeDef def;
	memset(&def, 0, sizeof def);
	def.kind = dkGeometryPolygon;
	def.itemGroups = ~(uint64_t)0;
	def.boundaryGroups = ~(uint64_t)0;
	return def;
}

void dkShapes_Destroy(dkWorld* world)
{
	dkShapeArray_Destroy(world, &world->shapes);
	dkIdPool_Destroy(world, &world->shapeIds);
}

// A shape of two vertices (a segment, a capsule's core): edge 0 runs from vertex 0 to 1, edge 1 back, their
// normals opposite. Returns its length (the normals are not finite for a length of 0, which callers refuse).
static float twoSided(dkShape* s, const dkShapeDef* def)
{
	float ex = def->x[1] - def->x[0], ey = def->y[1] - def->y[0];
	float len = sqrtf(ex * ex + ey * ey);
	memcpy(s->x, def->x, 2 * sizeof(float));
	memcpy(s->y, def->y, 2 * sizeof(float));
	s->nx[0] = ey / len;
	s->ny[0] = -ex / len;
	s->nx[1] = -s->nx[0];
	s->ny[1] = -s->ny[0];
	return len;
}

static dkResult invalid(dkError* error, const char* field, int32_t index, double value)
{
	dkSetError(error, dkResultInvalidValue, index, field, value);
	return dkResultInvalidValue;
}

// Stores a validated vertex list in s with positive winding and outward normals, and sets s->count. Repeated
// vertices and vertices in the middle of a straight edge are dropped (they change neither the outline nor
// its mass). Returns false when what remains is not a simple convex polygon of at least 3 vertices; *bad
// is then the input index of the vertex where it fails.
static bool buildPolygon(dkShape* s, const float* x, const float* y, int32_t n, int32_t* bad)
{
	double area = 0;
	for (int32_t i = 0; i < n; ++i) {
		int32_t j = (i + 1) % n;
		area += (double)x[i] * y[j] - (double)x[j] * y[i];
	}
	*bad = 0;
	if (!(fabs(area) > 1e-6)) return false;
	double px[DK_MAX_POLYGON_VERTICES], py[DK_MAX_POLYGON_VERTICES];
	int32_t from[DK_MAX_POLYGON_VERTICES], m = 0;
	for (int32_t i = 0; i < n; ++i) {
		int32_t k = area > 0 ? i : n - 1 - i; // positive winding
		if (m > 0 && fabs(x[k] - px[m - 1]) <= 1e-4 && fabs(y[k] - py[m - 1]) <= 1e-4) continue;
		px[m] = x[k];
		py[m] = y[k];
		from[m++] = k;
	}
	if (m > 1 && fabs(px[0] - px[m - 1]) <= 1e-4 && fabs(py[0] - py[m - 1]) <= 1e-4) m--;
	for (int32_t j = 0; j < m && m > 3;) { // drop vertices where the outline goes straight on
		int32_t i = (j + m - 1) % m, k = (j + 1) % m;
		double ex = px[j] - px[i], ey = py[j] - py[i], fx = px[k] - px[j], fy = py[k] - py[j];
		double cross = ex * fy - ey * fx, dot = ex * fx + ey * fy;
		if (fabs(cross) <= 1e-9 * sqrt((ex * ex + ey * ey) * (fx * fx + fy * fy)) && dot > 0) {
			memmove(px + j, px + j + 1, (size_t)(m - j - 1) * sizeof(double));
			memmove(py + j, py + j + 1, (size_t)(m - j - 1) * sizeof(double));
			memmove(from + j, from + j + 1, (size_t)(m - j - 1) * sizeof(int32_t));
			m--;
			j = 0; // a removal can make the previous vertex straight too
		} else {
			j++;
		}
	}
	if (m < 3) return false;
	double turning = 0;
	for (int32_t i = 0; i < m; ++i) {
		int32_t j = (i + 1) % m, k = (i + 2) % m;
		double ex = px[j] - px[i], ey = py[j] - py[i];
		double fx = px[k] - px[j], fy = py[k] - py[j];
		double len = sqrt(ex * ex + ey * ey);
		double cross = ex * fy - ey * fx;
		if (!(cross > 1e-9 * len * sqrt(fx * fx + fy * fy))) {
			*bad = from[j];
			return false; // a reflex vertex, or a spike that doubles back
		}
		turning += atan2(cross, ex * fx + ey * fy);
		s->x[i] = (float)px[i];
		s->y[i] = (float)py[i];
		s->nx[i] = (float)(ey / len);
		s->ny[i] = (float)(-ex / len);
	}
	s->count = m;
	return fabs(turning - 6.283185307179586) < 1e-3; // a simple convex polygon turns exactly once
}

static bool growShapes(dkWorld* world)
{
	int32_t needed = world->shapeIds.next + (dkIdPool_Reusable(&world->shapeIds) > 0 ? 0 : 1);
	return dkShapeArray_Reserve(world, &world->shapes, needed) &&
		   dkIdPool_Reserve(world, &world->shapeIds, world->shapes.capacity) &&
		   dkBroadphase_ReserveChanges(world, world->shapes.capacity);
}

dkResult dkWorld_CreateShape(dkWorld* world, const dkShapeDef* def, dkShapeId* outId, dkError* error)
{
	dkShape s;
	memset(&s, 0, sizeof s);
	s.body = -1;
	if (def->item.index1 != 0) {
		if (dkStore_Resolve(world, def->item) < 0) {
			dkSetError(error, dkResultStaleId, -1, "item", def->item.index1);
			return dkResultStaleId;
		}
		s.body = (int32_t)def->item.index1 - 1;
	}
	int32_t n = def->count;
	for (int32_t i = 0; i < n && i < DK_MAX_POLYGON_VERTICES; ++i) {
		if (!isfinite(def->x[i]) || fabsf(def->x[i]) > 1e7f) return invalid(error, "vertex.x", i, def->x[i]);
		if (!isfinite(def->y[i]) || fabsf(def->y[i]) > 1e7f) return invalid(error, "vertex.y", i, def->y[i]);
	}
	s.kind = def->kind;
	s.count = n;
	switch (def->kind) {
	case dkGeometryCircle:
		if (n != 1) return invalid(error, "count", -1, n);
		if (!(def->radius >= DK_MIN_SIZE && def->radius <= DK_MAX_SIZE)) return invalid(error, "radius", -1, def->radius);
		s.x[0] = def->x[0];
		s.y[0] = def->y[0];
		s.radius = def->radius;
		break;
	case dkGeometrySegment: {
		if (n != 2) return invalid(error, "count", -1, n);
		float len = twoSided(&s, def);
		if (!(len > 1e-3f)) return invalid(error, "segment length", -1, len);
		s.chain = def->chain & (dkChainPrevious | dkChainNext);
		// The neighbours' far vertices (ghost vertices): vertex 2 before vertex 0, vertex 3 after vertex 1.
		for (int32_t k = 0; k < 2; ++k) {
			if (!(s.chain & (k == 0 ? dkChainPrevious : dkChainNext))) continue;
			float gx = def->x[2 + k], gy = def->y[2 + k], vx = def->x[k], vy = def->y[k];
			const char* field = k == 0 ? "chain previous vertex" : "chain next vertex";
			if (!isfinite(gx) || fabsf(gx) > 1e7f) return invalid(error, field, 0, gx);
			if (!isfinite(gy) || fabsf(gy) > 1e7f) return invalid(error, field, 1, gy);
			float d = sqrtf((gx - vx) * (gx - vx) + (gy - vy) * (gy - vy));
			if (!(d > 1e-3f)) return invalid(error, field, -1, d);
			s.x[2 + k] = gx;
			s.y[2 + k] = gy;
		}
		break;
	}
	case dkGeometryPolygon: {
		// Rounded: the points within `radius` of the convex core (a capsule when the core is a segment).
		if (!(def->radius >= 0.0f && def->radius <= DK_MAX_SIZE)) return invalid(error, "radius", -1, def->radius);
		s.radius = def->radius;
		if (n == 2 && def->radius > 0.0f) { // a capsule
			float len = twoSided(&s, def);
			if (!(len > 1e-3f)) return invalid(error, "capsule length", -1, len);
			break;
		}
		if (n < 3 || n > DK_MAX_POLYGON_VERTICES) return invalid(error, "collisionBoundingPath vertex count", -1, n);
		int32_t bad;
		if (!buildPolygon(&s, def->x, def->y, n, &bad))
			return invalid(error, "collisionBoundingPath (concave or self-intersecting)", bad, n);
		break;
	}
	default: return invalid(error, "kind", -1, def->kind);
	}
	for (int32_t i = 0; s.body >= 0 && i < n; ++i) // a boundary never moves: extent 0
		s.extent = fmaxf(s.extent, sqrtf(s.x[i] * s.x[i] + s.y[i] * s.y[i]) + s.radius);
	if (!growShapes(world)) {
		dkSetError(error, dkResultOutOfMemory, -1, "shapes", world->shapeIds.next);
		return dkResultOutOfMemory;
	}
	// A freed slot's generation advanced when it was freed.
	uint32_t generation = dkIdPool_Reusable(&world->shapeIds) > 0 ? 0 : 1;
	int32_t slot = dkIdPool_Alloc(&world->shapeIds);
	world->shapes.count = world->shapeIds.next;
	if (generation == 0) generation = world->shapes.data[slot].generation;
	s.itemGroups = def->itemGroups;
	s.boundaryGroups = def->boundaryGroups;
	s.exclusionGroup = s.body >= 0 ? def->exclusionGroup : 0;
	s.tag = def->tag;
	s.alive = true;
	s.generation = generation;
	world->shapes.data[slot] = s;
	world->liveShapes++;
	world->revision++; // the query grid is built again (query_index.c)
	dkBroadphase_NoteShape(world, slot);
	*outId = (dkShapeId){(uint32_t)slot + 1, generation};
	return dkResultOK;
}

static dkShape* resolveShape(dkWorld* world, dkShapeId id)
{
	if (id.index1 == 0 || id.index1 > (uint32_t)world->shapeIds.next) return NULL;
	dkShape* s = &world->shapes.data[id.index1 - 1];
	return (s->alive && s->generation == id.generation) ? s : NULL;
}

static void freeShape(dkWorld* world, int32_t slot)
{
	int32_t body = world->shapes.data[slot].body, row = body >= 0 ? world->slots.data[body].dense : -1;
	// A boundary's or an anchored item's contacts may be in any set: those sets' go back to the next merge.
	if (body < 0 || (row >= 0 && !dkIslands_Moves(world, row))) dkSets_ReturnHolding(world, NULL, slot);
	if (row >= 0) dkSets_WakeRow(world, row);
	world->shapes.data[slot].alive = false;
	world->shapes.data[slot].generation++;
	world->revision++;
	dkBroadphase_NoteShape(world, slot);
	dkIdPool_Free(&world->shapeIds, slot);
	world->liveShapes--;
}

dkResult dkWorld_DestroyShape(dkWorld* world, dkShapeId id, dkError* error)
{
	if (!resolveShape(world, id)) {
		dkSetError(error, dkResultStaleId, -1, "shape", id.index1);
		return dkResultStaleId;
	}
	freeShape(world, (int32_t)id.index1 - 1);
	return dkResultOK;
}

void dkShapes_RemoveItem(dkWorld* world, uint32_t slot)
{
	for (int32_t i = 0; i < world->shapeIds.next; ++i)
		if (world->shapes.data[i].alive && world->shapes.data[i].body == (int32_t)slot) freeShape(world, i);
}

void dkShapes_RemoveItems(dkWorld* world, const uint8_t* removed)
{
	for (int32_t i = 0; i < world->shapeIds.next; ++i) {
		const dkShape* s = &world->shapes.data[i];
		if (s->alive && s->body >= 0 && removed[s->body]) freeShape(world, i);
	}
}

void dkWorld_DestroyItemShapes(dkWorld* world, dkItemId item)
{
	if (dkStore_Resolve(world, item) >= 0) dkShapes_RemoveItem(world, item.index1 - 1);
}

// Sets a live shape's groups; one whose groups change wakes its item and is noted for the broadphase.
static void setGroups(dkWorld* world, int32_t slot, uint64_t itemGroups, uint64_t boundaryGroups, int32_t exclusionGroup)
{
	dkShape* s = &world->shapes.data[slot];
	if (s->body < 0) exclusionGroup = 0;
	if (s->itemGroups == itemGroups && s->boundaryGroups == boundaryGroups && s->exclusionGroup == exclusionGroup) return;
	dkBroadphase_NoteShape(world, slot);
	s->itemGroups = itemGroups;
	s->boundaryGroups = boundaryGroups;
	s->exclusionGroup = exclusionGroup;
	if (s->body >= 0 && world->slots.data[s->body].dense >= 0) dkSets_WakeRow(world, world->slots.data[s->body].dense);
}

dkResult dkWorld_SetShapeGroups(dkWorld* world, dkShapeId id, uint64_t itemGroups, uint64_t boundaryGroups,
								dkError* error)
{
	dkShape* s = resolveShape(world, id);
	if (!s) {
		dkSetError(error, dkResultStaleId, -1, "shape", id.index1);
		return dkResultStaleId;
	}
	setGroups(world, (int32_t)id.index1 - 1, itemGroups, boundaryGroups, s->exclusionGroup);
	return dkResultOK;
}

dkResult dkWorld_SetItemShapeGroups(dkWorld* world, const dkItemId* items, const uint64_t* itemGroups,
									const uint64_t* boundaryGroups, const int32_t* exclusionGroups, int32_t count,
									dkError* error)
{
	for (int32_t i = 0; i < count; ++i) {
		if (dkStore_Resolve(world, items[i]) < 0) {
			dkSetError(error, dkResultStaleId, i, "id", items[i].index1);
			return dkResultStaleId;
		}
	}
	int32_t* which = dkAlloc(world, (size_t)(world->itemIds.next > 0 ? world->itemIds.next : 1) * sizeof(int32_t));
	if (!which) {
		dkSetError(error, dkResultOutOfMemory, -1, "count", count);
		return dkResultOutOfMemory;
	}
	for (int32_t i = 0; i < world->itemIds.next; ++i) which[i] = -1;
	for (int32_t k = 0; k < count; ++k) which[items[k].index1 - 1] = k;
	for (int32_t i = 0; i < world->shapeIds.next; ++i) {
		const dkShape* s = &world->shapes.data[i];
		if (!s->alive || s->body < 0 || which[s->body] < 0) continue;
		int32_t k = which[s->body];
		setGroups(world, i, itemGroups[k], boundaryGroups[k], exclusionGroups ? exclusionGroups[k] : s->exclusionGroup);
	}
	dkFree(world, which);
	return dkResultOK;
}

bool dkWorld_ShapeIsValid(dkWorld* world, dkShapeId id) { return resolveShape(world, id) != NULL; }

dkItemId dkWorld_ShapeItem(const dkWorld* world, dkShapeId id)
{
	if (id.index1 == 0 || id.index1 > (uint32_t)world->shapeIds.next) return (dkItemId){0, 0};
	const dkShape* s = &world->shapes.data[id.index1 - 1];
	if (!s->alive || s->generation != id.generation || s->body < 0) return (dkItemId){0, 0};
	return (dkItemId){(uint32_t)s->body + 1, world->slots.data[s->body].generation};
}

void dkPlaceShape(const dkShape* restrict s, float x, float y, float c, float sn, float ox, float oy, dkPlaced* restrict out)
{
	out->kind = s->kind;
	out->count = s->count;
	out->radius = s->radius;
	out->chain = s->chain;
	if (s->count == 4) { // a box: the four vertices and normals in lanes, the same arithmetic as below
		dkF4 cv = {c, c, c, c}, sv = {sn, sn, sn, sn}, tx = {x - ox, x - ox, x - ox, x - ox}, ty = {y - oy, y - oy, y - oy, y - oy};
		dkF4 vx = dkLoad4(s->x), vy = dkLoad4(s->y), nx = dkLoad4(s->nx), ny = dkLoad4(s->ny);
		dkStore4(out->x, (cv * vx - sv * vy) + tx);
		dkStore4(out->y, (sv * vx + cv * vy) + ty);
		dkStore4(out->nx, cv * nx - sv * ny);
		dkStore4(out->ny, sv * nx + cv * ny);
		return;
	}
	// A chained segment's ghost vertices (2 and 3) are placed with it; they have no normals.
	int32_t placed = s->kind == dkGeometrySegment && s->chain != 0 ? 4 : s->count;
	for (int32_t i = 0; i < placed; ++i) {
		out->x[i] = (c * s->x[i] - sn * s->y[i]) + (x - ox);
		out->y[i] = (sn * s->x[i] + c * s->y[i]) + (y - oy);
		if (i >= s->count) continue;
		out->nx[i] = c * s->nx[i] - sn * s->ny[i];
		out->ny[i] = sn * s->nx[i] + c * s->ny[i];
	}
}
