// SPDX-License-Identifier: Apache-2.0
// Entity storage: items as SoA float columns (64-byte aligned, capacity a multiple of DK_PAD), ids with
// generations, swap-remove, and the awake/resting partition: rows [0, awake) are awake, the rest rest.
// Every bulk call validates all of its input before it changes anything.
#include "collision.h"
#include "island.h"
#include "joint.h"
#include "solver_set.h"
#include "trig.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

// Bytes of a column of `capacity` floats: a whole number of alignment units, at least one.
static size_t columnBytes(int32_t capacity)
{
	size_t bytes = ((size_t)capacity * sizeof(float) + DK_ALIGN - 1) / DK_ALIGN * DK_ALIGN;
	return bytes ? bytes : DK_ALIGN;
}

float* dkAllocUnsetColumn(const dkWorld* world, int32_t capacity) { return dkAllocAligned(world, columnBytes(capacity)); }

float* dkAllocColumn(const dkWorld* world, int32_t capacity)
{
	float* p = dkAllocUnsetColumn(world, capacity);
	if (p) memset(p, 0, columnBytes(capacity));
	return p;
}

void dkFreeColumn(const dkWorld* world, void* column) { dkFree(world, column); }

void dkStore_Destroy(dkWorld* world)
{
	for (int c = 0; c < dkColumnTotal; ++c) dkFreeColumn(world, world->col[c]);
	dkFreeColumn(world, world->flags);
	dkFreeColumn(world, world->slotOf);
	dkFreeColumn(world, world->fieldLo);
	dkFreeColumn(world, world->fieldHi);
	dkSlotArray_Destroy(world, &world->slots);
	dkIdPool_Destroy(world, &world->itemIds);
}

// Grows every column to hold `needed` rows; on failure nothing changes.
static bool growRows(dkWorld* world, int32_t needed)
{
	if (needed <= world->capacity) return true;
	int64_t cap = world->capacity > 0 ? world->capacity : DK_PAD;
	while (cap < needed) cap *= 2;
	if (cap > INT32_MAX - DK_PAD) return false;
	cap = (cap + DK_PAD - 1) / DK_PAD * DK_PAD;
	// The float columns, then four uint32 arrays: flags, slotOf, fieldLo, fieldHi.
	float* fresh[dkColumnTotal + 4] = {0};
	bool ok = true;
	for (int c = 0; c < dkColumnTotal + 4 && ok; ++c) ok = (fresh[c] = dkAllocColumn(world, (int32_t)cap)) != NULL;
	if (!ok) {
		for (int c = 0; c < dkColumnTotal + 4; ++c) dkFreeColumn(world, fresh[c]);
		return false;
	}
	size_t used = (size_t)world->count * sizeof(float);
	for (int c = 0; c < dkColumnTotal; ++c) {
		if (world->col[c]) memcpy(fresh[c], world->col[c], used);
		dkFreeColumn(world, world->col[c]);
		world->col[c] = fresh[c];
	}
	if (world->flags) memcpy(fresh[dkColumnTotal], world->flags, used);
	if (world->slotOf) memcpy(fresh[dkColumnTotal + 1], world->slotOf, used);
	if (world->fieldLo) memcpy(fresh[dkColumnTotal + 2], world->fieldLo, used);
	if (world->fieldHi) memcpy(fresh[dkColumnTotal + 3], world->fieldHi, used);
	dkFreeColumn(world, world->flags);
	dkFreeColumn(world, world->slotOf);
	dkFreeColumn(world, world->fieldLo);
	dkFreeColumn(world, world->fieldHi);
	world->flags = (uint32_t*)fresh[dkColumnTotal];
	world->slotOf = (uint32_t*)fresh[dkColumnTotal + 1];
	world->fieldLo = (uint32_t*)fresh[dkColumnTotal + 2];
	world->fieldHi = (uint32_t*)fresh[dkColumnTotal + 3];
	world->capacity = (int32_t)cap;
	return true;
}

bool dkStore_ReserveRows(dkWorld* world, int32_t rows) { return growRows(world, rows); }

// Makes room for `extra` new slots; false when out of memory (what grew keeps its contents).
static bool growSlots(dkWorld* world, int32_t extra)
{
	int64_t reusable = dkIdPool_Reusable(&world->itemIds);
	int64_t needed = (int64_t)world->itemIds.next + (extra > reusable ? extra - reusable : 0);
	if (needed > INT32_MAX / 2) return false;
	// Each part reserves for itself, so what grew before a failure stays, and the next call grows the rest.
	if (!dkSlotArray_Reserve(world, &world->slots, (int32_t)needed)) return false;
	int32_t capacity = world->slots.capacity;
	return dkIdPool_Reserve(world, &world->itemIds, capacity) && dkIslands_Reserve(world, capacity) &&
		   dkSets_Reserve(world, capacity) &&
		   dkGraph_Reserve(world, capacity);
}

