// SPDX-License-Identifier: Apache-2.0
// Internal: the world struct and the constants every kernel file shares. Never included by Swift.
#ifndef DK_CORE_H
#define DK_CORE_H

#include "constraint_layout.h"
#include "dk_world.h"
#include "id_pool.h"
#include "memory.h"

#include <stdbool.h>
#include <time.h>

// No floating-point contraction anywhere in the kernel: a * b + c is never fused into one rounding. Every
// file includes this header first, so the scalar path, each SIMD level, and compilers that contract by
// default (clang on arm64) all round the same way, and a state's bits do not depend on the CPU.
#pragma STDC FP_CONTRACT OFF

#define DK_ALIGN 64		  // bytes: column alignment (one cache line, one AVX-512 vector)
#define DK_PAD 16		  // floats: capacities are multiples of the widest SIMD width
#define DK_BLOCK 4096	  // items per block of work; fixed, so results never depend on the worker count
#define DK_MAX_WORKERS 64
// Below these sizes a stage runs on one worker; the coupled step forms a team (team.c) only when one of
// them is reached.
#define DK_MIN_PARALLEL_SOLVE 512	 // constraints and awake items: the contact solver
#define DK_MIN_PARALLEL_SHAPES 4096 // shape slots: the broadphase's box pass
#define DK_MAX_SUBSTEPS 64 // dkWorld_Step accepts 1…64
#define DK_MAX_SOLVER_ITERATIONS 8 // dkWorldDef.solverIterations accepts 1…8
// The ranges items accept, so that no mass, inertia or state leaves Float range in a step (the Units and
// semantics article, §Bad input): coordinates and snap points |x| ≤ DK_MAX_COORDINATE pt, speeds
// ≤ DK_MAX_SPEED pt/s, turn rates ≤ DK_MAX_TURN_RATE rad/s, sizes and circle radii DK_MIN_SIZE…DK_MAX_SIZE
// pt, densities DK_MIN_DENSITY…DK_MAX_DENSITY, gravity components ≤ DK_MAX_GRAVITY pt/s² (the animator's
// ±10⁶ gravity units of 1000 pt/s²).
#define DK_MAX_COORDINATE 1.0e15f
#define DK_MAX_SPEED 1.0e7f
#define DK_MAX_TURN_RATE 1.0e6f
#define DK_MIN_SIZE 1.0e-3f
#define DK_MAX_SIZE 1.0e7f
#define DK_MIN_DENSITY 1.0e-6f
#define DK_MAX_DENSITY 1.0e6f
#define DK_MAX_GRAVITY 1.0e9f

// Scratch columns after the public ones: per-substep accelerations of the BLAS path.
// Scratch columns: accelerations of the BLAS path, momentum for reductions, and the step-start pose the
// contact solver measures movement from.
enum {
	dkColumnAccelX = dkColumnPublicCount,
	dkColumnAccelY,
	dkColumnAlpha,
	dkColumnMomentum,
	dkColumnStartX,
	dkColumnStartY,
	dkColumnCos, // cos and sin of the angle at the start of the step (collision)
	dkColumnSin,
	dkColumnTotal
};

// A slot maps an id to its dense row. `dense` is -1 while the slot is free.
typedef struct dkSlot {
	int32_t dense;
	uint32_t generation;
} dkSlot; // 8 bytes
_Static_assert(sizeof(dkSlot) == 8, "dkSlot is 8 bytes");

typedef struct dkKernels dkKernels;
typedef struct dkShape dkShape;
typedef struct dkContact dkContact;
typedef struct dkContactEvent dkContactEvent;
typedef struct dkMergeEntry dkMergeEntry;
typedef struct dkJoint dkJoint;
typedef struct dkField dkField;
typedef struct dkPairGrid dkPairGrid;
typedef struct dkQueryIndex dkQueryIndex;
typedef struct dkBroadphase dkBroadphase;
typedef struct dkFieldFrame dkFieldFrame;
typedef struct dkTeam dkTeam;
typedef struct dkIsland dkIsland;
typedef struct dkJointPairs dkJointPairs;
typedef struct dkSolverSet dkSolverSet;

