// SPDX-License-Identifier: Apache-2.0
// Dynamics kernel: joints (the attachments of the Swift API). Lengths in points, angles in radians.
// A joint links item B to item A, or to a fixed point of the world when A is the null id. Joints are
// solved with the contacts, in the same graph colours (contact_solver.c, stage_joint_wide.h).
#ifndef DK_JOINT_H
#define DK_JOINT_H

#include "dk_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dkWorld dkWorld;

/// A limit that never binds (pt or rad): the default lower (negated) and upper limits.
#define DK_JOINT_NO_LIMIT 1.0e18f

/// A joint id: slot index + 1 (zero is the null id) and the slot's generation.
typedef struct dkJointId {
	uint32_t index1;
	uint32_t generation;
} dkJointId;

typedef enum dkJointKind {
	/// Keeps the anchors `length` apart (rigid, or a spring when hertz > 0), and within
	/// [minLength, maxLength] when limits are on. A rope is free (hertz 0, `rigid` false) with a maximum.
	dkJointDistance = 0,
	/// The anchors coincide; the items turn freely about them, with optional angle limits and friction.
	dkJointRevolute = 1,
	/// The anchors coincide and the relative angle is fixed.
	dkJointWeld = 2,
	/// B moves relative to A only along `axis`; no relative rotation; optional translation limits.
	dkJointPrismatic = 3,
} dkJointKind;

typedef struct dkJointDef {
	dkJointKind kind;
	dkItemId itemA; ///< null: the world, and anchorA is a world point
	dkItemId itemB;
	float anchorAx, anchorAy; ///< pt, item A's frame (offset from its centre, unrotated), or world
	float anchorBx, anchorBy; ///< pt, item B's frame
	float axisX, axisY;		  ///< prismatic: the axis in A's frame (world when A is null); any length > 0
	float length;			  ///< distance: rest length, pt
	float minLength, maxLength; ///< distance limits, pt (used when enableLimit)
	bool rigid;				  ///< distance: hold `length` (with hertz > 0: as a spring); false: free inside the limits
	float hertz;			  ///< > 0: the equality rows are springs of this frequency, Hz; 0: rigid
	float dampingRatio;		  ///< of the spring (1 = critical)
	bool enableLimit;
	float lower, upper;		  ///< revolute: rad from the creation angle; prismatic: pt from the creation offset
	float maxFrictionTorque;  ///< revolute: mass·pt²/s² (the solver's torque unit; 100 × N·pt)
	bool collideConnected;	  ///< the two items collide with each other (default false: they pass through)
	/// Revolute: a motor drives ω_B − ω_A toward motorSpeed (rad/s) with at most maxMotorTorque
	/// (mass·pt²/s², as maxFrictionTorque; INFINITY: unlimited). It acts beside the friction and the limits.
	/// Prismatic: it drives B's speed along the axis relative to A toward motorSpeed (pt/s) with at most
	/// maxMotorForce (mass·pt/s², 100 × N; INFINITY: unlimited).
	bool enableMotor;
	float motorSpeed;
	float maxMotorTorque, maxMotorForce;
	/// Revolute: with angularHertz > 0, a spring of that frequency (Hz) and damping ratio turns the relative
	/// angle toward restAngle (rad from the creation angle), beside the motor, friction and limits.
	float angularHertz, angularDampingRatio, restAngle;
} dkJointDef;

dkJointDef dkDefaultJointDef(void);

/// Creates `count` joints. The relative angle (and, for prismatic joints, the offset along the axis) at
/// creation is the reference the limits count from. Everything is validated before anything is created:
/// a stale item id, an item joined to itself, a non-finite or out-of-range number fails with the index of
/// the definition and the field's name. Wakes the items.
dkResult dkWorld_CreateJoints(dkWorld* world, const dkJointDef* defs, int32_t count, dkJointId* outIds,
							  dkError* error);
/// Destroys joints; a stale or repeated id fails the whole call. Wakes the items.
dkResult dkWorld_DestroyJoints(dkWorld* world, const dkJointId* ids, int32_t count, dkError* error);
/// Whether the items of each joint collide with each other (joints to the world are unaffected). A stale id
/// fails the whole call. Wakes the items of joints that change.
dkResult dkWorld_SetJointsCollide(dkWorld* world, const dkJointId* ids, int32_t count, bool collide, dkError* error);
bool dkWorld_JointIsValid(const dkWorld* world, dkJointId id);
int32_t dkWorld_JointCount(const dkWorld* world);

/// Moves the world anchor of a joint whose item A is null (pt); wakes item B.
dkResult dkWorld_SetJointAnchor(dkWorld* world, dkJointId id, float x, float y, dkError* error);
/// Changes length, limits, spring and friction (the kind, items and anchors stay); wakes the items.
dkResult dkWorld_SetJointParameters(dkWorld* world, dkJointId id, const dkJointDef* def, dkError* error);
/// The anchors of a joint in world coordinates (pt) for the current poses.
dkResult dkWorld_JointAnchors(const dkWorld* world, dkJointId id, float* outAx, float* outAy, float* outBx,
							  float* outBy, dkError* error);

#ifdef __cplusplus
}
#endif
#endif
