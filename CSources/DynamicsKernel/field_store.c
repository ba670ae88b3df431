// SPDX-License-Identifier: Apache-2.0
// Entity storage: fields. At most DK_MAX_FIELDS slots with generations (odd while alive); a field's
// slot is its membership bit in every row's fieldLo/fieldHi word. Regions arrive as postfix programs,
// checked (stack never underflows, one value left, depth ≤ DK_REGION_STACK) and bounded (a box
// relative to the position, infinite where an inverse makes it so) for the stage's block skipping.
// Every call validates its input before it changes anything; a change wakes the field's items.
#include "field.h"
#include "island.h"
#include "solver_set.h"
#include "kernels.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DK_PI 3.14159265358979323846

dkFieldDef dkDefaultFieldDef(dkFieldKind kind)
{
	return (dkFieldDef){.kind = kind, .strength = 1.0f, .minimumRadius = 0.001f, .directionX = 0.0f,
						.directionY = 1.0f, .smoothness = 0.5f, .animationSpeed = 1.0f};
}

static dkResult fail(dkError* error, dkResult code, const char* field, double value)
{
	dkSetError(error, code, -1, field, value);
	return code;
}

dkResult dkFields_ValidateDef(const dkFieldDef* d, dkError* error)
{
	if ((int)d->kind < 0 || d->kind >= dkFieldKindCount) return fail(error, dkResultInvalidValue, "kind", d->kind);
	struct {
		const char* name;
		float v;
		bool ok;
	} checks[] = {
		{"position.x", d->positionX, true},
		{"position.y", d->positionY, true},
		{"strength", d->strength, true},
		{"falloff", d->falloff, d->falloff >= 0.0f},
		{"minimumRadius", d->minimumRadius, d->minimumRadius > 0.0f},
		{"direction.dx", d->directionX, true},
		{"direction.dy", d->directionY, true},
		{"smoothness", d->smoothness, d->smoothness >= 0.0f && d->smoothness <= 1.0f},
		{"animationSpeed", d->animationSpeed, d->animationSpeed >= 0.0f},
	};
	for (size_t k = 0; k < sizeof checks / sizeof checks[0]; ++k)
		if (!isfinite(checks[k].v) || !checks[k].ok) return fail(error, dkResultInvalidValue, checks[k].name, checks[k].v);
	return dkResultOK;
}

static dkField* resolve(const dkWorld* world, dkFieldId id)
{
	if (!world->fields || id.index1 == 0 || id.index1 > DK_MAX_FIELDS) return NULL;
	dkField* f = &world->fields[id.index1 - 1];
	return (f->generation & 1u) && f->generation == id.generation ? f : NULL;
}

static uint32_t* wordOf(dkWorld* world, int32_t bit) { return bit < 32 ? world->fieldLo : world->fieldHi; }

static bool isMember(const dkWorld* world, int32_t row, int32_t bit)
{
	const uint32_t* w = bit < 32 ? world->fieldLo : world->fieldHi;
	return (w[row] >> (bit & 31)) & 1u;
}

// Wakes the resting members of a field with their islands. Waking moves rows, so items are visited by
// slot: each once, in an order that does not depend on the rows.
static void wakeMembers(dkWorld* world, int32_t bit)
{
	for (int32_t slot = 0; slot < world->itemIds.next; ++slot) {
		int32_t row = world->slots.data[slot].dense;
		if (row >= world->awake && isMember(world, row, bit)) dkSets_WakeRow(world, row);
	}
}

static void clearBit(dkWorld* world, int32_t bit)
{
	uint32_t* w = wordOf(world, bit);
	uint32_t keep = ~(1u << (bit & 31));
	for (int32_t row = 0; row < world->count; ++row) w[row] &= keep;
}