// A pair of shape slots, a < b (the broadphase's output).
typedef struct dkPair {
	int32_t a, b;
} dkPair;

// The stores' arrays (array.h); each element type declares the operations where it is complete.
DK_ARRAY_TYPE(dkPair, dkPairArray);
DK_ARRAY_FUNCTIONS(dkPair, dkPairArray)
DK_ARRAY_TYPE(dkSlot, dkSlotArray);
DK_ARRAY_TYPE(dkShape, dkShapeArray);
DK_ARRAY_TYPE(dkContact, dkContactArray);
DK_ARRAY_TYPE(dkContactEvent, dkContactEventArray);
DK_ARRAY_TYPE(dkMergeEntry, dkMergeEntryArray);
DK_ARRAY_TYPE(dkJoint, dkJointArray);
DK_ARRAY_TYPE(dkIsland, dkIslandArray);
DK_ARRAY_TYPE(dkFieldFrame, dkFieldFrameArray);
DK_ARRAY_TYPE(dkSolverSet, dkSolverSetArray);
DK_ARRAY_FUNCTIONS(dkSlot, dkSlotArray)

// A shape slot's record in dkWorld.motion, written by the broadphase's box pass (broadphase.c) for every shape
// whose item can move: its item's velocity (pt/s), how far its box reaches out (2 pt + |v|·dt; 0 for a
// boundary), and its item's position (pt) and rotation (cos, sin) — a boundary's at the origin, unturned.
enum {
	dkMotionVx,
	dkMotionVy,
	dkMotionReach,
	dkMotionUnused,
	dkMotionX,
	dkMotionY,
	dkMotionCos,
	dkMotionSin,
	dkMotionFloats
};

struct dkWorld {
	dkWorldDef def;
	const dkKernels* kernels; // chosen from def.simdLimit and the CPU
	int32_t count;			  // items
	int32_t awake;			  // rows [0, awake) are awake, [awake, count) rest
	int32_t capacity;		  // rows allocated in every column (multiple of DK_PAD)
	float* col[dkColumnTotal];
	uint32_t* flags;  // dense row → dkItem* flags
	uint32_t* slotOf; // dense row → slot
	dkSlotArray slots; // per item slot (count: itemIds.next, in use or free); its capacity is room in itemIds
	dkIdPool itemIds;
	bool hasSnaps;		// some row has snapOmega > 0
	bool allStill;		// every awake row was below the rest thresholds after the last step
	dkProfile profile;
	double jobNs;  // this step so far: time inside dkRunTasks (team.h), on the step's leader
	int32_t jobs;  // and how many
	bool timeJobs; // this step is large enough to run stages in parallel, so its jobs are timed
	double clockNs; // the step's last clock reading (dkNowNs), which the next stage starts from
	dkTeam* team; // the workers of the step in progress (team.c), or null outside a step

