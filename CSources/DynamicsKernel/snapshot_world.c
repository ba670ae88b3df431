// SPDX-License-Identifier: Apache-2.0
// Snapshots: the visitor that walks every part of a world that a later step reads, in one order, writing each
// value to the stream or reading it back (snapshot_stream.h). Reading fills a world just made for it
// (snapshot.c): each part's room is reserved before its count is set, so a world whose reading stopped
// halfway is still one dkWorld_Destroy frees. Reading checks what a value alone can say (ranges, bools, enums);
// how the parts point at each other is checked afterwards (snapshot_check.c).
//
// What is not written is what a step makes again from the rest: the pair list and the broadphase's lists and
// grids (the first step after reading finds every pair in a full pass; the pairs are a function of the fat
// boxes, which are written), the query grid, the joint pairs (from the joints), field bounds (from their
// regions), the step's scratch and timings.
#include "snapshot.h"

#include "broadphase.h"
#include "collision.h"
#include "field.h"
#include "island.h"
#include "joint.h"
#include "solver_set.h"

#include <stdlib.h>
#include <string.h>

// The largest count of anything a snapshot may hold: room for it in an int32 index with growth to spare.
#define DK_SNAP_MAX_COUNT (INT32_MAX / 4)

// A count, read in range [0, max].
static int32_t count(dkSnapStream* s, int32_t n, int32_t max, const char* field)
{
	dkSnap_Range(s, &n, 0, max, field);
	return n;
}

// A count of things the stream holds at least `bytesEach` bytes of each: reading, more than the bytes left can
// hold fails as truncated before anything is allocated for them.
static int32_t held(dkSnapStream* s, int32_t n, size_t bytesEach, const char* field)
{
	size_t left = s->reading ? (s->size - s->at) / bytesEach : (size_t)DK_SNAP_MAX_COUNT;
	int32_t max = left < (size_t)DK_SNAP_MAX_COUNT ? (int32_t)left : DK_SNAP_MAX_COUNT;
	dkSnap_I32(s, &n);
	if (s->reading && n > max && n <= DK_SNAP_MAX_COUNT) dkSnap_Fail(s, "length", (double)s->size);
	if (s->reading && (n < 0 || n > max)) {
		dkSnap_Fail(s, field, n);
		n = 0;
	}
	return n;
}

static void itemId(dkSnapStream* s, dkItemId* id)
{
	dkSnap_U32(s, &id->index1);
	dkSnap_U32(s, &id->generation);
}

static void shapeId(dkSnapStream* s, dkShapeId* id)
{
	dkSnap_U32(s, &id->index1);
	dkSnap_U32(s, &id->generation);
}

// An id pool: its next id, then its free ids (the room for them is the store's, reserved by the caller).
static bool idPool(dkSnapStream* s, const dkWorld* world, dkIdPool* pool, int32_t room, const char* field)
{
	int32_t n = count(s, pool->free.count, room, field);
	if (s->reading && !dkIdPool_Reserve(world, pool, room > 0 ? room : 1)) return false;
	pool->free.count = n;
	dkSnap_Ints(s, pool->free.data, (size_t)n);
	return true;
}

// ---- items

static bool items(dkSnapStream* s, dkWorld* world)
{
	int32_t n = held(s, world->count, dkColumnTotal * sizeof(float) + 4 * sizeof(uint32_t), "items.count");
	int32_t awake = count(s, world->awake, n, "items.awake");
	int32_t next = held(s, world->itemIds.next, sizeof(dkSlot) + 4 * sizeof(int32_t), "items.slots");
	if (dkSnap_Failed(s)) return true;
	if (s->reading) {
		// Room for the rows, and for the slots and what runs beside them, as the item store grows them.
		if (!dkStore_ReserveRows(world, n) || !dkSlotArray_Reserve(world, &world->slots, next > 0 ? next : 1)) return false;
		int32_t room = world->slots.capacity;
		if (!dkIslands_Reserve(world, room) || !dkSets_Reserve(world, room) || !dkGraph_Reserve(world, room)) return false;
		world->count = n;
		world->awake = awake;
		world->slots.count = next;
	}
	for (int c = 0; c < dkColumnTotal; ++c) dkSnap_Floats(s, world->col[c], (size_t)n);
	dkSnap_Bytes(s, world->flags, (size_t)n * sizeof(uint32_t));
	dkSnap_Bytes(s, world->slotOf, (size_t)n * sizeof(uint32_t));
	dkSnap_Bytes(s, world->fieldLo, (size_t)n * sizeof(uint32_t));
	dkSnap_Bytes(s, world->fieldHi, (size_t)n * sizeof(uint32_t));
	for (int32_t i = 0; i < next; ++i) {
		dkSnap_I32(s, &world->slots.data[i].dense);
		dkSnap_U32(s, &world->slots.data[i].generation);
	}
	if (s->reading) world->itemIds.next = next;
	if (!idPool(s, world, &world->itemIds, world->slots.capacity, "items.free")) return false;
	dkSnap_Bool(s, &world->hasSnaps, "items.hasSnaps");
	dkSnap_Bool(s, &world->allStill, "items.allStill");
	dkSnap_Bool(s, &world->rotationsCurrent, "items.rotationsCurrent");
	dkSnap_Range(s, &world->kinematicItems, 0, n, "items.kinematic");
	return true;
}