int32_t dkStore_Resolve(const dkWorld* world, dkItemId id)
{
	if (id.index1 == 0 || id.index1 > (uint32_t)world->itemIds.next) return -1;
	const dkSlot* s = &world->slots.data[id.index1 - 1];
	if (s->dense < 0 || s->generation != id.generation) return -1;
	return s->dense;
}

void dkStore_MoveRow(dkWorld* world, int32_t dst, int32_t src)
{
	if (dst == src) return;
	for (int c = 0; c < dkColumnTotal; ++c) world->col[c][dst] = world->col[c][src];
	world->flags[dst] = world->flags[src];
	world->fieldLo[dst] = world->fieldLo[src];
	world->fieldHi[dst] = world->fieldHi[src];
	world->slotOf[dst] = world->slotOf[src];
	world->slots.data[world->slotOf[dst]].dense = dst;
}

void dkStore_SwapRows(dkWorld* world, int32_t a, int32_t b)
{
	if (a == b) return;
	for (int c = 0; c < dkColumnTotal; ++c) {
		float t = world->col[c][a];
		world->col[c][a] = world->col[c][b];
		world->col[c][b] = t;
	}
	uint32_t f = world->flags[a];
	world->flags[a] = world->flags[b];
	world->flags[b] = f;
	f = world->fieldLo[a];
	world->fieldLo[a] = world->fieldLo[b];
	world->fieldLo[b] = f;
	f = world->fieldHi[a];
	world->fieldHi[a] = world->fieldHi[b];
	world->fieldHi[b] = f;
	uint32_t s = world->slotOf[a];
	world->slotOf[a] = world->slotOf[b];
	world->slotOf[b] = s;
	world->slots.data[world->slotOf[a]].dense = a;
	world->slots.data[world->slotOf[b]].dense = b;
}

void dkStore_Rotations(dkWorld* world, int32_t b, int32_t e)
{
	float** col = world->col;
	for (int32_t i = b; i < e; ++i) dkSinCos(col[dkColumnAngle][i], &col[dkColumnSin][i], &col[dkColumnCos][i]);
}

void dkStore_WakeRow(dkWorld* world, int32_t row)
{
	world->col[dkColumnSleepTime][row] = 0.0f;
	if (row >= world->awake) {
		dkSets_NoteChange(world, (int32_t)world->slotOf[row]); // a resting item moves again: its pairs count again
		dkStore_SwapRows(world, row, world->awake);
		row = world->awake++;
	}
	world->flags[row] &= ~(uint32_t)dkItemResting;
}

static bool finite(double v) { return isfinite(v); }

static dkResult validateDef(const dkItemDef* def, dkError* error)
{
	if (def->shape != dkShapeRectangle && def->shape != dkShapeEllipse && def->shape != dkShapeCompound) {
		dkSetError(error, dkResultInvalidValue, -1, "shape", def->shape);
		return dkResultInvalidValue;
	}
	uint32_t known = dkItemAnchored | dkItemFixedRotation | dkItemKinematic;
	if ((def->flags & ~known) != 0 || (def->flags & (dkItemAnchored | dkItemKinematic)) == (dkItemAnchored | dkItemKinematic)) {
		dkSetError(error, dkResultInvalidValue, -1, "flags", def->flags);
		return dkResultInvalidValue;
	}
	struct {
		const char* name;
		float v;
		bool ok;
	} checks[] = {
		{"width", def->width, finite(def->width) && def->width >= DK_MIN_SIZE && def->width <= DK_MAX_SIZE},
		{"height", def->height, finite(def->height) && def->height >= DK_MIN_SIZE && def->height <= DK_MAX_SIZE},
		{"density", def->density, finite(def->density) && def->density >= DK_MIN_DENSITY && def->density <= DK_MAX_DENSITY},
		{"resistance", def->linearDamping, finite(def->linearDamping) && def->linearDamping >= 0},
		{"angularResistance", def->angularDamping, finite(def->angularDamping) && def->angularDamping >= 0},
		{"elasticity", def->elasticity, finite(def->elasticity) && def->elasticity >= 0 && def->elasticity <= 1},
		{"friction", def->friction, finite(def->friction) && def->friction >= 0},
		{"charge", def->charge, finite(def->charge)},
		{"mass", def->mass, def->shape != dkShapeCompound || (finite(def->mass) && def->mass > 0)},
		{"inertia", def->inertia, def->shape != dkShapeCompound || (finite(def->inertia) && def->inertia > 0)},
	};
	for (size_t k = 0; k < sizeof checks / sizeof checks[0]; ++k) {
		if (!checks[k].ok) {
			dkSetError(error, dkResultInvalidValue, -1, checks[k].name, checks[k].v);
			return dkResultInvalidValue;
		}
	}
	// The mass and inertia they give (and their inverses) must be normal floats: a positive size and
	// density can still give a mass of 0 or ∞, or an inertia whose inverse overflows, at Float precision.
	float m, inertia;
	dkShapeMass(def, &m, &inertia);
	if (!isnormal(m) || !isfinite(1.0f / m)) {
		dkSetError(error, dkResultInvalidValue, -1, "mass", m);
		return dkResultInvalidValue;
	}
	if (!isnormal(inertia) || !isfinite(1.0f / inertia)) {
		dkSetError(error, dkResultInvalidValue, -1, "inertia", inertia);
		return dkResultInvalidValue;
	}
	return dkResultOK;
}