	// Collision (shape_store.c, broadphase.c, contact.c, contact_solver.c).
	dkShapeArray shapes; // per shape slot (count: shapeIds.next, in use or free)
	int32_t liveShapes;
	dkIdPool shapeIds;
	dkPairArray pairs; // broadphase output, sorted
	float* aabb;	// 4 floats per shape slot: this step's box (speculative margin and |v|·dt)
	float* fatAabb; // 4 floats per shape slot: the box the pair list is of (+ a margin), renewed when the
					// box leaves it or it is too large (broadphase.c)
	float* motion;	// dkMotionFloats per shape slot, this step: the item's velocity and pose, which the
					// narrowphase reads from here rather than from the item's columns (dkMotionVx …)
	int32_t aabbCapacity;
	bool pairsValid; // the pair list still covers every box (cleared by anything that changes pairs)
	bool pairsReused; // this step's broadphase kept last step's pair list (nothing left its fat box)
	bool pairsPatched; // this step's broadphase found only the pairs of shapes whose fat boxes changed
	bool pairsSplit;   // this step's broadphase found every pair with the still shapes in a grid of their own
	bool pairsRelisted; // this step's broadphase took items that rested or woke into account without a full pass
	bool pairsUnchanged; // this step's pair list is last step's, pair for pair: kept, or found again the same
	bool pairsRetaken;	 // this step's broadphase took shapes made, freed or refiltered in without a full pass
	// Read from a snapshot, which keeps no pair list: the next broadphase finds every pair in a full pass,
	// while pairsValid says what it said in the written world (whether the next contact update sorts).
	bool pairsLost;
	// The shape slots whose shapes were made or freed, or whose filters changed (groups, joints between their
	// items), since the broadphase last listed the shapes, each once (shapeChanged marks them): while the pair
	// list is valid, the broadphase takes them into its lists without a full pass, and the next contact merge
	// sorts. Room for every shape slot (shapeChangeCapacity).
	int32_t* shapeChanges;
	uint8_t* shapeChanged;
	int32_t shapeChangeCount, shapeChangeCapacity;
	bool rotationsCurrent; // the Sin and Cos columns hold every row's rotation for this step (dkStore_Rotations)
	dkPairGrid* grid; // the pair search's grid (pair_grid.c), kept between steps
	dkPairGrid* stillGrid; // the shapes that cannot move, while they are many (pair_grid.c)
	dkPairGrid* looseGrid; // the loose shapes among themselves, while many (pair_grid_update.c)
	// Bumped by everything that moves, makes, removes or reshapes a shape (a step, poses set, items or shapes
	// made or removed, mass properties set): the query grid is built again after it (query_index.c).
	uint64_t revision;
	dkQueryIndex* queryIndex;
	dkBroadphase* broadphase; // what the broadphase keeps between steps (broadphase.c)
	dkContactArray contacts; // sorted by (shapeA, shapeB): one per pair, and others carried until a merge sorts (contact.c)
	int32_t manifoldCount; // contacts with points (dkWorld_ContactCount)
	bool contactsCoverPairs; // the last update succeeded: every pair of the pair list has its contact
	dkContactArray spareContacts; // the other buffer of the double-buffered contact list (its count unused)
	// Contacts whose items all rest or do not move that no solver set holds (their items rest in different
	// sets), and those sets gave back for the next merge, sorted as the list and never in it (contact.c,
	// solver_set.c).
	dkContactArray restingContacts;
	int32_t restingWithPoints; // of them, contacts with points
	dkMergeEntryArray mergeEntries; // scratch of the contact update (contact.c; its count unused)
	dkConstraintLayout contactLayout; // the places of the list's contacts in their colours (contact_layout.c)
	dkContactEventArray events;		// the last step's contact events (dkWorld_ContactEvents)
	dkContactEventArray stepEvents; // the events of the step in progress, which become `events` when it succeeds

	// Joints (joint_store.c, joint_solver.c).
	dkJointArray joints; // per joint slot (count: jointIds.next, in use or free)
	int32_t liveJoints;
	int32_t extraJoints; // live joints with a motor or an angular spring (dkJointHasExtraRows)
	int32_t kinematicItems; // live items with dkItemKinematic
	dkIdPool jointIds;
	dkJointPairs* jointPairs; // item pairs joints keep from colliding (joint_pairs.c), or null
	dkInt32Array awakeJoints; // the awake set's joints (solver_set.c): every joint with an item that moves, and
							  // some without until the next rest; room for every joint
	bool awakeJointsUnsorted; // joints were added out of slot order since the last dkSets_OrderJoints
	dkConstraintLayout jointLayout; // the places of the awake set's joints in their colours (joint_solver.c)

	// Islands (island.c): per item slot, its island (-1 for none) and its neighbours in the island's list.
	int32_t* islandOf;
	int32_t* islandNext;
	int32_t* islandPrev;
	dkIslandArray islands; // per island slot (count: islandIds.next, in use or free)
	dkIdPool islandIds;
	int32_t islandCapacity; // item slots the three columns hold
	int32_t liveIslands;

	// Solver sets (solver_set.c): per item slot, its set (dkSetAwake while awake; a resting item's set; an
	// anchored resting item's is dkSetStatic).
	int32_t* setOf;
	dkSolverSetArray sets; // per set id (count: setIds.next, in use or free)
	dkIdPool setIds;
	int32_t setCapacity;   // item slots setOf holds
	int32_t returningSets; // the first set whose contacts go back to the next merge, -1 for none
	int32_t setContacts, setWithPoints; // contacts the sets hold, and of them those with points
	// The item slots that rested or woke since the broadphase last listed the shapes that move, each once
	// (restChanged marks them): the broadphase moves their shapes between its lists without a full pass, and
	// the next contact merge sorts. Room for every item slot (setCapacity).
	int32_t* restChanges;
	uint8_t* restChanged;
	int32_t restChangeCount;