// ---- shapes and boxes

static void shape(dkSnapStream* s, dkShape* sh, int32_t itemSlots)
{
	dkSnap_Index(s, &sh->body, itemSlots, "shapes.body");
	dkSnap_U32(s, &sh->generation);
	dkSnap_Bool(s, &sh->alive, "shapes.alive");
	DK_SNAP_ENUM(s, sh->kind, dkGeometryCircle, dkGeometrySegment, "shapes.kind");
	dkSnap_Range(s, &sh->count, 0, DK_MAX_POLYGON_VERTICES, "shapes.count");
	dkSnap_F32(s, &sh->radius);
	dkSnap_U32(s, &sh->chain);
	dkSnap_I32(s, &sh->tag);
	dkSnap_F32(s, &sh->extent);
	dkSnap_U64(s, &sh->itemGroups);
	dkSnap_U64(s, &sh->boundaryGroups);
	dkSnap_I32(s, &sh->exclusionGroup);
	dkSnap_Floats(s, sh->x, DK_MAX_POLYGON_VERTICES);
	dkSnap_Floats(s, sh->y, DK_MAX_POLYGON_VERTICES);
	dkSnap_Floats(s, sh->nx, DK_MAX_POLYGON_VERTICES);
	dkSnap_Floats(s, sh->ny, DK_MAX_POLYGON_VERTICES);
}

static bool shapes(dkSnapStream* s, dkWorld* world)
{
	int32_t next = held(s, world->shapeIds.next, 4 * DK_MAX_POLYGON_VERTICES * sizeof(float), "shapes.count");
	int32_t live = count(s, world->liveShapes, next, "shapes.live");
	// The box arrays' room, which the broadphase grows (and then finds every pair anew): kept as written, so
	// that it grows after the same shapes as the written world would.
	int32_t boxRoom = count(s, world->aabbCapacity, next + next / 2, "shapes.boxRoom"); // (grown by half)
	if (dkSnap_Failed(s)) return true;
	if (s->reading) {
		if (!dkShapeArray_Reserve(world, &world->shapes, next > 0 ? next : 1) ||
			!dkIdPool_Reserve(world, &world->shapeIds, world->shapes.capacity) ||
			!dkBroadphase_ReserveChanges(world, world->shapes.capacity) || !dkShapeLists_ReserveRoom(world, boxRoom))
			return false;
		world->shapes.count = next;
		world->shapeIds.next = next;
		world->liveShapes = live;
	}
	for (int32_t i = 0; i < next && !dkSnap_Failed(s); ++i) shape(s, &world->shapes.data[i], world->itemIds.next);
	if (!idPool(s, world, &world->shapeIds, world->shapes.capacity, "shapes.free")) return false;
	// The boxes of the slots they have room for (shapes made since the last step may have none yet).
	int32_t boxed = next < boxRoom ? next : boxRoom;
	if (boxed > 0) {
		dkSnap_Floats(s, world->aabb, 4 * (size_t)boxed);
		dkSnap_Floats(s, world->fatAabb, 4 * (size_t)boxed);
		dkSnap_Bytes(s, world->broadphase->fatGeneration, (size_t)boxed * sizeof(uint32_t));
	}
	return true;
}

// ---- contacts

