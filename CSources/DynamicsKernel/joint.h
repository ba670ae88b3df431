// SPDX-License-Identifier: Apache-2.0
// Internal: joints (joint_store.c), their wide solver layout, and the joint stages (joint_solver.c,
// stage_joint_wide.h).
#ifndef DK_JOINT_INTERNAL_H
#define DK_JOINT_INTERNAL_H

#include "constraint.h"
#include "constraint_graph.h"
#include "core.h"
#include "dk_joint.h"

#define DK_JOINT_DAMPING_RATIO 2.0f	 // damping of rigid joints (Box2D's default)
#define DK_CHAIN_STIFFNESS 3.0f		 // frequency of chain joints (joint_chain.c), in configured substeps per second
#define DK_CHAIN_PROJECTED_STIFFNESS 6.0f // the same for the chains the projection keeps (no limits, not braced)
#define DK_CHAIN_SCRATCH 46 // doubles of scratch per chain joint (joint_chain.c)

// What a joint keeps of its definition (dkJointDef): the kind and parameters, without the items (bodyA and
// bodyB hold them) or the axis (axisX and axisY hold it, normalised), the flags packed, the motor's and the
// angular spring's last: what a joint kept before it had them stays in the same lines, and a joint is no
// larger than then (a larger one made the preparation of every joint slower).
typedef struct dkJointParams {
	dkJointKind kind;
	float anchorAx, anchorAy, anchorBx, anchorBy;
	float length, minLength, maxLength;
	float hertz, dampingRatio;
	float lower, upper;
	float maxFrictionTorque;
	bool rigid, enableLimit, collideConnected, enableMotor;
	float motorSpeed, maxMotorTorque, maxMotorForce;
	float angularHertz, angularDampingRatio, restAngle;
} dkJointParams;

static inline dkJointParams dkJointParamsOf(const dkJointDef* d)
{
	return (dkJointParams){.kind = d->kind, .anchorAx = d->anchorAx, .anchorAy = d->anchorAy, .anchorBx = d->anchorBx,
						   .anchorBy = d->anchorBy, .length = d->length, .minLength = d->minLength,
						   .maxLength = d->maxLength, .hertz = d->hertz, .dampingRatio = d->dampingRatio,
						   .lower = d->lower, .upper = d->upper, .maxFrictionTorque = d->maxFrictionTorque,
						   .rigid = d->rigid, .enableLimit = d->enableLimit, .collideConnected = d->collideConnected,
						   .enableMotor = d->enableMotor, .motorSpeed = d->motorSpeed, .maxMotorTorque = d->maxMotorTorque,
						   .maxMotorForce = d->maxMotorForce, .angularHertz = d->angularHertz,
						   .angularDampingRatio = d->angularDampingRatio, .restAngle = d->restAngle};
}

typedef struct dkJoint {
	int32_t bodyA, bodyB;  // item slots, -1 for the world
	uint32_t generation;
	bool alive;
	float referenceAngle;		// angle B − angle A at creation, rad
	float referenceTranslation; // prismatic: offset of B's anchor along the axis at creation, pt
	float axisX, axisY;			// prismatic: unit axis in A's frame
	// Accumulated impulses (warm start): point, axial (equality, lower, upper), perpendicular, angular
	// (equality, lower, upper), friction, motor, angular spring.
	float linearX, linearY, axial, axialLower, axialUpper, perp, angular, angleLower, angleUpper, friction, motor, spring;
	bool braced; // its chain was braced in the last step (dkChains_FindBraced)
	uint8_t colour, colourSides; // its colour in the constraint graph, and which items took its bit (dkGraph_Add)
	// Its solver set (solver_set.c): dkSetAwake while in world->awakeJoints (at `awakeIndex`), else a set whose
	// list of joints runs through prevInSet and nextInSet.
	int32_t set, awakeIndex, prevInSet, nextInSet;
	int32_t place; // in the awake set: its place in its colour (world->jointLayout, constraint_layout.h)
	dkJointParams def; // as created or last changed; anchors in the items' frames
} dkJoint;
DK_ARRAY_FUNCTIONS(dkJoint, dkJointArray)