	// The constraint graph (constraint_graph.c): per item slot, the colours of its contacts and joints.
	uint32_t* colourMask;
	int32_t graphCapacity; // item slots colourMask holds

	// Fields (field_store.c, stage_field_wide.h).
	dkField* fields;	  // DK_MAX_FIELDS slots, allocated with the first field
	int32_t liveFields;
	uint32_t* fieldLo;	  // dense row → membership bits of fields 0–31
	uint32_t* fieldHi;	  // fields 32–63
	dkFieldFrameArray frames; // this step's frames: [substep][live field in slot order] (count unused)
	int32_t framesPerSubstep;
	bool customFieldForces; // the host writes dkColumnFieldForceX/Y
	uint64_t seed;			// noise seed
	double time;			// simulated seconds stepped

	// Substeps (substeps.c).
	float lastSubstep;	   // the substep length of the last step, s (0 before the first)
	float configuredSubstep; // this step: the configured substep length, s (stiffness follows it)
	float substepRatio;	   // this step: its substep length over the last step's (1 when unchanged)
	float substepKick;	   // this step: (last − this substep length) / 2, s
	int32_t substepLevel;  // the steps take 2^level times the configured substeps (dkWorldDef.adaptiveSubsteps)
	double substepsCalm;   // simulated seconds the chains have turned slowly enough for a lower level
	double chainTurn;	   // this step: the chains' largest turn acceleration (dkChains_TurnAcceleration), pt/s²
	bool anchorMoved;	   // an attachment's anchor point moved since the last step (dkWorld_SetJointAnchor)

	// The step arena (arena.c).
	char* arena;
	size_t arenaCapacity, arenaUsed;
	bool arenaShort; // a scratch request found the reservation too small (never, while the bound holds)
};

// Allocation helpers (item_store.c): 64-byte aligned float columns from the world's allocator (memory.h),
// zeroed or left unset (the caller writes every element).
float* dkAllocColumn(const dkWorld* world, int32_t capacity);
float* dkAllocUnsetColumn(const dkWorld* world, int32_t capacity);
void dkFreeColumn(const dkWorld* world, void* column);

// Mass (mass.c): mass and rotational inertia for a definition, as the Units and semantics article
// (Sources/Dynamics/Dynamics.docc/UnitsAndSemantics.md, §Units and frames) gives them.
void dkShapeMass(const dkItemDef* def, float* mass, float* inertia);

// Step arena (arena.c). dkArena_Reserve makes room for `bytes` of scratch, between steps or at a point of a
// step where no scratch is out; false when out of memory. dkScratch takes from the reservation (null, with
// arenaShort set, past it); a null world (the kernel's checks) takes from the C library instead.
// dkScratchFree gives back only what the C library gave: the arena's scratch goes back with dkArena_Release
// to a mark. dkScratch is not thread-safe: only a step's serial parts take scratch.
bool dkArena_Reserve(dkWorld* world, size_t bytes);
void* dkScratch(dkWorld* world, size_t bytes);
void* dkScratchZeroed(dkWorld* world, size_t bytes);
void dkScratchFree(dkWorld* world, void* memory);
size_t dkArena_Mark(const dkWorld* world);
void dkArena_Release(dkWorld* world, size_t mark);
void dkArena_Destroy(dkWorld* world);
// An upper bound of the scratch the rest of a step takes from the point where `contacts` contacts (listed and
// resting) are known, for `substeps` substeps: the constraint solve's and rest's (solver.c); and its
// reservation (false when out of memory).
size_t dkSolver_ScratchBound(const dkWorld* world, int32_t contacts, int32_t substeps);
bool dkSolver_ReserveScratch(dkWorld* world, int32_t contacts, int32_t substeps);