static void manifold(dkSnapStream* s, dkManifold* m)
{
	dkSnap_F32(s, &m->nx);
	dkSnap_F32(s, &m->ny);
	dkSnap_Range(s, &m->count, 0, 2, "contacts.points");
	dkSnap_U32(s, &m->owners);
	for (int p = 0; p < 2; ++p) {
		dkManifoldPoint* q = &m->points[p];
		dkSnap_F32(s, &q->px);
		dkSnap_F32(s, &q->py);
		dkSnap_F32(s, &q->separation);
		dkSnap_F32(s, &m->impulses[p].normal);
		dkSnap_F32(s, &m->impulses[p].tangent);
		dkSnap_U32(s, &q->id);
		dkSnap_F32(s, &q->anchorX);
		dkSnap_F32(s, &q->anchorY);
		dkSnap_F32(s, &q->baseSeparation);
	}
}

static void contact(dkSnapStream* s, dkContact* c, const dkWorld* world)
{
	int32_t shapeSlots = world->shapeIds.next, itemSlots = world->itemIds.next;
	dkSnap_Range(s, &c->shapeA, 0, shapeSlots - 1, "contacts.shapeA");
	dkSnap_Range(s, &c->shapeB, 0, shapeSlots - 1, "contacts.shapeB");
	dkSnap_U32(s, &c->generationA);
	dkSnap_U32(s, &c->generationB);
	dkSnap_Index(s, &c->bodyA, itemSlots, "contacts.bodyA");
	dkSnap_Index(s, &c->bodyB, itemSlots, "contacts.bodyB");
	itemId(s, &c->itemA);
	itemId(s, &c->itemB);
	dkSnap_I32(s, &c->tagA);
	dkSnap_I32(s, &c->tagB);
	dkSnap_F32(s, &c->originX);
	dkSnap_F32(s, &c->originY);
	manifold(s, &c->manifold);
	float* cached[] = {&c->cachedCosA, &c->cachedSinA, &c->cachedCosB, &c->cachedSinB,
					   &c->cachedDx,   &c->cachedDy,   &c->cachedNx,   &c->cachedNy};
	for (int k = 0; k < 8; ++k) dkSnap_F32(s, cached[k]);
	dkSnap_F32(s, &c->extent);
	dkSnap_U8(s, &c->kinds);
	dkSnap_Bool(s, &c->cached, "contacts.cached");
	dkSnap_Bool(s, &c->fresh, "contacts.fresh");
	dkSnap_Bool(s, &c->touching, "contacts.touching");
	dkSnap_U8(s, &c->colour);
	if (c->colour != DK_GRAPH_NONE && c->colour >= DK_LAYOUT_GROUPS) dkSnap_Fail(s, "contacts.colour", c->colour);
	dkSnap_U8(s, &c->colourSides);
	dkSnap_I32(s, &c->place);
}

static bool contactArray(dkSnapStream* s, dkWorld* world, dkContactArray* a, const char* field)
{
	int32_t n = held(s, a->count, 100, field);
	if (dkSnap_Failed(s)) return true;
	if (s->reading) {
		if (n > 0 && !dkContactArray_Reserve(world, a, n)) return false;
		a->count = n;
	}
	for (int32_t i = 0; i < n && !dkSnap_Failed(s); ++i) contact(s, &a->data[i], world);
	return true;
}

// A layout: each group's places held and its holes. (While its places are kept, the places are its
// constraints' and its holes: snapshot_check.c.)
static bool layout(dkSnapStream* s, dkWorld* world, dkConstraintLayout* l, const char* field)
{
	for (int32_t g = 0; g < DK_LAYOUT_GROUPS; ++g) {
		int32_t n = held(s, l->holes[g].count, sizeof(int32_t), field);
		dkSnap_Range(s, &l->used[g], n, DK_SNAP_MAX_COUNT, field);
		if (dkSnap_Failed(s)) return true;
		if (s->reading) {
			if (!dkInt32Array_Reserve(world, &l->holes[g], n > 0 ? n : 1)) return false;
			l->holes[g].count = n;
		}
		dkSnap_Ints(s, l->holes[g].data, (size_t)n);
	}
	dkSnap_I32(s, &l->holeCount);
	dkSnap_I32(s, &l->live);
	dkSnap_I32(s, &l->joined);
	dkSnap_Range(s, &l->reason, dkLayoutKept, dkLayoutJoins, field);
	dkSnap_I32(s, &l->laidOut);
	dkSnap_Bool(s, &l->kept, field);
	return true; // (colourStart and liveEnd: snapshot.c, once the places are checked)
}