// The wide layout (dkJsAt): joints in colour order, each colour padded to DK_CONSTRAINT_PAD with inert joints
// (zero masses, every row switched off, the zero state).
enum {
	dkJsMassA, dkJsInertiaA, dkJsMassB, dkJsInertiaB,
	dkJsRAx, dkJsRAy, dkJsRBx, dkJsRBy, // anchors relative to the centres at the step's start
	dkJsDeltaX, dkJsDeltaY,				// centre B − centre A at the step's start
	dkJsAngle,							// relative angle at the step's start, minus the reference
	dkJsAxisX, dkJsAxisY,				// prismatic: the world axis at the step's start
	dkJsLength, dkJsAxialLower, dkJsAxialUpper, dkJsAngleLower, dkJsAngleUpper, dkJsFrictionMax,
	dkJsSoftBias, dkJsSoftMass, dkJsSoftImpulse, // softness of the equality rows (springs: oscillator.h)
	dkJsSpring,									 // 1: the equality rows are springs (solved once per substep)
	// row switches, 1 or 0
	dkJsPoint, dkJsAngleEq, dkJsPrism, dkJsAxialEq, dkJsAxialLimit, dkJsAngleLimit, dkJsFriction, dkJsDistance,
	dkJsAxialMass, dkJsAngleMass,
	// accumulated impulses
	dkJsLinearX, dkJsLinearY, dkJsAxial, dkJsAxialLowerImpulse, dkJsAxialUpperImpulse, dkJsPerp,
	dkJsAngular, dkJsAngleLowerImpulse, dkJsAngleUpperImpulse, dkJsFrictionImpulse,
	dkJsColumns
};

// The fields of the rows few joints have (motors, angular springs), in a layout of their own (dkJxAt) that a
// step without such joints does not allocate: in the main layout they made every joint's preparation write
// and clear a quarter more (Benchmarks/results has the measurement).
enum {
	dkJxMotorSpeed, dkJxMotorMax, // a pin's motor's target ω_B − ω_A (rad/s), or a slider's speed along its axis
								  // (pt/s), and its largest impulse per substep
	dkJxRestAngle, dkJxSpringBias, dkJxSpringMass, dkJxSpringImpulseScale, // the angular spring (oscillator.h)
	dkJxMotor, dkJxAngleSpring, dkJxAxialMotor, // row switches, 1 or 0
	dkJxMotorImpulse, dkJxSpringImpulse, dkJxAxialMotorImpulse, // accumulated impulses
	dkJxColumns
};

// Which rows some lane of a group of DK_CONSTRAINT_PAD joints uses: a wide batch skips the rows no lane of
// its group uses (the lanes that use a row compute it identically at every width).
enum {
	dkJointRowPoint = 1u << 0, dkJointRowAngleEq = 1u << 1, dkJointRowPrism = 1u << 2, dkJointRowAxialEq = 1u << 3,
	dkJointRowAxialLimit = 1u << 4, dkJointRowAngleLimit = 1u << 5, dkJointRowFriction = 1u << 6,
	dkJointRowMotor = 1u << 7, dkJointRowAngleSpring = 1u << 8, dkJointRowAxialMotor = 1u << 9,
	dkJointRowsExtra = dkJointRowMotor | dkJointRowAngleSpring | dkJointRowAxialMotor, // the rows of dkJxAt's fields
};

typedef struct dkJointSoA {
	int32_t count; // padded
	int32_t zeroState;
	int32_t* stateA;
	int32_t* stateB;
	int32_t* joint;		// slot, -1 for padding
	uint32_t* rows;		// per group of DK_CONSTRAINT_PAD joints: dkJointRow* bits
	float* block;		// count / DK_CONSTRAINT_PAD blocks of dkJsColumns × DK_CONSTRAINT_PAD floats (dkJsAt)
	float* extra;		// the same of dkJxColumns (dkJxAt), or null when no joint has a dkJointRowsExtra row
} dkJointSoA;