// Item store (item_store.c).
void dkStore_Destroy(dkWorld* world);
void dkStore_MoveRow(dkWorld* world, int32_t dst, int32_t src);
// Room for `rows` rows in every column; false (nothing changed) when out of memory.
bool dkStore_ReserveRows(dkWorld* world, int32_t rows);
void dkStore_SwapRows(dkWorld* world, int32_t a, int32_t b);
// Wakes one row alone (its rest timer restarts); everything else wakes items with their islands
// (solver_set.h, dkSets_WakeRow).
void dkStore_WakeRow(dkWorld* world, int32_t row);
// The Sin and Cos columns of rows [b, e) from their angles (trig.h), for the step's stages that need
// rotations: the broadphase computes every row's, the joint preparation uses them.
void dkStore_Rotations(dkWorld* world, int32_t b, int32_t e);
int32_t dkStore_Resolve(const dkWorld* world, dkItemId id); // dense row or -1
// Whether row `row` has a velocity other than zero (a kinematic item moves while it has one).
static inline bool dkStore_RowMoves(const dkWorld* world, int32_t row)
{
	return world->col[dkColumnVelocityX][row] != 0.0f || world->col[dkColumnVelocityY][row] != 0.0f ||
		   world->col[dkColumnAngularVelocity][row] != 0.0f;
}
// Every id resolved to a row into `rows` (allocated, count entries, freed by the caller), a stale one
// rejected with an error naming it; on failure `rows` is null.
dkResult dkStore_WithRows(const dkWorld* world, const dkItemId* ids, int32_t count, int32_t** rows, dkError* error);

// Substeps (substeps.c). A rigid chain whose links turn at ω opens its joints by h²ω²r/2 in a substep of h
// (r: an anchor's distance from its item's centre, or a rod's length for the turn of the rod), and its
// projection loses energy once that passes 1 pt (joint_chain.c). While the opening would pass
// DK_SUBSTEP_OPENING at the configured substeps, the steps take twice as many, or four times, until the
// chains have turned slowly enough for DK_SUBSTEP_CALM of simulated time per level.
#define DK_SUBSTEP_OPENING 0.05f // pt
#define DK_SUBSTEP_LEVELS 2		 // at most 2² times the configured substeps
#define DK_SUBSTEP_CALM 1.0		 // s
// The substeps of this step from the configured count; sets this step's fields (configuredSubstep,
// substepRatio, substepKick from the last step's length; chainTurn to 0). Changes nothing else, so a step
// that then fails leaves the world as it was.
int32_t dkSubsteps_Begin(dkWorld* world, float dt, int32_t configured);
// When the substep length changed, moves the velocities of the awake rows [0, awake) to the new length:
// each takes substepKick times its constant accelerations (gravity, force, push torque; not the fields').
// Called once the step can no longer fail.
void dkSubsteps_Kick(dkWorld* world);
// After a successful step of `used` substeps: the level of the next steps, from this step's chainTurn.
void dkSubsteps_End(dkWorld* world, float dt, int32_t configured, int32_t used);

// The step (step.c): one step of dt seconds in `substeps` substeps, every stage in its order. False when
// memory ran out: the step then changed nothing and the caller reports dkResultOutOfMemory.
bool dkStep_Run(dkWorld* world, float dt, int32_t substeps);

// The row of an item slot when it moves this step (awake, and not anchored), else -1 (-1 for no item).
static inline int32_t dkMovingRow(const dkWorld* world, int32_t slot)
{
	if (slot < 0) return -1;
	int32_t row = world->slots.data[slot].dense;
	if (row < 0 || row >= world->awake) return -1;
	return (world->col[dkColumnInverseMass][row] > 0.0f || world->col[dkColumnInverseInertia][row] > 0.0f) ? row : -1;
}

// Rest (rest.c), the step's last stage: the rest timers of the awake rows after a step of dt (a world without
// constraints integrates them through `integrateSubsteps` substeps first); then the rows whose island (or,
// in none, whose own timer) may rest leave the awake range.
void dkRest_Step(dkWorld* world, float dt, int32_t integrateSubsteps);

static inline double dkNowNs(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline void dkSetError(dkError* error, dkResult code, int32_t index, const char* field, double value)
{
	if (error) {
		error->code = code;
		error->index = index;
		error->field = field;
		error->value = value;
	}
}

#endif