// Writes the shape, mass and flag columns of a row from a definition.
static void writeMassRow(dkWorld* world, int32_t row, const dkItemDef* def)
{
	float m, inertia;
	dkShapeMass(def, &m, &inertia);
	float** c = world->col;
	bool anchored = (def->flags & dkItemAnchored) != 0, kinematic = (def->flags & dkItemKinematic) != 0;
	bool fixedRotation = anchored || (def->flags & dkItemFixedRotation) != 0;
	c[dkColumnWidth][row] = def->width;
	c[dkColumnHeight][row] = def->height;
	c[dkColumnDensity][row] = def->density;
	c[dkColumnMass][row] = m;
	c[dkColumnInertia][row] = inertia;
	// A kinematic item keeps its mass and inertia for the host to read, but no constraint moves it, and
	// nothing slows it down.
	c[dkColumnInverseMass][row] = anchored || kinematic ? 0.0f : 1.0f / m;
	c[dkColumnInverseInertia][row] = fixedRotation || kinematic ? 0.0f : 1.0f / inertia;
	if (anchored) {
		c[dkColumnVelocityX][row] = 0.0f;
		c[dkColumnVelocityY][row] = 0.0f;
	}
	if (fixedRotation) c[dkColumnAngularVelocity][row] = 0.0f;
	if (kinematic) c[dkColumnLinearDamping][row] = c[dkColumnAngularDamping][row] = 0.0f;
	world->kinematicItems += (kinematic ? 1 : 0) - ((world->flags[row] & dkItemKinematic) ? 1 : 0);
	world->flags[row] = (world->flags[row] & dkItemResting) | (def->flags & (dkItemAnchored | dkItemFixedRotation | dkItemKinematic));
}

dkResult dkWorld_CreateItems(dkWorld* world, const dkItemDef* def, const float* x, const float* y,
							 const float* angle, int32_t count, dkItemId* outIds, dkError* error)
{
	if (count < 0 || (count > 0 && (!x || !y || !outIds))) {
		dkSetError(error, dkResultInvalidValue, -1, "count", count);
		return dkResultInvalidValue;
	}
	dkResult r = validateDef(def, error);
	if (r != dkResultOK) return r;
	for (int32_t i = 0; i < count; ++i) {
		const char* bad = !(finite(x[i]) && fabsf(x[i]) <= DK_MAX_COORDINATE)	 ? "position.x"
						  : !(finite(y[i]) && fabsf(y[i]) <= DK_MAX_COORDINATE) ? "position.y"
						  : (angle && !finite(angle[i]))						 ? "angle"
																				 : NULL;
		if (bad) {
			double v = bad[0] == 'a' ? angle[i] : bad[9] == 'x' ? x[i] : y[i];
			dkSetError(error, dkResultInvalidValue, i, bad, v);
			return dkResultInvalidValue;
		}
	}
	if ((int64_t)world->count + count > INT32_MAX - 2 * DK_PAD || !growRows(world, world->count + count) ||
		!growSlots(world, count)) {
		dkSetError(error, dkResultOutOfMemory, -1, "count", count);
		return dkResultOutOfMemory;
	}
	for (int32_t i = 0; i < count; ++i) {
		// The new row joins the awake range: the first resting row moves to the end to make room.
		int32_t row = world->awake;
		if (world->count > world->awake) dkStore_MoveRow(world, world->count, world->awake);
		world->count++;
		world->awake++;
		bool fresh = dkIdPool_Reusable(&world->itemIds) == 0;
		int32_t slot = dkIdPool_Alloc(&world->itemIds);
		world->slots.count = world->itemIds.next;
		if (fresh) world->slots.data[slot].generation = 1; // a freed slot's generation advanced when it was freed
		world->slots.data[slot].dense = row;
		world->slotOf[row] = (uint32_t)slot;
		dkIslands_Clear(world, slot);
		dkSets_Clear(world, slot);
		for (int c = 0; c < dkColumnTotal; ++c) world->col[c][row] = 0.0f;
		world->flags[row] = 0;
		world->fieldLo[row] = 0;
		world->fieldHi[row] = 0;
		float** c = world->col;
		c[dkColumnPositionX][row] = x[i];
		c[dkColumnPositionY][row] = y[i];
		c[dkColumnAngle][row] = angle ? angle[i] : 0.0f;
		c[dkColumnLinearDamping][row] = def->linearDamping;
		c[dkColumnAngularDamping][row] = def->angularDamping;
		c[dkColumnElasticity][row] = def->elasticity;
		c[dkColumnFriction][row] = def->friction;
		c[dkColumnCharge][row] = def->charge;
		writeMassRow(world, row, def);
		outIds[i] = (dkItemId){(uint32_t)slot + 1, world->slots.data[slot].generation};
	}
	world->revision++; // the query grid is built again (query_index.c)
	return dkResultOK;
}