// Field `field` of joint k. As in the contact layout (contact_soa.h), the fields of DK_CONSTRAINT_PAD
// neighbouring joints form one block, field by field: a batch reads each field as one vector, and
// preparing a joint writes one block.
static inline float* dkJsAt(const dkJointSoA* s, int32_t field, int32_t k)
{
	uint32_t u = (uint32_t)k;
	return s->block + (size_t)(u / DK_CONSTRAINT_PAD) * (dkJsColumns * DK_CONSTRAINT_PAD) + (size_t)field * DK_CONSTRAINT_PAD +
		   u % DK_CONSTRAINT_PAD;
}


// Field `field` (dkJx…) of joint k, in the layout of the rows few joints have.
static inline float* dkJxAt(const dkJointSoA* s, int32_t field, int32_t k)
{
	uint32_t u = (uint32_t)k;
	return s->extra + (size_t)(u / DK_CONSTRAINT_PAD) * (dkJxColumns * DK_CONSTRAINT_PAD) + (size_t)field * DK_CONSTRAINT_PAD +
		   u % DK_CONSTRAINT_PAD;
}

// A rigid rod shorter than DK_POINT_ROD_LENGTH holds its two anchors together: it has a pin's point rows
// rather than an axial row, whose direction a zero length leaves undefined (an item dragged by its centre,
// UIKit's attachment to an anchor at the item's own point). A nearly zero length is no better: the axial
// row's direction swings with every substep's motion (a rod of length L under an acceleration a is a
// pendulum with ω² = a / L, unstable once h²a / L > 1, and 0.004 pt from rounding an anchor through a
// 4·10⁻⁵ rad rotation is far below that), so the item's speed across the rod grows while the chain
// projection holds its position. Holding the anchors together instead moves them at most the length apart,
// less than the contacts' allowed overlap.
#define DK_POINT_ROD_LENGTH 0.5f // pt

static inline bool dkJointIsPointRod(const dkJointParams* d)
{
	return d->kind == dkJointDistance && d->rigid && d->length < DK_POINT_ROD_LENGTH;
}

// The rows a joint's kind and parameters use (dkJointRow* bits).
static inline uint32_t dkJointRowsOf(const dkJointParams* d)
{
	switch (d->kind) {
	case dkJointDistance:
		if (dkJointIsPointRod(d)) return dkJointRowPoint;
		return (d->rigid ? dkJointRowAxialEq : 0) | (d->enableLimit ? dkJointRowAxialLimit : 0);
	case dkJointRevolute: {
		uint32_t rows = dkJointRowPoint | (d->enableLimit ? dkJointRowAngleLimit : 0) |
						(d->maxFrictionTorque > 0 ? dkJointRowFriction : 0);
		if (d->enableMotor || d->angularHertz > 0) // few pins: one predictable branch for the others
			rows |= (d->enableMotor ? dkJointRowMotor : 0) | (d->angularHertz > 0 ? dkJointRowAngleSpring : 0);
		return rows;
	}
	case dkJointWeld: return dkJointRowPoint | dkJointRowAngleEq;
	case dkJointPrismatic:
		return dkJointRowPrism | (d->enableLimit ? dkJointRowAxialLimit : 0) | (d->enableMotor ? dkJointRowAxialMotor : 0);
	}
	return 0;
}

// Whether a joint has a motor or an angular spring: rows whose fields are in dkJxAt's layout.
static inline bool dkJointHasExtraRows(const dkJointParams* d) { return (dkJointRowsOf(d) & dkJointRowsExtra) != 0; }

// Joint store (joint_store.c).
void dkJoints_Destroy(dkWorld* world);
// Destroys the joints of every item slot marked in `removed` (one byte per item slot).
void dkJoints_RemoveItems(dkWorld* world, const uint8_t* removed);
// Links the islands of the item in `slot` with those of its joints' other moving items (island.c).
void dkJoints_LinkItem(dkWorld* world, int32_t slot);

