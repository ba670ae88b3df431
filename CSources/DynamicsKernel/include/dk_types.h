// SPDX-License-Identifier: Apache-2.0
// Dynamics kernel: ids, definitions, enums and result codes (everything Swift sees besides functions).
// Units follow the Units and semantics article (Sources/Dynamics/Dynamics.docc/UnitsAndSemantics.md):
// points, seconds, radians; forces in UIKit newtons (a = 100 F / m).
#ifndef DK_TYPES_H
#define DK_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// An item id: slot index + 1 (zero is the null id) and the slot's generation at creation.
typedef struct dkItemId {
	uint32_t index1;
	uint32_t generation;
} dkItemId;

/// Result codes. Every failing call leaves the world unchanged.
typedef enum dkResult {
	dkResultOK = 0,
	dkResultInvalidValue = 1, ///< a number was NaN, infinite or out of range: see dkError
	dkResultStaleId = 2,	  ///< an id was null, removed, or from another generation
	dkResultOutOfMemory = 3,
	dkResultReadOnly = 4,	  ///< that column is derived and cannot be written directly
	dkResultDuplicateId = 5,  ///< the same id appeared twice in one bulk call
	dkResultInvalidSnapshot = 6, ///< a snapshot was truncated, corrupted or not one (dkError.field says what)
} dkResult;

/// Detail of the last failure of a call: which field, which value, which element of a bulk call.
typedef struct dkError {
	dkResult code;
	int32_t index;	   ///< element of the bulk call, or -1
	const char* field; ///< a static string naming the field
	double value;
} dkError;

/// Collision shape of an item. Mass and inertia follow Units and semantics, §Units and frames.
typedef enum dkShapeKind {
	dkShapeRectangle = 0, ///< width × height box
	dkShapeEllipse = 1,	  ///< ellipse inscribed in width × height (a circle when equal)
	dkShapeCompound = 2,  ///< several shapes rigidly joined; mass properties given explicitly
} dkShapeKind;

/// SIMD instruction sets of the wide kernels. Ordered: a limit allows its level and every lower one.
typedef enum dkSimdLevel {
	dkSimdScalar = 0,
	dkSimdSSE2 = 1,
	dkSimdNEON = 2,
	dkSimdAVX2 = 3,
	dkSimdAVX512 = 4,
} dkSimdLevel;

/// How velocities and positions are integrated.
typedef enum dkIntegrator {
	dkIntegratorFused = 0, ///< one SIMD pass per substep over each block (default: measured fastest)
	dkIntegratorBLAS = 1,  ///< SIMD force accumulation and damping, BLAS saxpy for v += h a and q += h v
	dkIntegratorScalar = 2 ///< the scalar reference loops (the oracle for the other two)
} dkIntegrator;

/// Item flags.
enum {
	dkItemAnchored = 1u << 0,	   ///< infinite mass and inertia; never moves
	dkItemFixedRotation = 1u << 1, ///< allowsRotation == false: infinite inertia
	dkItemResting = 1u << 2,	   ///< read-only: the item rests and is skipped by the step
	/// Moved by its velocity alone, which the host sets (never by gravity, forces, fields, damping, snaps,
	/// attachments or contacts): zero inverse mass and inertia in every constraint, so it pushes dynamic items
	/// and is not pushed. Collides with dynamic items only. Not with dkItemAnchored.
	dkItemKinematic = 1u << 3,
};

/// Per-item float columns. Columns are dense (index order = dkWorld_ItemIds order) and 64-byte aligned.
typedef enum dkColumn {
	dkColumnPositionX = 0,	  ///< pt
	dkColumnPositionY,		  ///< pt
	dkColumnAngle,			  ///< rad
	dkColumnVelocityX,		  ///< pt/s
	dkColumnVelocityY,		  ///< pt/s
	dkColumnAngularVelocity,  ///< rad/s
	dkColumnGravityX,		  ///< constant acceleration, pt/s² (mass independent)
	dkColumnGravityY,		  ///< pt/s²
	dkColumnForceX,			  ///< constant force, N (a = 100 F / m)
	dkColumnForceY,			  ///< N
	dkColumnTorqueCross,	  ///< Σ cross(offset, F) in item coordinates, N·pt (see dkWorld_SetPushTorque)
	dkColumnTorqueDot,		  ///< Σ dot(offset, F) in item coordinates, N·pt
	dkColumnLinearDamping,	  ///< 1/s: v ← v / (1 + h c) per substep
	dkColumnAngularDamping,	  ///< 1/s
	dkColumnSnapX,			  ///< snap target, pt
	dkColumnSnapY,			  ///< pt
	dkColumnSnapOmega,		  ///< snap angular frequency 2π f, rad/s; 0 = no snap
	dkColumnSnapZeta,		  ///< snap damping ratio
	dkColumnElasticity,		  ///< 0…1
	dkColumnFriction,		  ///< ≥ 0
	dkColumnCharge,			  ///< UIKit charge units
	dkColumnFieldForceX,	  ///< custom-field force, N, written by the host before each step (see dk_field.h)
	dkColumnFieldForceY,	  ///< N
	dkColumnMass,			  ///< read-only, mass units (100×100 pt at density 1 = 1)
	dkColumnInertia,		  ///< read-only, mass·pt²
	dkColumnInverseMass,	  ///< read-only (0 for anchored items)
	dkColumnInverseInertia,	  ///< read-only (0 for anchored or fixed-rotation items)
	dkColumnWidth,			  ///< read-only, pt
	dkColumnHeight,			  ///< read-only, pt
	dkColumnDensity,		  ///< read-only (set with dkWorld_SetMassProperties)
	dkColumnSleepTime,		  ///< read-only, s spent below the rest thresholds
	dkColumnPublicCount
} dkColumn;