// splitmix64: the noise parameters of a field from the seed and the field's slot.
static uint64_t nextRandom(uint64_t* state)
{
	uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static double unit(uint64_t* state) { return (double)(nextRandom(state) >> 11) * 0x1.0p-53; }

// Plane waves of wavelength λ = 10 pt · 100^smoothness (10 pt at 0, 1 000 pt at 1), each within ±25 %,
// in random directions with random phases; temporal frequencies animationSpeed Hz ± 25 %.
// The phase at the current time is kept when the frequencies change, so the noise stays continuous.
void dkField_Seed(dkField* field, uint64_t seed, uint32_t salt, double now)
{
	uint64_t state = seed ^ (0xd1b54a32d192ed03ull * (uint64_t)(salt + 1));
	double lambda = 10.0 * pow(100.0, field->def.smoothness);
	bool first = field->waveKx[0] == 0.0f && field->waveKy[0] == 0.0f;
	for (int j = 0; j < 2 * DK_NOISE_WAVES; ++j) {
		double angle = 2.0 * DK_PI * unit(&state);
		double k = 2.0 * DK_PI / lambda * (0.75 + 0.5 * unit(&state));
		double phase = 2.0 * DK_PI * unit(&state);
		double omega = 2.0 * DK_PI * field->def.animationSpeed * (0.75 + 0.5 * unit(&state));
		field->waveKx[j] = (float)(k * cos(angle));
		field->waveKy[j] = (float)(k * sin(angle));
		field->wavePhase[j] = first ? phase : fmod(field->wavePhase[j] + (field->waveOmega[j] - omega) * now, 2.0 * DK_PI);
		field->waveOmega[j] = omega;
	}
}

void dkField_Frame(const dkField* field, int32_t bit, double t, dkFieldFrame* out)
{
	const dkFieldDef* d = &field->def;
	*out = (dkFieldFrame){.kind = d->kind, .bit = bit, .px = d->positionX, .py = d->positionY,
						  .strength = d->strength, .falloff = d->falloff,
						  .minimumRadius = fmaxf(d->minimumRadius, 1.17549435e-38f), .dirX = d->directionX,
						  .dirY = d->directionY, .region = field->region, .regionCount = field->regionCount,
						  .regionInfinite = field->regionCount == 1 && field->region[0].op == dkRegionInfinite};
	// Widened a little, so rounding never skips a block the per-row test would count inside.
	for (int i = 0; i < 4; ++i) {
		float p = i % 2 ? d->positionY : d->positionX;
		float pad = 1e-4f * (fabsf(field->bounds[i]) + fabsf(p)) + 1e-3f;
		out->box[i] = field->bounds[i] + p + (i < 2 ? -pad : pad);
		out->bounded = out->bounded || isfinite(out->box[i]);
	}
	for (int j = 0; j < 2 * DK_NOISE_WAVES; ++j) {
		out->waveKx[j] = field->waveKx[j];
		out->waveKy[j] = field->waveKy[j];
		out->wavePhase[j] = (float)fmod(field->wavePhase[j] + field->waveOmega[j] * t, 2.0 * DK_PI);
	}
}

// Checks a postfix program and computes its bounds; false (with the error) when it is malformed.
bool dkFields_CheckRegion(const dkRegionInstr* p, int32_t n, float bounds[4], dkError* error)
{
	if (!p || n < 1) return fail(error, dkResultInvalidValue, "region.count", n), false;
	float box[DK_REGION_STACK][4];
	int32_t sp = 0;
	for (int32_t k = 0; k < n; ++k) {
		int32_t op = p[k].op;
		bool leaf = op <= dkRegionRectangle, binary = op >= dkRegionUnion;
		if (op < 0 || op > dkRegionReverseDifference) {
			dkSetError(error, dkResultInvalidValue, k, "region.op", op);
			return false;
		}
		if ((leaf && sp == DK_REGION_STACK) || (op == dkRegionInverse && sp < 1) || (binary && sp < 2)) {
			dkSetError(error, dkResultInvalidValue, k, "region.depth", sp);
			return false;
		}
		if ((op == dkRegionCircle || op == dkRegionRectangle) &&
			!(isfinite(p[k].a) && p[k].a >= 0.0f && (op == dkRegionCircle || (isfinite(p[k].b) && p[k].b >= 0.0f)))) {
			dkSetError(error, dkResultInvalidValue, k, "region.size", isfinite(p[k].a) && p[k].a >= 0 ? p[k].b : p[k].a);
			return false;
		}
		switch (op) {
		case dkRegionEmpty: memcpy(box[sp++], (float[4]){INFINITY, INFINITY, -INFINITY, -INFINITY}, sizeof box[0]); break;
		case dkRegionInfinite: memcpy(box[sp++], (float[4]){-INFINITY, -INFINITY, INFINITY, INFINITY}, sizeof box[0]); break;
		case dkRegionCircle: memcpy(box[sp++], (float[4]){-p[k].a, -p[k].a, p[k].a, p[k].a}, sizeof box[0]); break;
		case dkRegionRectangle: memcpy(box[sp++], (float[4]){-p[k].a, -p[k].b, p[k].a, p[k].b}, sizeof box[0]); break;
		case dkRegionInverse: memcpy(box[sp - 1], (float[4]){-INFINITY, -INFINITY, INFINITY, INFINITY}, sizeof box[0]); break;
		case dkRegionUnion:
			--sp;
			for (int i = 0; i < 2; ++i) box[sp - 1][i] = fminf(box[sp - 1][i], box[sp][i]);
			for (int i = 2; i < 4; ++i) box[sp - 1][i] = fmaxf(box[sp - 1][i], box[sp][i]);
			break;
		case dkRegionIntersection:
			--sp;
			for (int i = 0; i < 2; ++i) box[sp - 1][i] = fmaxf(box[sp - 1][i], box[sp][i]);
			for (int i = 2; i < 4; ++i) box[sp - 1][i] = fminf(box[sp - 1][i], box[sp][i]);
			break;
		case dkRegionDifference: --sp; break; // S − T lies within S
		case dkRegionReverseDifference: --sp; memcpy(box[sp - 1], box[sp], sizeof box[0]); break;
		}
	}
	if (sp != 1) {
		dkSetError(error, dkResultInvalidValue, n - 1, "region.depth", sp);
		return false;
	}
	memcpy(bounds, box[0], sizeof box[0]);
	return true;
}

dkResult dkWorld_CreateField(dkWorld* world, const dkFieldDef* def, dkFieldId* outId, dkError* error)
{
	dkResult r = dkFields_ValidateDef(def, error);
	if (r != dkResultOK) return r;
	if (!world->fields && !(world->fields = dkAllocZeroed(world, (DK_MAX_FIELDS) * sizeof(dkField))))
		return fail(error, dkResultOutOfMemory, "fields", DK_MAX_FIELDS);
	int32_t slot = 0;
	while (slot < DK_MAX_FIELDS && (world->fields[slot].generation & 1u)) ++slot;
	if (slot == DK_MAX_FIELDS) return fail(error, dkResultInvalidValue, "fieldCount", DK_MAX_FIELDS + 1);
	dkRegionInstr* region = dkAlloc(world, sizeof(dkRegionInstr));
	if (!region) return fail(error, dkResultOutOfMemory, "region", 1);
	*region = (dkRegionInstr){.op = dkRegionInfinite};
	dkField* f = &world->fields[slot];
	uint32_t generation = f->generation + 1;
	*f = (dkField){.def = *def, .region = region, .regionCount = 1, .generation = generation,
				   .bounds = {-INFINITY, -INFINITY, INFINITY, INFINITY}};
	dkField_Seed(f, world->seed, (uint32_t)slot, world->time);
	clearBit(world, slot);
	world->liveFields++;
	*outId = (dkFieldId){(uint32_t)slot + 1, generation};
	return dkResultOK;
}

dkResult dkWorld_DestroyField(dkWorld* world, dkFieldId id, dkError* error)
{
	dkField* f = resolve(world, id);
	if (!f) return fail(error, dkResultStaleId, "field", id.index1);
	int32_t bit = (int32_t)id.index1 - 1;
	wakeMembers(world, bit);
	clearBit(world, bit);
	dkFree(world, f->region);
	f->region = NULL;
	f->generation++;
	world->liveFields--;
	return dkResultOK;
}

dkResult dkWorld_SetField(dkWorld* world, dkFieldId id, const dkFieldDef* def, dkError* error)
{
	dkField* f = resolve(world, id);
	if (!f) return fail(error, dkResultStaleId, "field", id.index1);
	dkResult r = dkFields_ValidateDef(def, error);
	if (r != dkResultOK) return r;
	bool reseed = def->smoothness != f->def.smoothness || def->animationSpeed != f->def.animationSpeed;
	f->def = *def;
	if (reseed) dkField_Seed(f, world->seed, id.index1 - 1, world->time);
	wakeMembers(world, (int32_t)id.index1 - 1);
	return dkResultOK;
}

dkResult dkWorld_SetFieldRegion(dkWorld* world, dkFieldId id, const dkRegionInstr* program, int32_t count,
								dkError* error)
{
	dkField* f = resolve(world, id);
	if (!f) return fail(error, dkResultStaleId, "field", id.index1);
	float bounds[4];
	if (!dkFields_CheckRegion(program, count, bounds, error)) return dkResultInvalidValue;
	dkRegionInstr* copy = dkAlloc(world, (size_t)count * sizeof(dkRegionInstr));
	if (!copy) return fail(error, dkResultOutOfMemory, "region.count", count);
	memcpy(copy, program, (size_t)count * sizeof(dkRegionInstr));
	dkFree(world, f->region);
	f->region = copy;
	f->regionCount = count;
	memcpy(f->bounds, bounds, sizeof bounds);
	wakeMembers(world, (int32_t)id.index1 - 1);
	return dkResultOK;
}

dkResult dkWorld_SetFieldMembers(dkWorld* world, dkFieldId id, const dkItemId* items, int32_t count, bool member,
								 dkError* error)
{
	if (!resolve(world, id)) return fail(error, dkResultStaleId, "field", id.index1);
	if (count < 0 || (count > 0 && !items)) return fail(error, dkResultInvalidValue, "count", count);
	for (int32_t i = 0; i < count; ++i) {
		if (dkStore_Resolve(world, items[i]) < 0) {
			dkSetError(error, dkResultStaleId, i, "id", items[i].index1);
			return dkResultStaleId;
		}
	}
	int32_t bit = (int32_t)id.index1 - 1;
	uint32_t* w = wordOf(world, bit);
	uint32_t mask = 1u << (bit & 31);
	for (int32_t i = 0; i < count; ++i) {
		int32_t row = dkStore_Resolve(world, items[i]);
		uint32_t next = member ? (w[row] | mask) : (w[row] & ~mask);
		if (next == w[row]) continue;
		w[row] = next;
		dkSets_WakeRow(world, row);
	}
	return dkResultOK;
}

bool dkWorld_IsFieldMember(const dkWorld* world, dkFieldId id, dkItemId item)
{
	int32_t row = dkStore_Resolve(world, item);
	return resolve(world, id) && row >= 0 && isMember(world, row, (int32_t)id.index1 - 1);
}

int32_t dkWorld_FieldCount(const dkWorld* world) { return world->liveFields; }

void dkWorld_SetSeed(dkWorld* world, uint64_t seed)
{
	if (seed == world->seed) return;
	world->seed = seed;
	for (int32_t slot = 0; world->fields && slot < DK_MAX_FIELDS; ++slot) {
		dkField* f = &world->fields[slot];
		if (!(f->generation & 1u)) continue;
		memset(f->waveKx, 0, sizeof f->waveKx);
		memset(f->waveKy, 0, sizeof f->waveKy);
		dkField_Seed(f, seed, (uint32_t)slot, world->time);
		wakeMembers(world, slot);
	}
}

void dkWorld_SetCustomFieldForces(dkWorld* world, bool enabled) { world->customFieldForces = enabled; }

void dkFields_Destroy(dkWorld* world)
{
	for (int32_t slot = 0; world->fields && slot < DK_MAX_FIELDS; ++slot) dkFree(world, world->fields[slot].region);
	dkFree(world, world->fields);
	dkFieldFrameArray_Destroy(world, &world->frames);
}

// The membership bits of the animated noise fields: such a field changes with time, not only through calls,
// so its items never come to rest.
static bool animatedBits(const dkWorld* world, uint32_t* lo, uint32_t* hi)
{
	*lo = *hi = 0;
	for (int32_t slot = 0; world->liveFields > 0 && slot < DK_MAX_FIELDS; ++slot) {
		const dkField* f = &world->fields[slot];
		if ((f->generation & 1u) && f->def.kind == dkFieldNoise && f->def.animationSpeed > 0.0f &&
			f->def.strength != 0.0f)
			*(slot < 32 ? lo : hi) |= 1u << (slot & 31);
	}
	return *lo || *hi;
}

void dkFields_HoldAnimated(dkWorld* world)
{
	uint32_t lo, hi;
	if (!animatedBits(world, &lo, &hi)) return;
	for (int32_t row = 0; row < world->awake; ++row)
		if ((world->fieldLo[row] & lo) || (world->fieldHi[row] & hi)) world->col[dkColumnSleepTime][row] = 0.0f;
}

void dkFields_WakeAnimated(dkWorld* world)
{
	uint32_t lo, hi;
	if (!animatedBits(world, &lo, &hi)) return;
	for (int32_t slot = 0; slot < world->itemIds.next; ++slot) { // by slot: waking moves rows
		int32_t row = world->slots.data[slot].dense;
		if (row >= world->awake && ((world->fieldLo[row] & lo) || (world->fieldHi[row] & hi))) dkSets_WakeRow(world, row);
	}
}

bool dkFields_Prepare(dkWorld* world, int32_t substeps, float h)
{
	world->framesPerSubstep = 0;
	if (world->liveFields == 0) return true;
	int32_t needed = substeps * world->liveFields;
	if (!dkFieldFrameArray_Reserve(world, &world->frames, needed)) return false; // (count 0: rewritten below)
	int32_t n = 0;
	for (int32_t s = 0; s < substeps; ++s) {
		double t = world->time + (double)s * (double)h;
		for (int32_t slot = 0; slot < DK_MAX_FIELDS; ++slot)
			if (world->fields[slot].generation & 1u) dkField_Frame(&world->fields[slot], slot, t, &world->frames.data[n++]);
	}
	world->framesPerSubstep = world->liveFields;
	return true;
}

void dkFields_Select(const dkWorld* world, int32_t b, int32_t e, int32_t s, bool bounds, dkFieldBatch* out)
{
	out->count = 0;
	out->velocityCount = 0;
	out->customForces = world->customFieldForces;
	if (world->framesPerSubstep == 0 || b >= e) return;
	dkRowSummary rows;
	world->kernels->summarizeRows(world->col, world->fieldLo, world->fieldHi, b, e, &rows);
	if (!rows.anyLo && !rows.anyHi) return;
	const dkFieldFrame* frames = world->frames.data + (size_t)s * (size_t)world->framesPerSubstep;
	for (int32_t k = 0; k < world->framesPerSubstep; ++k) {
		const dkFieldFrame* f = &frames[k];
		uint32_t bit = 1u << (f->bit & 31);
		if (!((f->bit < 32 ? rows.anyLo : rows.anyHi) & bit)) continue;
		if (bounds && (rows.box[2] < f->box[0] || rows.box[0] > f->box[2] || rows.box[3] < f->box[1] ||
					   rows.box[1] > f->box[3]))
			continue; // the rows lie outside the region's bounds
		out->everyRow[out->count] = ((f->bit < 32 ? rows.allLo : rows.allHi) & bit) != 0;
		out->velocityCount += f->kind == dkFieldVelocity;
		out->frame[out->count++] = f;
	}
}
