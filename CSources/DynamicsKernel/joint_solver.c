// SPDX-License-Identifier: Apache-2.0
// Stage: the joint solver's once-per-step work. Before the substeps, every joint that links a moving item
// is laid out wide (joint.h) at the place it keeps in its colour (world->jointLayout, constraint_layout.h):
// anchors rotated to the step's start, the centre offset, the relative angle, effective masses, the
// softness of its equality rows, its row switches, and its accumulated impulses (warm start). After the
// substeps the impulses go back to the joints. The per-substep kernels are in stage_joint_wide.h; the
// order of stages is contact_solver.c's.
#include "collision.h"
#include "team.h"
#include "joint.h"
#include "oscillator.h"
#include "trig.h"

#include <assert.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

int32_t dkJoints_Places(dkWorld* world)
{
	dkConstraintLayout* layout = &world->jointLayout;
	int reason = dkLayout_Stale(layout);
	if (reason != dkLayoutKept) { // in the awake set's order: slot order (dkSets_OrderJoints)
		int32_t used[DK_LAYOUT_GROUPS] = {0};
		for (int32_t k = 0; k < world->awakeJoints.count; ++k) {
			dkJoint* j = &world->joints.data[world->awakeJoints.data[k]];
			j->place = used[j->colour]++;
		}
		dkLayout_Reset(layout, used, reason);
		// Room for every place to become a hole: joints are few, and without it a joint given back between
		// steps only makes the next step lay them out again (dkLayout_Leave).
		(void)dkLayout_Reserve(world, layout, world->awakeJoints.count);
	} else {
#ifdef DK_SELF_CHECKS
		dkLayoutCheck check;
		dkLayoutCheck_Begin(&check, layout);
		for (int32_t k = 0; k < world->awakeJoints.count; ++k) {
			const dkJoint* j = &world->joints.data[world->awakeJoints.data[k]];
			dkLayoutCheck_Mark(&check, layout, j->colour, j->place);
		}
		assert(dkLayoutCheck_End(&check, layout) && "the places kept are not the joints' (dkLayout_Forget missed)");
#endif
	}
	return dkLayout_Starts(layout);
}

int32_t dkJoints_Active(const dkWorld* world, int32_t* list, int32_t* rowA, int32_t* rowB, int32_t* slot)
{
	const int32_t* start = world->jointLayout.colourStart;
	int32_t n = 0;
	for (int32_t k = 0; k < world->awakeJoints.count; ++k) {
		int32_t s = world->awakeJoints.data[k];
		const dkJoint* j = &world->joints.data[s];
		int32_t ra = dkMovingRow(world, j->bodyA), rb = dkMovingRow(world, j->bodyB);
		if (ra < 0 && rb < 0) continue; // its place stays an inert joint
		list[n] = s;
		rowA[n] = ra;
		rowB[n] = rb;
		slot[n] = start[j->colour] + j->place;
		n++;
	}
	return n;
}

// Preparing the joints in chunks of the list on any worker: each joint writes only its own place in the
// layout and its own row bits, so the split does not change a bit.
typedef struct dkJointFill {
	const dkWorld* world;
	dkJointSoA* soa;
	const int32_t *list, *rowA, *rowB, *slot;
	const uint8_t* direct;
	uint32_t* laneRows; // per place: dkJointRow* bits, ORed into the group's afterwards
	bool rotations;		// read the items' rotations from the Sin and Cos columns (else compute them)
	float h;
	int32_t n;
	atomic_int next;
} dkJointFill;

#define DK_JOINT_FILL_CHUNK 512

