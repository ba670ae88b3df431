// SPDX-License-Identifier: Apache-2.0
// Dynamics kernel: the function API. Every function that can fail returns a dkResult, fills
// `error` when it is not null, and leaves the world unchanged on failure.
#ifndef DK_WORLD_H
#define DK_WORLD_H

#include "dk_types.h"
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dkWorld dkWorld;

dkWorldDef dkDefaultWorldDef(void);
dkItemDef dkDefaultItemDef(void);

/// Creates a world; null when out of memory or when `def` is invalid (then `error` says why).
dkWorld* dkWorld_Create(const dkWorldDef* def, dkError* error);
void dkWorld_Destroy(dkWorld* world);

/// The SIMD level the world's wide kernels use, and the best one this CPU supports.
dkSimdLevel dkWorld_SimdLevel(const dkWorld* world);
dkSimdLevel dkCpuBestSimdLevel(void);
const char* dkSimdLevelName(dkSimdLevel level);
/// Changes the SIMD limit, integrator, worker count, rest detection, contact stiffness and solver iterations
/// between steps (the other fields of `def` are ignored). Turning rest detection off wakes every item.
/// An invalid field changes nothing.
dkResult dkWorld_Configure(dkWorld* world, const dkWorldDef* def, dkError* error);
/// Which BLAS library answers cblas_saxpy (from the loaded shared object's path), or "static" when BLAS is
/// linked into the same object as the kernel.
const char* dkBlasLibraryPath(void);

// ---- Items -------------------------------------------------------------------------------------

/// Creates `count` items sharing `def` at positions (x[i], y[i]) with angle[i] (angle may be null).
/// Writes the new ids to outIds. All positions are validated before anything is created.
dkResult dkWorld_CreateItems(dkWorld* world, const dkItemDef* def, const float* x, const float* y,
							 const float* angle, int32_t count, dkItemId* outIds, dkError* error);
/// Removes `count` items; a stale or repeated id fails the whole call.
dkResult dkWorld_RemoveItems(dkWorld* world, const dkItemId* ids, int32_t count, dkError* error);
bool dkWorld_IsValid(const dkWorld* world, dkItemId id);
int32_t dkWorld_ItemCount(const dkWorld* world);
int32_t dkWorld_AwakeCount(const dkWorld* world);
/// The islands of moving items: items joined by touching contacts or joints, which rest and wake together
/// (an item linked to nothing is an island of its own; anchored items belong to none).
int32_t dkWorld_IslandCount(const dkWorld* world);
/// Dense index of each id (the row of every column), or -1 for a stale id.
void dkWorld_DenseIndices(const dkWorld* world, const dkItemId* ids, int32_t count, int32_t* outIndices);
/// The id of every item in dense order (count = dkWorld_ItemCount).
void dkWorld_ItemIds(const dkWorld* world, dkItemId* outIds);

/// A column in dense order; valid until the next call that creates or removes items or steps.
const float* dkWorld_Column(const dkWorld* world, dkColumn column);

/// Whether `column` is writable and accepts `value` (finite; coordinates within ±1e15 pt, speeds within
/// 1e7 pt/s, turn rates within 1e6 rad/s, damping, snap and friction ≥ 0, elasticity 0…1), as the writes
/// below check it: callers that write several columns check every value first.
bool dkColumnAccepts(dkColumn column, float value);
/// Writes values[i] to `column` of ids[i] (or `value` to every id with the Fill form). A write that
/// changes a value wakes the item; rewriting the same value does not. Velocity writes are ignored by
/// anchored items (and angular ones by fixed-rotation items).
dkResult dkWorld_SetFloats(dkWorld* world, dkColumn column, const dkItemId* ids, const float* values, int32_t count,
						   dkError* error);
dkResult dkWorld_FillFloats(dkWorld* world, dkColumn column, const dkItemId* ids, float value, int32_t count,
							dkError* error);
