// SPDX-License-Identifier: Apache-2.0
// Dynamics kernel: fields (the Units and semantics article,
// Sources/Dynamics/Dynamics.docc/UnitsAndSemantics.md, §Fields). A field acts on its member items whose
// centre c satisfies region.contains(c − position); the region is a postfix program of dkRegionInstr.
// At most DK_MAX_FIELDS fields live in a world at once (membership is one bit per field per item).
#ifndef DK_FIELD_H
#define DK_FIELD_H

#include "dk_world.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The largest number of fields alive in one world.
#define DK_MAX_FIELDS 64
/// The deepest region evaluation stack; a region program compiled with the deeper operand first
/// (Sethi–Ullman order) never needs more than log2(leaves) + 1, so any tree that fits in memory fits.
#define DK_REGION_STACK 64

/// A field id: slot index + 1 (zero is the null id) and the slot's generation.
typedef struct dkFieldId {
	uint32_t index1;
	uint32_t generation;
} dkFieldId;

/// Field laws (Units and semantics, §Fields). a is acceleration in pt/s²,
/// atten = max(r, minimumRadius)^(−falloff).
typedef enum dkFieldKind {
	dkFieldLinearGravity = 0, ///< a = 1000 s · direction · atten
	dkFieldRadialGravity = 1, ///< a = −1000 s · d̂ · atten
	dkFieldSpring = 2,		  ///< a = −100 s · (c − position) · atten / m
	dkFieldDrag = 3,		  ///< a = −s · v · atten / m
	dkFieldVelocity = 4,	  ///< v = s · direction · atten, after the other accelerations of the substep
	dkFieldNoise = 5,		  ///< a = 1000 s · N(c, t) · atten
	dkFieldTurbulence = 6,	  ///< a = s · |v| · N(c, t) · atten
	dkFieldElectric = 7,	  ///< a = 100 q s · d̂ · atten / m
	dkFieldMagnetic = 8,	  ///< a = q s · (v_y, −v_x) · atten / m, applied per substep as a rotation that keeps |v|
	dkFieldVortex = 9,		  ///< a = 1000 s · (d̂_y, −d̂_x) · atten (visually counter-clockwise for s > 0)
	dkFieldKindCount
} dkFieldKind;

/// Every property of a field. Obtain defaults with dkDefaultFieldDef(kind).
typedef struct dkFieldDef {
	dkFieldKind kind;
	float positionX, positionY;	 ///< pt
	float strength;				 ///< finite (default 1)
	float falloff;				 ///< finite, ≥ 0 (default 0)
	float minimumRadius;		 ///< pt, > 0 (default 0.001)
	float directionX, directionY; ///< linear gravity and velocity fields
	float smoothness;			 ///< noise and turbulence: 0…1, 1 smoothest (default 0.5)
	float animationSpeed;		 ///< noise and turbulence: Hz, ≥ 0 (default 1; 0 = frozen)
} dkFieldDef;

/// Region program instructions, evaluated on a stack of truth values at the point p = c − position.
typedef enum dkRegionOp {
	dkRegionEmpty = 0,		///< push false
	dkRegionInfinite = 1,	///< push true
	dkRegionCircle = 2,		///< push |p|² ≤ a²            (a = radius, pt)
	dkRegionRectangle = 3,	///< push |p.x| ≤ a ∧ |p.y| ≤ b (a, b = half width and half height, pt)
	dkRegionInverse = 4,	///< top ← ¬top
	dkRegionUnion = 5,		///< pop T, S: push S ∨ T
	dkRegionIntersection = 6, ///< pop T, S: push S ∧ T
	dkRegionDifference = 7,	///< pop T, S: push S ∧ ¬T
	dkRegionReverseDifference = 8, ///< pop T, S: push T ∧ ¬S
} dkRegionOp;

typedef struct dkRegionInstr {
	int32_t op; ///< a dkRegionOp
	float a, b;
} dkRegionInstr;

dkFieldDef dkDefaultFieldDef(dkFieldKind kind);

/// Creates a field with an infinite region and no items.
dkResult dkWorld_CreateField(dkWorld* world, const dkFieldDef* def, dkFieldId* outId, dkError* error);
/// Destroys a field; its items wake.
dkResult dkWorld_DestroyField(dkWorld* world, dkFieldId id, dkError* error);
/// Replaces every property of a field (from the next step); its items wake.
dkResult dkWorld_SetField(dkWorld* world, dkFieldId id, const dkFieldDef* def, dkError* error);
/// Replaces a field's region by a postfix program (count ≥ 1) that leaves exactly one value and needs
/// at most DK_REGION_STACK entries; its items wake.
dkResult dkWorld_SetFieldRegion(dkWorld* world, dkFieldId id, const dkRegionInstr* program, int32_t count,
								dkError* error);
/// Adds items to (member = true) or removes them from a field. Stale ids fail the whole call. Wakes them.
dkResult dkWorld_SetFieldMembers(dkWorld* world, dkFieldId id, const dkItemId* items, int32_t count, bool member,
								 dkError* error);
/// Whether an item is a member of a field.
bool dkWorld_IsFieldMember(const dkWorld* world, dkFieldId id, dkItemId item);
int32_t dkWorld_FieldCount(const dkWorld* world);
/// The seed of noise and turbulence fields; fields created or changed afterwards use it.
void dkWorld_SetSeed(dkWorld* world, uint64_t seed);
/// Turns on (or off) the custom-field force columns dkColumnFieldForceX/Y, which the host writes before
/// each step (for example from a Swift evaluation block) and the field stage adds as a = 100 F / m.
void dkWorld_SetCustomFieldForces(dkWorld* world, bool enabled);

/// Evaluates one field's acceleration (pt/s²) for `count` probe states at simulated time t, outside a step,
/// with the given SIMD level (tests compare levels and check laws). Region and membership are ignored.
dkResult dkFieldAccelerations(const dkFieldDef* def, uint64_t seed, uint32_t salt, double t, const float* x,
							  const float* y, const float* vx, const float* vy, const float* inverseMass,
							  const float* charge, int32_t count, dkSimdLevel level, float* outAx, float* outAy,
							  dkError* error);

#ifdef __cplusplus
}
#endif
#endif