static bool events(dkSnapStream* s, dkWorld* world)
{
	dkContactEventArray* a = &world->events;
	int32_t n = held(s, a->count, 36, "events.count");
	if (dkSnap_Failed(s)) return true;
	if (s->reading) {
		if (n > 0 && !dkContactEventArray_Reserve(world, a, n)) return false;
		a->count = n;
	}
	for (int32_t i = 0; i < n && !dkSnap_Failed(s); ++i) {
		dkContactEvent* e = &a->data[i];
		shapeId(s, &e->shapeA);
		shapeId(s, &e->shapeB);
		itemId(s, &e->itemA);
		itemId(s, &e->itemB);
		dkSnap_I32(s, &e->tagA);
		dkSnap_I32(s, &e->tagB);
		dkSnap_F32(s, &e->x);
		dkSnap_F32(s, &e->y);
		dkSnap_Bool(s, &e->began, "events.began");
	}
	return true;
}

static bool contacts(dkSnapStream* s, dkWorld* world)
{
	if (!contactArray(s, world, &world->contacts, "contacts.count") ||
		!contactArray(s, world, &world->restingContacts, "contacts.resting"))
		return false;
	dkSnap_I32(s, &world->manifoldCount);
	dkSnap_I32(s, &world->restingWithPoints);
	// Whether the next contact update sorts (contact.c): it would have after a change since the last one.
	bool sorts = !world->pairsValid || world->restChangeCount > 0 || world->shapeChangeCount > 0;
	dkSnap_Bool(s, &sorts, "contacts.sorts");
	dkSnap_Bool(s, &world->pairsUnchanged, "contacts.pairsUnchanged");
	dkSnap_Bool(s, &world->contactsCoverPairs, "contacts.cover");
	if (s->reading) {
		world->pairsValid = !sorts;
		world->pairsLost = true;
	}
	return layout(s, world, &world->contactLayout, "contacts.layout") && events(s, world);
}

// ---- joints

static void jointParams(dkSnapStream* s, dkJointParams* p)
{
	DK_SNAP_ENUM(s, p->kind, dkJointDistance, dkJointPrismatic, "joints.kind");
	float* f[] = {&p->anchorAx, &p->anchorAy, &p->anchorBx, &p->anchorBy, &p->length, &p->minLength, &p->maxLength,
				  &p->hertz, &p->dampingRatio, &p->lower, &p->upper, &p->maxFrictionTorque, &p->motorSpeed,
				  &p->maxMotorTorque, &p->maxMotorForce, &p->angularHertz, &p->angularDampingRatio, &p->restAngle};
	for (size_t k = 0; k < sizeof f / sizeof f[0]; ++k) dkSnap_F32(s, f[k]);
	dkSnap_Bool(s, &p->rigid, "joints.rigid");
	dkSnap_Bool(s, &p->enableLimit, "joints.enableLimit");
	dkSnap_Bool(s, &p->collideConnected, "joints.collideConnected");
	dkSnap_Bool(s, &p->enableMotor, "joints.enableMotor");
}

static void joint(dkSnapStream* s, dkJoint* j, const dkWorld* world)
{
	int32_t itemSlots = world->itemIds.next;
	dkSnap_Index(s, &j->bodyA, itemSlots, "joints.bodyA");
	dkSnap_Index(s, &j->bodyB, itemSlots, "joints.bodyB");
	dkSnap_U32(s, &j->generation);
	dkSnap_Bool(s, &j->alive, "joints.alive");
	float* f[] = {&j->referenceAngle, &j->referenceTranslation, &j->axisX, &j->axisY, &j->linearX, &j->linearY,
				  &j->axial, &j->axialLower, &j->axialUpper, &j->perp, &j->angular, &j->angleLower, &j->angleUpper,
				  &j->friction, &j->motor, &j->spring};
	for (size_t k = 0; k < sizeof f / sizeof f[0]; ++k) dkSnap_F32(s, f[k]);
	dkSnap_Bool(s, &j->braced, "joints.braced");
	dkSnap_U8(s, &j->colour);
	if (j->colour != DK_GRAPH_NONE && j->colour >= DK_LAYOUT_GROUPS) dkSnap_Fail(s, "joints.colour", j->colour);
	dkSnap_U8(s, &j->colourSides);
	dkSnap_I32(s, &j->set);
	dkSnap_I32(s, &j->awakeIndex);
	dkSnap_I32(s, &j->prevInSet);
	dkSnap_I32(s, &j->nextInSet);
	dkSnap_I32(s, &j->place);
	jointParams(s, &j->def);
}