/// Adds to the velocity of each id (pt/s, rad/s); wakes the items.
dkResult dkWorld_AddVelocities(dkWorld* world, const dkItemId* ids, const float* dvx, const float* dvy,
							   const float* dw, int32_t count, dkError* error);
/// Applies an impulse (N·s) at an offset (pt, item coordinates, rotating with the item) to each id:
/// Δv = 100 P / m, Δω = 100 (r × P) / I.
dkResult dkWorld_ApplyImpulses(dkWorld* world, const dkItemId* ids, const float* px, const float* py,
							   const float* offsetX, const float* offsetY, int32_t count, dkError* error);
/// Replaces the shape size, density and flags of items (mass and inertia recomputed; anchoring zeroes the
/// velocity). For compounds `def.mass` and `def.inertia` are used.
dkResult dkWorld_SetMassProperties(dkWorld* world, const dkItemId* ids, int32_t count, const dkItemDef* def,
								   dkError* error);
/// Wakes the given items (null ids: every item).
void dkWorld_Wake(dkWorld* world, const dkItemId* ids, int32_t count);
/// Puts the given items to rest, each with the items its island holds (touching or joined), as if they
/// had come to rest: the step skips them until something wakes them. They keep their velocities, which
/// they move with once woken. A stale id fails the whole call and changes nothing.
dkResult dkWorld_Rest(dkWorld* world, const dkItemId* ids, int32_t count, dkError* error);

// ---- Stepping and reductions ---------------------------------------------------------------------

/// Advances by dt seconds in `substeps` equal substeps, or two or four times as many while a rigid chain
/// turns fast (dkWorldDef.adaptiveSubsteps; dkProfile.substeps says how many). Resting items are skipped.
dkResult dkWorld_Step(dkWorld* world, float dt, int32_t substeps, dkError* error);
dkProfile dkWorld_Profile(const dkWorld* world);
/// Packs (x, y, angle) of every item in dense order into out (3 × itemCount floats).
void dkWorld_PackPoses(const dkWorld* world, float* out);

/// Kinetic energy (mass·pt²/s², i.e. ½ Σ m v² + ½ Σ I ω²) and linear momentum (mass·pt/s) of all items.
typedef struct dkEnergy {
	double kinetic, momentumX, momentumY;
} dkEnergy;
dkEnergy dkWorld_Energy(dkWorld* world);

/// Largest speed component among awake items (max over |vx|, |vy|), pt/s.
float dkWorld_MaxAwakeSpeedComponent(dkWorld* world);

// ---- Kernel oracles (for tests) -----------------------------------------------------------------

/// Runs one integration substep of `h` seconds on the items in [0, count) of standalone columns with the
/// given path. `columns` holds dkColumnPublicCount pointers (null for unused read-only ones is not allowed).
typedef struct dkColumnSet {
	float* column[dkColumnPublicCount];
	uint32_t* flags;
	int32_t count;
} dkColumnSet;
/// Integrates one step of `substeps` substeps over a column set with an explicit path (tests compare paths).
dkResult dkIntegrateColumns(dkColumnSet* set, dkIntegrator integrator, dkSimdLevel level, float dt,
							int32_t substeps, dkError* error);
/// Rest detection over a column set with an explicit level; returns the number of items at rest.
int32_t dkDetectRestColumns(dkColumnSet* set, dkSimdLevel level, float dt, float restSpeed, float restAngularSpeed,
							float restTime);
/// Packs poses of a column set with an explicit level.
void dkPackPosesColumns(const dkColumnSet* set, dkSimdLevel level, float* out);
/// The BLAS level-1 operations the kernel uses, and their scalar references.
void dkBlasAxpy(int32_t n, float a, const float* x, float* y, bool reference);
double dkBlasDot(int32_t n, const float* x, const float* y, bool reference);
int32_t dkBlasMaxAbsIndex(int32_t n, const float* x, bool reference);

#ifdef __cplusplus
}
#endif
#endif
