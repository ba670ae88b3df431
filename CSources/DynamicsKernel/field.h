// SPDX-License-Identifier: Apache-2.0
// Internal: fields. The store (field_store.c) keeps each field's properties, its region program and
// bounds; at the start of every step it prepares one frame per field per substep (the uniforms the
// field stage reads: noise phases at that substep's time, region bounds in world coordinates).
// The stage (stage_field_wide.h) evaluates the frames over blocks of rows.
#ifndef DK_FIELD_INTERNAL_H
#define DK_FIELD_INTERNAL_H

#include "core.h"
#include "dk_field.h"

// Noise: N = Σ_j amp · (sin(k_j · c + φ_j(t))) over DK_NOISE_WAVES seeded plane waves per component.
#define DK_NOISE_WAVES 4

typedef struct dkField {
	dkFieldDef def;
	dkRegionInstr* region; // postfix program (never empty: the infinite region is one instruction)
	int32_t regionCount;
	float bounds[4];	   // region bounds relative to the position: min x, min y, max x, max y (±inf)
	uint32_t generation;   // odd while alive
	float waveKx[2 * DK_NOISE_WAVES], waveKy[2 * DK_NOISE_WAVES]; // pt⁻¹ (x waves, then y waves)
	double wavePhase[2 * DK_NOISE_WAVES], waveOmega[2 * DK_NOISE_WAVES]; // rad, rad/s
} dkField;

// What the stage reads for one field in one substep.
typedef struct dkFieldFrame {
	int32_t kind;  // dkFieldKind
	int32_t bit;   // membership bit (the field's slot)
	float px, py, strength, falloff, minimumRadius, dirX, dirY;
	float box[4];  // region bounds in world coordinates (min x, min y, max x, max y)
	const dkRegionInstr* region;
	int32_t regionCount;
	bool regionInfinite;
	bool bounded;  // some side of the box is finite
	float waveKx[2 * DK_NOISE_WAVES], waveKy[2 * DK_NOISE_WAVES], wavePhase[2 * DK_NOISE_WAVES];
} dkFieldFrame;
DK_ARRAY_FUNCTIONS(dkFieldFrame, dkFieldFrameArray)

// What the field selection needs to know about a range of rows.
typedef struct dkRowSummary {
	uint32_t anyLo, anyHi; // OR of the membership words
	uint32_t allLo, allHi; // AND of the membership words
	float box[4];		   // min x, min y, max x, max y of the positions
} dkRowSummary;

// The fields active for one block of rows in one substep, in slot order.
typedef struct dkFieldBatch {
	const dkFieldFrame* frame[DK_MAX_FIELDS];
	bool everyRow[DK_MAX_FIELDS]; // every row of the range is a member: no membership test
	int32_t count;
	int32_t velocityCount; // velocity fields among them
	bool customForces; // add 100 · FieldForce / m
	float h;		   // the substep (s): magnetic fields rotate velocity by exactly what v += h·a applies
} dkFieldBatch;

// The store (field_store.c).
void dkFields_Destroy(dkWorld* world);
// Prepares the frames of every substep of a step of `substeps` × h starting at world->time; changes nothing
// else (false when out of memory).
bool dkFields_Prepare(dkWorld* world, int32_t substeps, float h);
// The items of animated noise fields never rest: a step restarts the rest timers of those awake (once it can
// no longer fail), and dkWorld_Rest wakes those it put to rest (dkFields_WakeAnimated). Every other way to
// give a resting item such a field (members, definition, region) wakes the field's members.
void dkFields_HoldAnimated(dkWorld* world);
void dkFields_WakeAnimated(dkWorld* world);
// Selects the fields that act on rows [b, e) in substep s: by membership, and (when `bounds`) by the rows'
// current bounding box against the region's bounds.
void dkFields_Select(const dkWorld* world, int32_t b, int32_t e, int32_t s, bool bounds, dkFieldBatch* out);

// The fields of every substep of a step for the fused integrator (null when the world has none).
typedef struct dkFieldPass {
	const uint32_t *lo, *hi;	// membership words
	const dkFieldBatch* batch; // one per substep
	bool velocity;			   // some batch has a velocity field
} dkFieldPass;
// Fills a frame for a field at time t (also used by the probe entry point).
void dkField_Frame(const dkField* field, int32_t bit, double t, dkFieldFrame* out);
void dkField_Seed(dkField* field, uint64_t seed, uint32_t salt, double now);
// Checks a region program (stack never underflows, one value left, depth ≤ DK_REGION_STACK) and writes its
// bounds relative to the field's position; false with `error` set otherwise.
// Checks a field's definition: dkResultOK, or the first bad field in `error`.
dkResult dkFields_ValidateDef(const dkFieldDef* d, dkError* error);
bool dkFields_CheckRegion(const dkRegionInstr* p, int32_t n, float bounds[4], dkError* error);

#endif