static bool joints(dkSnapStream* s, dkWorld* world)
{
	int32_t next = held(s, world->jointIds.next, 100, "joints.count");
	if (dkSnap_Failed(s)) return true;
	if (s->reading) {
		if (next > 0 && (!dkJointArray_Reserve(world, &world->joints, next) ||
						 !dkIdPool_Reserve(world, &world->jointIds, world->joints.capacity) ||
						 !dkSets_ReserveJoints(world, world->joints.capacity)))
			return false;
		world->joints.count = next;
		world->jointIds.next = next;
	}
	for (int32_t i = 0; i < next && !dkSnap_Failed(s); ++i) joint(s, &world->joints.data[i], world);
	if (!idPool(s, world, &world->jointIds, world->joints.capacity, "joints.free")) return false;
	dkSnap_Range(s, &world->liveJoints, 0, next, "joints.live");
	dkSnap_Range(s, &world->extraJoints, 0, next, "joints.extra");
	int32_t awake = count(s, world->awakeJoints.count, next, "joints.awake");
	if (dkSnap_Failed(s)) return true;
	if (s->reading) world->awakeJoints.count = awake; // (room for every joint: dkSets_ReserveJoints)
	dkSnap_Ints(s, world->awakeJoints.data, (size_t)awake);
	dkSnap_Bool(s, &world->awakeJointsUnsorted, "joints.unsorted");
	return layout(s, world, &world->jointLayout, "joints.layout");
}

// ---- islands, solver sets, the constraint graph

static bool islands(dkSnapStream* s, dkWorld* world)
{
	int32_t slots = world->itemIds.next;
	dkSnap_Ints(s, world->islandOf, (size_t)slots);
	dkSnap_Ints(s, world->islandNext, (size_t)slots);
	dkSnap_Ints(s, world->islandPrev, (size_t)slots);
	int32_t next = held(s, world->islandIds.next, sizeof(dkIsland), "islands.count");
	if (dkSnap_Failed(s)) return true;
	if (s->reading) {
		if (next > world->islandCapacity && (!dkIslandArray_Reserve(world, &world->islands, next) ||
											 !dkIdPool_Reserve(world, &world->islandIds, next)))
			return false;
		world->islands.count = next;
		world->islandIds.next = next;
	}
	for (int32_t i = 0; i < next; ++i) {
		dkIsland* is = &world->islands.data[i];
		dkSnap_I32(s, &is->head);
		dkSnap_I32(s, &is->tail);
		dkSnap_I32(s, &is->size);
		dkSnap_I32(s, &is->removed);
	}
	int32_t room = next > world->islandCapacity ? next : world->islandCapacity;
	if (!idPool(s, world, &world->islandIds, room, "islands.free")) return false;
	dkSnap_Range(s, &world->liveIslands, 0, next, "islands.live");
	return true;
}

static bool sets(dkSnapStream* s, dkWorld* world)
{
	dkSnap_Ints(s, world->setOf, (size_t)world->itemIds.next);
	int32_t stored = held(s, world->setIds.next, 24, "sets.count");
	if (dkSnap_Failed(s)) return true;
	// A world that never had an item has no sets yet; one read for items has the static and awake sets already
	// (dkSets_Reserve), which is what the written world makes with its first item.
	bool none = s->reading && stored == 0 && world->itemIds.next == 0;
	if (s->reading && !none) {
		if (stored < dkSetFirstResting) return dkSnap_Fail(s, "sets.count", stored), true;
		if (!dkSolverSetArray_Reserve(world, &world->sets, stored) ||
			!dkIdPool_Reserve(world, &world->setIds, world->sets.capacity))
			return false;
		for (int32_t i = world->sets.count; i < stored; ++i) world->sets.data[i] = (dkSolverSet){0};
		world->sets.count = stored;
		world->setIds.next = stored;
	}
	for (int32_t i = 0; i < stored && !dkSnap_Failed(s); ++i) {
		dkSolverSet* set = &world->sets.data[i];
		if (!contactArray(s, world, &set->contacts, "sets.contacts")) return false;
		dkSnap_I32(s, &set->island);
		dkSnap_I32(s, &set->item);
		dkSnap_I32(s, &set->withPoints);
		dkSnap_I32(s, &set->nextReturning);
		dkSnap_I32(s, &set->jointHead);
		dkSnap_Bool(s, &set->returning, "sets.returning");
		dkSnap_Bool(s, &set->woken, "sets.woken");
		dkSnap_Bool(s, &set->alive, "sets.alive");
	}
	if (!idPool(s, world, &world->setIds, world->sets.capacity, "sets.free")) return false;
	dkSnap_I32(s, &world->returningSets);
	dkSnap_I32(s, &world->setContacts);
	dkSnap_I32(s, &world->setWithPoints);
	dkSnap_Bytes(s, world->colourMask, (size_t)world->itemIds.next * sizeof(uint32_t));
	return true;
}