// Resolves every id to a row, rejecting stale and repeated ids. `rows` has room for count entries.
static dkResult resolveAll(const dkWorld* world, const dkItemId* ids, int32_t count, int32_t* rows, dkError* error)
{
	if (count < 0 || (count > 0 && !ids)) {
		dkSetError(error, dkResultInvalidValue, -1, "count", count);
		return dkResultInvalidValue;
	}
	for (int32_t i = 0; i < count; ++i) {
		rows[i] = dkStore_Resolve(world, ids[i]);
		if (rows[i] < 0) {
			dkSetError(error, dkResultStaleId, i, "id", ids[i].index1);
			return dkResultStaleId;
		}
	}
	return dkResultOK;
}

dkResult dkStore_WithRows(const dkWorld* world, const dkItemId* ids, int32_t count, int32_t** rows, dkError* error)
{
	*rows = dkAlloc(world, (size_t)(count > 0 ? count : 1) * sizeof(int32_t));
	if (!*rows) {
		dkSetError(error, dkResultOutOfMemory, -1, "count", count);
		return dkResultOutOfMemory;
	}
	dkResult r = resolveAll(world, ids, count, *rows, error);
	if (r != dkResultOK) {
		dkFree(world, *rows);
		*rows = NULL;
	}
	return r;
}

dkResult dkWorld_RemoveItems(dkWorld* world, const dkItemId* ids, int32_t count, dkError* error)
{
	int32_t* rows;
	dkResult r = dkStore_WithRows(world, ids, count, &rows, error);
	if (r != dkResultOK) return r;
	// Repeated ids: mark each row once in a scratch bitmap.
	uint8_t* seen = dkAllocZeroed(world, (size_t)world->count + 1);
	if (!seen) {
		dkFree(world, rows);
		dkSetError(error, dkResultOutOfMemory, -1, "count", count);
		return dkResultOutOfMemory;
	}
	for (int32_t i = 0; i < count; ++i) {
		if (seen[rows[i]]++) {
			dkFree(world, seen);
			dkFree(world, rows);
			dkSetError(error, dkResultDuplicateId, i, "id", ids[i].index1);
			return dkResultDuplicateId;
		}
	}
	dkFree(world, seen);
	dkFree(world, rows);
	bool linked = world->liveShapes > 0 || world->liveJoints > 0 || dkSets_RestingContacts(world) > 0;
	uint8_t* removedSlots = linked ? dkAllocZeroed(world, (size_t)world->itemIds.next) : NULL;
	if (linked && !removedSlots) {
		dkSetError(error, dkResultOutOfMemory, -1, "count", count);
		return dkResultOutOfMemory; // nothing removed yet
	}
	bool anchoredRemoved = false;
	for (int32_t i = 0; i < count; ++i) {
		// A removed member wakes its island: what rested on it may fall. An item that cannot move may hold
		// contacts in any set: those sets' go back to the next merge, which ends them (below).
		dkSets_WakeRow(world, dkStore_Resolve(world, ids[i]));
		int32_t row = dkStore_Resolve(world, ids[i]);
		anchoredRemoved = anchoredRemoved || !dkIslands_Moves(world, row);
		if (world->flags[row] & dkItemKinematic) world->kinematicItems--;
		uint32_t slot = world->slotOf[row];
		dkIslands_Leave(world, (int32_t)slot);
		if (row < world->awake) {
			dkStore_MoveRow(world, row, world->awake - 1);
			dkStore_MoveRow(world, world->awake - 1, world->count - 1);
			world->awake--;
		} else {
			dkStore_MoveRow(world, row, world->count - 1);
		}
		world->count--;
		world->slots.data[slot].dense = -1;
		world->slots.data[slot].generation++;
		dkIdPool_Free(&world->itemIds, (int32_t)slot);
		if (removedSlots) removedSlots[slot] = 1;
	}
	if (removedSlots) {
		if (anchoredRemoved) dkSets_ReturnHolding(world, removedSlots, -1);
		if (world->liveShapes > 0) dkShapes_RemoveItems(world, removedSlots);
		if (world->liveJoints > 0) dkJoints_RemoveItems(world, removedSlots);
		dkFree(world, removedSlots);
	}
	world->revision++; // the query grid is built again (query_index.c)
	return dkResultOK;
}