static void fillJoint(const dkJointFill* t, int32_t i, dkSoftness rigid)
{
	const dkWorld* world = t->world;
	dkJointSoA* soa = t->soa;
	float* const* col = world->col;
	float h = t->h;
	int32_t awake = world->awake;
	const dkJoint* j = &world->joints.data[t->list[i]];
	const dkJointParams* d = &j->def;
	int32_t k = t->slot[i], ra = t->rowA[i], rb = t->rowB[i];
	float* f = dkJsAt(soa, 0, k);
#define F(field) f[(field) * DK_CONSTRAINT_PAD]
	soa->stateA[k] = ra >= 0 ? ra : awake;
	soa->stateB[k] = rb >= 0 ? rb : awake;
	soa->joint[k] = t->list[i];
	float mA = ra >= 0 ? col[dkColumnInverseMass][ra] : 0.0f, iA = ra >= 0 ? col[dkColumnInverseInertia][ra] : 0.0f;
	float mB = rb >= 0 ? col[dkColumnInverseMass][rb] : 0.0f, iB = rb >= 0 ? col[dkColumnInverseInertia][rb] : 0.0f;
	// Poses at the step's start: an item's (moving, resting or anchored), or the world's origin.
	int32_t anyA = j->bodyA >= 0 ? world->slots.data[j->bodyA].dense : -1, anyB = world->slots.data[j->bodyB].dense;
	float xa = anyA >= 0 ? col[dkColumnPositionX][anyA] : 0, ya = anyA >= 0 ? col[dkColumnPositionY][anyA] : 0;
	float aa = anyA >= 0 ? col[dkColumnAngle][anyA] : 0;
	float xb = col[dkColumnPositionX][anyB], yb = col[dkColumnPositionY][anyB], ab = col[dkColumnAngle][anyB];
	float ca = 1.0f, sa = 0.0f, cb, sb; // the world's angle is 0: sine 0, cosine 1
	if (t->rotations) {
		if (anyA >= 0) {
			sa = col[dkColumnSin][anyA];
			ca = col[dkColumnCos][anyA];
		}
		sb = col[dkColumnSin][anyB];
		cb = col[dkColumnCos][anyB];
	} else {
		if (anyA >= 0) dkSinCos(aa, &sa, &ca);
		dkSinCos(ab, &sb, &cb);
	}
	float rAx = ca * d->anchorAx - sa * d->anchorAy, rAy = sa * d->anchorAx + ca * d->anchorAy;
	float rBx = cb * d->anchorBx - sb * d->anchorBy, rBy = sb * d->anchorBx + cb * d->anchorBy;
	float dcx = xb - xa, dcy = yb - ya;
	F(dkJsMassA) = mA;
	F(dkJsInertiaA) = iA;
	F(dkJsMassB) = mB;
	F(dkJsInertiaB) = iB;
	F(dkJsRAx) = rAx;
	F(dkJsRAy) = rAy;
	F(dkJsRBx) = rBx;
	F(dkJsRBy) = rBy;
	F(dkJsDeltaX) = dcx;
	F(dkJsDeltaY) = dcy;
	F(dkJsAngle) = (ab - aa) - j->referenceAngle;
	// The axis at the step's start and the effective mass along it.
	float dx = dcx + (rBx - rAx), dy = dcy + (rBy - rAy), ux, uy;
	if (d->kind == dkJointPrismatic) {
		ux = ca * j->axisX - sa * j->axisY;
		uy = sa * j->axisX + ca * j->axisY;
	} else {
		float len = sqrtf(dx * dx + dy * dy);
		ux = len > 1.0e-4f ? dx / len : 0.0f;
		uy = len > 1.0e-4f ? dy / len : 0.0f;
	}
	F(dkJsAxisX) = ux;
	F(dkJsAxisY) = uy;
	float a1 = (dx + rAx) * uy - (dy + rAy) * ux, a2 = rBx * uy - rBy * ux;
	float ka = mA + mB + iA * a1 * a1 + iB * a2 * a2;
	F(dkJsAxialMass) = ka > 0.0f ? 1.0f / ka : 0.0f;
	F(dkJsAngleMass) = iA + iB > 0.0f ? 1.0f / (iA + iB) : 0.0f;
	uint32_t all = dkJointRowsOf(&j->def), rows = all & ~(uint32_t)t->direct[i];
	F(dkJsDistance) = d->kind == dkJointDistance;
	F(dkJsLength) = d->length;
	if (d->kind == dkJointDistance) {
		F(dkJsAxialLower) = d->minLength;
		F(dkJsAxialUpper) = d->maxLength;
	} else {
		F(dkJsAxialLower) = j->referenceTranslation + d->lower;
		F(dkJsAxialUpper) = j->referenceTranslation + d->upper;
	}
	F(dkJsAngleLower) = d->lower;
	F(dkJsAngleUpper) = d->upper;
	F(dkJsFrictionMax) = d->maxFrictionTorque * h;
	if (d->hertz > 0.0f) {
		dkSpringStep spring = dkSpringStepOf(d->hertz, d->dampingRatio, h);
		F(dkJsSoftBias) = spring.bias;
		F(dkJsSoftMass) = spring.massScale;
		F(dkJsSoftImpulse) = spring.impulseScale;
	} else {
		F(dkJsSoftBias) = rigid.biasRate;
		F(dkJsSoftMass) = rigid.massScale;
		F(dkJsSoftImpulse) = rigid.impulseScale;
	}
	F(dkJsSpring) = d->hertz > 0.0f;
	F(dkJsPoint) = (rows & dkJointRowPoint) != 0;
	F(dkJsAngleEq) = (rows & dkJointRowAngleEq) != 0;
	F(dkJsPrism) = (rows & dkJointRowPrism) != 0;
	F(dkJsAxialEq) = (rows & dkJointRowAxialEq) != 0;
	F(dkJsAxialLimit) = (rows & dkJointRowAxialLimit) != 0;
	F(dkJsAngleLimit) = (rows & dkJointRowAngleLimit) != 0;
	F(dkJsFriction) = (rows & dkJointRowFriction) != 0;
	t->laneRows[k] = rows;
	// Warm start from the last step (per substep: scaled to this step's substep length); rows that are off
	// start from zero.
	float r = world->substepRatio;
	F(dkJsLinearX) = (rows & dkJointRowPoint) ? j->linearX * r : 0.0f;
	F(dkJsLinearY) = (rows & dkJointRowPoint) ? j->linearY * r : 0.0f;
	F(dkJsAxial) = (rows & dkJointRowAxialEq) ? j->axial * r : 0.0f;
	F(dkJsAxialLowerImpulse) = (rows & dkJointRowAxialLimit) ? j->axialLower * r : 0.0f;
	F(dkJsAxialUpperImpulse) = (rows & dkJointRowAxialLimit) ? j->axialUpper * r : 0.0f;
	F(dkJsPerp) = (rows & dkJointRowPrism) ? j->perp * r : 0.0f;
	F(dkJsAngular) = (rows & (dkJointRowAngleEq | dkJointRowPrism)) ? j->angular * r : 0.0f;
	F(dkJsAngleLowerImpulse) = (rows & dkJointRowAngleLimit) ? j->angleLower * r : 0.0f;
	F(dkJsAngleUpperImpulse) = (rows & dkJointRowAngleLimit) ? j->angleUpper * r : 0.0f;
	F(dkJsFrictionImpulse) = (rows & dkJointRowFriction) ? j->friction * r : 0.0f;
	// A motor's and an angular spring's fields, in their own layout (allocated when some joint has them).
	uint32_t extra = all & dkJointRowsExtra;
	if (extra) {
		assert(soa->extra && "a joint with a motor or an angular spring is not counted in world->extraJoints");
#define X(field) (*dkJxAt(soa, (field), k))
		X(dkJxMotorSpeed) = d->motorSpeed;
		X(dkJxMotorMax) = (d->kind == dkJointPrismatic ? d->maxMotorForce : d->maxMotorTorque) * h; // infinite: unlimited
		if (extra & dkJointRowAngleSpring) {
			dkSpringStep spring = dkSpringStepOf(d->angularHertz, d->angularDampingRatio, h);
			X(dkJxRestAngle) = d->restAngle;
			X(dkJxSpringBias) = spring.bias;
			X(dkJxSpringMass) = spring.massScale;
			X(dkJxSpringImpulseScale) = spring.impulseScale;
		}
		X(dkJxMotor) = (rows & dkJointRowMotor) != 0;
		X(dkJxAngleSpring) = (rows & dkJointRowAngleSpring) != 0;
		X(dkJxAxialMotor) = (rows & dkJointRowAxialMotor) != 0;
		X(dkJxMotorImpulse) = (rows & dkJointRowMotor) ? j->motor * r : 0.0f;
		X(dkJxSpringImpulse) = (rows & dkJointRowAngleSpring) ? j->spring * r : 0.0f;
		X(dkJxAxialMotorImpulse) = (rows & dkJointRowAxialMotor) ? j->motor * r : 0.0f;
	}
#undef X
#undef F
}