/// Work the kernel hands to the host: `task(taskContext, worker)` for every worker in 0..<workerCount,
/// possibly in parallel; the call returns when all have finished. The kernel never creates threads.
typedef void dkTaskFn(void* taskContext, int32_t worker);
typedef void dkRunTasksFn(dkTaskFn* task, void* taskContext, int32_t workerCount, void* hostContext);

/// Where a world's memory comes from (dkWorldDef.allocator): a host may count it, cap it or fail it. Both
/// functions null: the C library (malloc, realloc and free; aligned_alloc for the columns and the step
/// arena). A step may call them from several of its workers at once, so they must be thread-safe.
typedef struct dkAllocator {
	/// `bytes` bytes (> 0) aligned to 64 bytes, or null when there is no memory for them.
	void* (*allocate)(void* context, size_t bytes);
	/// Gives back memory `allocate` returned.
	void (*release)(void* context, void* memory);
	void* context;
} dkAllocator;

/// World configuration. Obtain with dkDefaultWorldDef() and change what you need.
typedef struct dkWorldDef {
	int32_t workerCount;		///< ≥ 1
	dkSimdLevel simdLimit;		///< highest SIMD level allowed; the best supported one ≤ this is used
	dkIntegrator integrator;
	bool restEnabled;			///< rest detection on (Units and semantics, §Rest)
	/// Steps take two or four times their substeps while a rigid chain turns fast enough to open a joint by
	/// more than 0.05 pt in a substep (Units and semantics, §Stepping); true in dkDefaultWorldDef.
	bool adaptiveSubsteps;
	float restSpeed;			///< pt/s (5)
	float restAngularSpeed;		///< rad/s (2°/s); an item whose bounds' corners move slower than restSpeed also turns slowly
	float restTime;				///< s (0.5)
	float contactHertz;			///< Hz, > 0 (30): contact stiffness; at most a quarter of the (configured) substep rate is used
	int32_t solverIterations;	///< 1…8 (1): solve and relax passes per substep
	int32_t initialCapacity;	///< items
	dkRunTasksFn* runTasks;		///< null: everything runs on the caller's thread
	void* hostContext;
	dkAllocator allocator;		///< fixed at dkWorld_Create (dkWorld_Configure ignores it)
} dkWorldDef;

/// Description shared by the items of one bulk create call.
typedef struct dkItemDef {
	dkShapeKind shape;
	float width, height; ///< pt, > 0 (the bounding size for compounds)
	float density;		 ///< > 0
	uint32_t flags;		 ///< dkItemAnchored | dkItemFixedRotation | dkItemKinematic
	float mass;			 ///< compound only: > 0
	float inertia;		 ///< compound only: > 0, about the centre of mass, mass·pt²
	float linearDamping, angularDamping, elasticity, friction, charge;
} dkItemDef;

/// Time spent in each stage by the last step, in nanoseconds.
typedef struct dkProfile {
	double step;	  ///< the whole step
	double solve;	  ///< integration, snap springs and rest detection over the awake blocks (parallel)
	double partition; ///< moving newly resting items out of the awake range (serial)
	double collide;	  ///< broadphase, narrowphase and the contact solver with its integration (0 without shapes)
	double broadphase, narrowphase, contactSolve; ///< the parts of `collide`
	/// Serial parts, ns: the time outside parallel jobs (one thread works while the others wait) of the
	/// whole step and of three of its parts.
	double stepSerial, broadphaseSerial, narrowphaseSerial, contactSolveSerial;
	int32_t jobs; ///< parallel jobs the step ran (each ends when its last worker is done)
	int32_t awakeCount, itemCount, substeps, workers, blocks;
} dkProfile;

#ifdef __cplusplus
}
#endif
#endif