bool dkWorld_IsValid(const dkWorld* world, dkItemId id) { return dkStore_Resolve(world, id) >= 0; }
int32_t dkWorld_ItemCount(const dkWorld* world) { return world->count; }
int32_t dkWorld_AwakeCount(const dkWorld* world) { return world->awake; }

void dkWorld_DenseIndices(const dkWorld* world, const dkItemId* ids, int32_t count, int32_t* outIndices)
{
	for (int32_t i = 0; i < count; ++i) outIndices[i] = dkStore_Resolve(world, ids[i]);
}

void dkWorld_ItemIds(const dkWorld* world, dkItemId* outIds)
{
	for (int32_t i = 0; i < world->count; ++i) {
		uint32_t slot = world->slotOf[i];
		outIds[i] = (dkItemId){slot + 1, world->slots.data[slot].generation};
	}
}

dkResult dkWorld_SetMassProperties(dkWorld* world, const dkItemId* ids, int32_t count, const dkItemDef* def,
								   dkError* error)
{
	dkResult r = validateDef(def, error);
	if (r != dkResultOK) return r;
	int32_t* rows;
	if ((r = dkStore_WithRows(world, ids, count, &rows, error)) != dkResultOK) return r;
	dkFree(world, rows);
	uint8_t* recolour = dkAllocZeroed(world, (size_t)world->itemIds.next + 1); // per slot: anchored or freed
	if (!recolour) {
		dkSetError(error, dkResultOutOfMemory, -1, "count", count);
		return dkResultOutOfMemory;
	}
	bool recolours = false, freed = false;
	for (int32_t i = 0; i < count; ++i) {
		dkSets_WakeRow(world, dkStore_Resolve(world, ids[i]));
		int32_t row = dkStore_Resolve(world, ids[i]);
		bool moved = dkIslands_Moves(world, row);
		writeMassRow(world, row, def);
		world->pairsValid = false; // anchoring decides which pairs matter
		// An anchored item leaves its island; one that moves again links through its joints at once and
		// through its contacts at the next step.
		if (moved && !dkIslands_Moves(world, row)) dkIslands_Leave(world, (int32_t)world->slotOf[row]);
		if (!moved && dkIslands_Moves(world, row) && world->liveJoints > 0) dkJoints_LinkItem(world, world->slotOf[row]);
		if (!moved && dkIslands_Moves(world, row)) { // its resting contacts (below) and joints may wake
			freed = true;
			dkSets_FreeStaticJoints(world);
		}
		if (moved != dkIslands_Moves(world, row)) recolours = recolour[world->slotOf[row]] = true;
	}
	if (freed) dkSets_ReturnHolding(world, recolour, -1); // the sets holding a contact of a freed item (or one anchored)
	if (recolours) dkGraph_Recolour(world, recolour);
	dkFree(world, recolour);
	world->revision++; // the query grid is built again (query_index.c)
	return dkResultOK;
}

void dkWorld_Wake(dkWorld* world, const dkItemId* ids, int32_t count)
{
	if (!ids) {
		while (world->awake < world->count) dkSets_WakeRow(world, world->awake);
		for (int32_t i = 0; i < world->count; ++i) world->col[dkColumnSleepTime][i] = 0.0f;
		return;
	}
	for (int32_t i = 0; i < count; ++i) {
		int32_t row = dkStore_Resolve(world, ids[i]);
		if (row >= 0) dkSets_WakeRow(world, row);
	}
}