static void jointFillTask(void* context, int32_t worker)
{
	(void)worker;
	dkJointFill* t = context;
	float h = t->h;
	// As Box2D, capped at the configured substeps' rate (solver.c, runStages).
	dkSoftness rigid = dkMakeSoft(fminf(DK_JOINT_HERTZ, 0.5f / t->world->configuredSubstep), DK_JOINT_DAMPING_RATIO, h);
	for (int32_t b, e; dkClaimChunk(&t->next, DK_JOINT_FILL_CHUNK, t->n, &b, &e);)
		for (int32_t i = b; i < e; ++i) fillJoint(t, i, rigid);
}

// The rows' rotations in chunks on any worker (dkStore_Rotations: every row writes only its own).
typedef struct dkRotationTask {
	dkWorld* world;
	atomic_int next;
} dkRotationTask;

static void rotationTask(void* context, int32_t worker)
{
	(void)worker;
	dkRotationTask* t = context;
	for (int32_t b, e; dkClaimChunk(&t->next, DK_JOINT_FILL_CHUNK, t->world->count, &b, &e);)
		dkStore_Rotations(t->world, b, e);
}

bool dkJoints_Prepare(dkWorld* world, dkJointSoA* soa, const int32_t* list, const int32_t* rowA, const int32_t* rowB,
					  const int32_t* slot, const uint8_t* direct, int32_t total, int32_t n, float h)
{
	int32_t cap = total > 0 ? total : 1, groups = (cap + DK_CONSTRAINT_PAD - 1) / DK_CONSTRAINT_PAD;
	memset(soa, 0, sizeof *soa);
	soa->zeroState = world->awake;
	if (total == 0) return true; // no joint places: an empty layout, which no stage reads
	soa->count = total;
	soa->stateA = dkScratch(world, (size_t)cap * sizeof(int32_t));
	soa->stateB = dkScratch(world, (size_t)cap * sizeof(int32_t));
	soa->joint = dkScratch(world, (size_t)cap * sizeof(int32_t));
	soa->rows = dkScratchZeroed(world, ((size_t)groups) * sizeof(uint32_t));
	soa->block = dkScratchZeroed(world, (size_t)groups * dkJsColumns * DK_CONSTRAINT_PAD * sizeof(float)); // zeroed: padding is inert
	if (world->extraJoints > 0) soa->extra = dkScratchZeroed(world, (size_t)groups * dkJxColumns * DK_CONSTRAINT_PAD * sizeof(float));
	uint32_t* laneRows = dkScratchZeroed(world, ((size_t)cap) * sizeof(uint32_t));
	if (!soa->stateA || !soa->stateB || !soa->joint || !soa->rows || !soa->block || !laneRows ||
		(world->extraJoints > 0 && !soa->extra)) {
		return false;
	}
	int32_t awake = world->awake;
	soa->zeroState = awake;
	for (int32_t k = 0; k < total; ++k) {
		soa->stateA[k] = soa->stateB[k] = awake;
		soa->joint[k] = -1;
	}
	// Each joint needs the rotations of its two items. Without a collision stage this step, they are
	// computed here once per row when the joints are at least half as many as the rows (an item is in
	// several joints: in joint_grid, four), and per joint otherwise. Both give the same bits.
	int32_t workers = world->def.workerCount;
	if (!world->rotationsCurrent && 2 * n >= world->count) {
		dkRotationTask rotate = {.world = world};
		atomic_init(&rotate.next, 0);
		dkRunTasks(world, rotationTask, &rotate, world->count >= 2 * DK_JOINT_FILL_CHUNK ? workers : 1);
		world->rotationsCurrent = true;
	}
	dkJointFill fill = {.world = world, .soa = soa, .list = list, .rowA = rowA, .rowB = rowB, .slot = slot,
						.direct = direct, .laneRows = laneRows, .rotations = world->rotationsCurrent, .h = h, .n = n};
	atomic_init(&fill.next, 0);
	dkRunTasks(world, jointFillTask, &fill, n >= 2 * DK_JOINT_FILL_CHUNK ? workers : 1);
	for (int32_t k = 0; k < total; ++k) soa->rows[k / DK_CONSTRAINT_PAD] |= laneRows[k];
	return true;
}