// ---- fields, time, substeps

static bool fields(dkSnapStream* s, dkWorld* world)
{
	bool any = world->fields != NULL;
	dkSnap_Bool(s, &any, "fields.any");
	dkSnap_Range(s, &world->liveFields, 0, DK_MAX_FIELDS, "fields.live");
	if (!any || dkSnap_Failed(s)) return true;
	if (s->reading && !(world->fields = dkAllocZeroed(world, DK_MAX_FIELDS * sizeof(dkField)))) return false;
	for (int32_t slot = 0; slot < DK_MAX_FIELDS && !dkSnap_Failed(s); ++slot) {
		dkField* f = &world->fields[slot];
		dkSnap_U32(s, &f->generation);
		DK_SNAP_ENUM(s, f->def.kind, 0, dkFieldKindCount - 1, "fields.kind");
		float* d[] = {&f->def.positionX, &f->def.positionY, &f->def.strength, &f->def.falloff, &f->def.minimumRadius,
					  &f->def.directionX, &f->def.directionY, &f->def.smoothness, &f->def.animationSpeed};
		for (size_t k = 0; k < sizeof d / sizeof d[0]; ++k) dkSnap_F32(s, d[k]);
		int32_t n = held(s, f->region ? f->regionCount : 0, sizeof(dkRegionInstr), "fields.region"); // (none once destroyed)
		if (dkSnap_Failed(s)) return true;
		if (s->reading && n > 0) {
			if (!(f->region = dkAlloc(world, (size_t)n * sizeof(dkRegionInstr)))) return false;
			f->regionCount = n;
		}
		for (int32_t k = 0; k < n; ++k) {
			dkSnap_I32(s, &f->region[k].op);
			dkSnap_F32(s, &f->region[k].a);
			dkSnap_F32(s, &f->region[k].b);
		}
		dkSnap_Floats(s, f->waveKx, 2 * DK_NOISE_WAVES);
		dkSnap_Floats(s, f->waveKy, 2 * DK_NOISE_WAVES);
		for (int k = 0; k < 2 * DK_NOISE_WAVES; ++k) dkSnap_F64(s, &f->wavePhase[k]);
		for (int k = 0; k < 2 * DK_NOISE_WAVES; ++k) dkSnap_F64(s, &f->waveOmega[k]);
	}
	return true;
}

static void timeAndSubsteps(dkSnapStream* s, dkWorld* world)
{
	dkSnap_Bool(s, &world->customFieldForces, "fields.custom");
	dkSnap_U64(s, &world->seed);
	dkSnap_F64(s, &world->time);
	dkSnap_F32(s, &world->lastSubstep);
	dkSnap_F32(s, &world->configuredSubstep);
	dkSnap_F32(s, &world->substepRatio);
	dkSnap_F32(s, &world->substepKick);
	dkSnap_Range(s, &world->substepLevel, 0, DK_SUBSTEP_LEVELS, "substeps.level");
	dkSnap_F64(s, &world->substepsCalm);
	dkSnap_F64(s, &world->chainTurn);
	dkSnap_Bool(s, &world->anchorMoved, "substeps.anchorMoved");
}

bool dkSnapshot_Visit(dkWorld* world, dkSnapStream* s)
{
	bool ok = items(s, world) && shapes(s, world) && contacts(s, world) && joints(s, world) && islands(s, world) &&
			  sets(s, world) && fields(s, world);
	if (ok) timeAndSubsteps(s, world);
	return ok;
}