// Joint pairs (joint_pairs.c): the item pairs (slots) that joints with collideConnected false keep from
// colliding, counted. Reserve makes room for `extra` more pairs and for every item slot (false when out
// of memory); Add and Remove then cannot fail, and clear pairsValid.
bool dkJointPairs_Reserve(dkWorld* world, int32_t extra);
void dkJointPairs_Add(dkWorld* world, int32_t a, int32_t b);
void dkJointPairs_Remove(dkWorld* world, int32_t a, int32_t b);
bool dkJointPairs_Contains(const dkWorld* world, int32_t a, int32_t b);
bool dkJointPairs_HasSlot(const dkWorld* world, int32_t slot); // the item in `slot` is in some pair
void dkJointPairs_Destroy(dkWorld* world);

// Joint preparation (joint_solver.c). Places: the places of the awake set's joints in their colours
// (world->jointLayout), kept, or laid out again in the awake set's order when dkLayout_Stale says so;
// then each group's start (jointLayout.colourStart); returns the padded total. With DK_SELF_CHECKS the places
// kept are checked. Active: the joints of the awake set that link at least one moving row (world->awakeJoints,
// in slot order: dkSets_OrderJoints), as slots in `list` with their moving rows (-1: does not move) and their
// index in the wide layout (`slot`: their colour's start plus their place); returns how many. Prepare: the
// wide layout of those n joints, joint i at index slot[i] of `total` (every other index inert); the rows in
// direct[i] (dkJointRow* bits, from dkChains_Build) are left to the chain stage: switched off and without
// impulses in the wide layout. False when out of memory.
int32_t dkJoints_Places(dkWorld* world);
int32_t dkJoints_Active(const dkWorld* world, int32_t* list, int32_t* rowA, int32_t* rowB, int32_t* slot);
bool dkJoints_Prepare(dkWorld* world, dkJointSoA* soa, const int32_t* list, const int32_t* rowA, const int32_t* rowB,
					  const int32_t* slot, const uint8_t* direct, int32_t total, int32_t n, float h);

// Joint chains (joint_chain.c): the rigid joints whose moving items each have at most two of them, and
// that form open paths, solved exactly (block tridiagonal) instead of by the coloured Gauss–Seidel passes.
typedef struct dkJointChains {
	int32_t count;		 // chains
	int32_t joints;		 // joints in all chains
	int32_t items;		 // work items: runs of whole chains
	int32_t* start;		 // count + 1: each chain's first joint
	int32_t* itemStart;	 // items + 1: each item's first chain
	int32_t* soaIndex;	 // per chain joint: its index in the wide layout
	uint8_t* rows;		 // per chain joint: its direct rows (dkJointRow* bits)
	uint8_t* sides;		 // per chain joint: bit 0 set when it shares item B with the previous joint, bit 1
						 // when it shares item B with the next (otherwise item A)
	float* impulse;		 // 3 per chain joint: accumulated impulses of its direct rows, in row order
	double* scratch;	 // per chain joint: the factorisation's blocks
	uint8_t* braced;	 // per state index: a dkChainItem value (dkChains_MarkItems, dkChains_FindBraced)
} dkJointChains;

// Finds the chains among the n active joints (dkJoints_Active's list and rows; slot: their wide layout
// indices) and marks each chain joint's direct rows in direct[i] (0 for the others). False when out of
// memory (then nothing is marked and there are no chains).
bool dkChains_Build(dkWorld* world, const int32_t* list, const int32_t* rowA, const int32_t* rowB,
					const int32_t* slot, int32_t n, uint8_t* direct, dkJointChains* chains);