void dkJoints_StoreImpulses(dkWorld* world, const dkJointSoA* soa)
{
	for (int32_t k = 0; k < soa->count; ++k) {
		if (soa->joint[k] < 0) continue;
		dkJoint* j = &world->joints.data[soa->joint[k]];
		const float* f = dkJsAt(soa, 0, k);
		j->linearX = f[dkJsLinearX * DK_CONSTRAINT_PAD];
		j->linearY = f[dkJsLinearY * DK_CONSTRAINT_PAD];
		j->axial = f[dkJsAxial * DK_CONSTRAINT_PAD];
		j->axialLower = f[dkJsAxialLowerImpulse * DK_CONSTRAINT_PAD];
		j->axialUpper = f[dkJsAxialUpperImpulse * DK_CONSTRAINT_PAD];
		j->perp = f[dkJsPerp * DK_CONSTRAINT_PAD];
		j->angular = f[dkJsAngular * DK_CONSTRAINT_PAD];
		j->angleLower = f[dkJsAngleLowerImpulse * DK_CONSTRAINT_PAD];
		j->angleUpper = f[dkJsAngleUpperImpulse * DK_CONSTRAINT_PAD];
		j->friction = f[dkJsFrictionImpulse * DK_CONSTRAINT_PAD];
		if (soa->extra && (soa->rows[k / DK_CONSTRAINT_PAD] & dkJointRowsExtra)) { // one of the motors' is 0
			j->motor = *dkJxAt(soa, dkJxMotorImpulse, k) + *dkJxAt(soa, dkJxAxialMotorImpulse, k);
			j->spring = *dkJxAt(soa, dkJxSpringImpulse, k);
		}
	}
}