// A chain is braced when a joint to something that does not move (an anchor, an anchored item) pulls its
// item more than DK_CHAIN_BRACED_ERROR into something else that does not move, which it touches: a rigid
// attachment whose anchor is dragged outside the reference bounds pulls its item against a boundary. The
// chain's items' contacts with what does not move are then rigid and solved after the chain, the chain
// corrects its error no faster than a contact pushes out of an overlap (DK_CONTACT_PUSH_MAX_VELOCITY), and
// it is not projected: the contact outranks the joints, so the item stays at the boundary instead of being
// pulled through it. A braced chain stays braced while an error stays above DK_CHAIN_BRACED_ERROR, even
// when its item bounces off for a step, so it does not then fling the item at the speed of its whole
// error. A chain dragged along or away from the floor it lies on is solved as usual.
#define DK_CHAIN_BRACED_ERROR 4.0f // pt (or rad)
enum { dkChainNone = 0, dkChainItem = 1, dkChainPressed = 2, dkChainBraced = 3 };
// Marks the states of chain items (dkChainItem) in chains->braced; false when out of memory.
bool dkChains_MarkItems(dkWorld* world, dkJointChains* chains, const dkJointSoA* soa);
// Adds to pull (2 per state index, pt) the displacement by which the chain joints to something that does
// not move would meet their error at each item at the step's start.
void dkChains_Pulls(const dkJointChains* chains, const dkJointSoA* soa, double* pull);
// After the caller has marked the chain items pulled into something that does not move (dkChainPressed),
// marks every item of a chain with such an item, or that was braced in the last step, and with a joint
// error above DK_CHAIN_BRACED_ERROR (dkChainBraced); records in each chain joint whether its chain is
// braced now.
void dkChains_FindBraced(dkJointChains* chains, const dkJointSoA* soa, dkJoint* joints);
// Raises the inverse inertias (per state index: awake rows, then the zero state) of the items in chains by
// the geometric stiffness of their chain joints under the warm-start impulses, for substeps of h, where
// that stiffness makes their rotation a stiff mode; every constraint of the step then uses them
// (joint_chain.c).
bool dkChains_RaiseInertia(dkWorld* world, const dkJointChains* chains, const dkJointSoA* soa, float h,
						   float* inverseInertia);
// One work item (a run of chains): applies the accumulated impulses (warm start), or solves the chains'
// rows exactly (biased with `soft`'s bias and softness, or relaxed: no bias).
void dkChains_WarmStart(dkJointChains* chains, const dkJointSoA* soa, dkBodyState* states, int32_t item);
void dkChains_Solve(dkJointChains* chains, const dkJointSoA* soa, dkBodyState* states, int32_t item,
					dkSoftness soft, dkSoftness projectedSoft, bool useBias, float invH);
// After a substep's positions: moves the chains' items so that their rows' position errors vanish (a
// Newton step on the positions, the same block elimination with J at the new positions), in the body states
// and the position and angle columns `col` (rows are the states' indices). A rigid rod's velocity row
// keeps its length's rate at zero, but its anchors still move along the tangent: a link turning at ω
// lengthens by h² ω² L / 2 in a substep, and a dragged chain whose tail whips round stretched by several
// percent so. While the errors are small (DK_CHAIN_RATTLE_ERROR) the step is RATTLE's: along the Jacobians
// of the substep's solve, with the velocities taking the displacement over the substep (invH), which keeps a
// pendulum's energy; larger errors are projected along J at the new positions without changing velocities.
void dkChains_Project(dkJointChains* chains, const dkJointSoA* soa, dkBodyState* states, int32_t item, float** col,
					  dkSoftness soft, float invH);
// The largest centripetal acceleration (pt/s²) at the anchors of the projected chains' joints, from the
// velocities at the step's end: ω² times an anchor's distance from its item's centre, plus v²/L for a rod
// of length L whose ends move apart across it at v. A substep of h opens a joint by about h²/2 times it
// (substeps.c).
double dkChains_TurnAcceleration(const dkJointChains* chains, const dkJointSoA* soa, const dkBodyState* states);
// After the step: the chains' impulses back to their joints (after dkJoints_StoreImpulses).
void dkChains_StoreImpulses(dkWorld* world, const dkJointChains* chains, const dkJointSoA* soa);
void dkJoints_StoreImpulses(dkWorld* world, const dkJointSoA* soa);

#endif
