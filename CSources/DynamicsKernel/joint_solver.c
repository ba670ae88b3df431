// Stage: the joint solver's once-per-step work. Before the substeps, every joint that links a moving item
// is laid out wide (joint.h) in the colour order contact_solver.c chose for joints and contacts together:
// anchors rotated to the step's start, the centre offset, the relative angle, effective masses, the
// softness of its equality rows, its row switches, and its accumulated impulses (warm start). After the
// substeps the impulses go back to the joints. The per-substep kernels are in stage_joint_wide.h; the
// order of stages is contact_solver.c's.
#include "collision.h"
#include "joint.h"
#include "trig.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int32_t dkJoints_Active(const dkWorld* world, int32_t* list, int32_t* rowA, int32_t* rowB)
{
	int32_t n = 0;
	for (int32_t s = 0; s < world->jointSlots; ++s) {
		const dkJoint* j = &world->joints[s];
		if (!j->alive) continue;
		int32_t ra = dkMovingRow(world, j->bodyA), rb = dkMovingRow(world, j->bodyB);
		if (ra < 0 && rb < 0) continue;
		list[n] = s;
		rowA[n] = ra;
		rowB[n] = rb;
		n++;
	}
	return n;
}

void dkJoints_FreeSoa(dkJointSoA* soa)
{
	free(soa->stateA);
	free(soa->stateB);
	free(soa->joint);
	free(soa->rows);
	dkFreeColumn(soa->col[0]);
	memset(soa, 0, sizeof *soa);
}

static uint32_t rowsOf(const dkJoint* j)
{
	switch (j->def.kind) {
	case dkJointDistance:
		return (j->def.rigid ? dkJointRowAxialEq : 0) | (j->def.enableLimit ? dkJointRowAxialLimit : 0);
	case dkJointRevolute:
		return dkJointRowPoint | (j->def.enableLimit ? dkJointRowAngleLimit : 0) |
			   (j->def.maxFrictionTorque > 0 ? dkJointRowFriction : 0);
	case dkJointWeld: return dkJointRowPoint | dkJointRowAngleEq;
	case dkJointPrismatic: return dkJointRowPrism | (j->def.enableLimit ? dkJointRowAxialLimit : 0);
	}
	return 0;
}

bool dkJoints_Prepare(dkWorld* world, dkJointSoA* soa, const int32_t* list, const int32_t* rowA, const int32_t* rowB,
					  const int32_t* slot, const uint8_t* direct, int32_t total, int32_t n, float h)
{
	int32_t cap = total > 0 ? total : 1, groups = (cap + DK_CONTACT_PAD - 1) / DK_CONTACT_PAD;
	memset(soa, 0, sizeof *soa);
	soa->count = total;
	soa->stateA = malloc((size_t)cap * sizeof(int32_t));
	soa->stateB = malloc((size_t)cap * sizeof(int32_t));
	soa->joint = malloc((size_t)cap * sizeof(int32_t));
	soa->rows = calloc((size_t)groups, sizeof(uint32_t));
	float* block = dkAllocColumn(cap * dkJsColumns); // zeroed: padding is inert
	if (!soa->stateA || !soa->stateB || !soa->joint || !soa->rows || !block) {
		dkFreeColumn(block);
		dkJoints_FreeSoa(soa);
		return false;
	}
	for (int32_t f = 0; f < dkJsColumns; ++f) soa->col[f] = block + (size_t)f * cap;
	int32_t awake = world->awake;
	soa->zeroState = awake;
	for (int32_t k = 0; k < total; ++k) {
		soa->stateA[k] = soa->stateB[k] = awake;
		soa->joint[k] = -1;
	}
	float** col = world->col;
	float** f = soa->col;
	dkSoftness rigid = dkMakeSoft(fminf(DK_JOINT_HERTZ, 0.5f / h), DK_JOINT_DAMPING_RATIO, h); // as Box2D
	for (int32_t i = 0; i < n; ++i) {
		const dkJoint* j = &world->joints[list[i]];
		const dkJointDef* d = &j->def;
		int32_t k = slot[i], ra = rowA[i], rb = rowB[i];
		soa->stateA[k] = ra >= 0 ? ra : awake;
		soa->stateB[k] = rb >= 0 ? rb : awake;
		soa->joint[k] = list[i];
		float mA = ra >= 0 ? col[dkColumnInverseMass][ra] : 0.0f, iA = ra >= 0 ? col[dkColumnInverseInertia][ra] : 0.0f;
		float mB = rb >= 0 ? col[dkColumnInverseMass][rb] : 0.0f, iB = rb >= 0 ? col[dkColumnInverseInertia][rb] : 0.0f;
		// Poses at the step's start: an item's (moving, resting or anchored), or the world's origin.
		int32_t anyA = j->bodyA >= 0 ? world->slots[j->bodyA].dense : -1, anyB = world->slots[j->bodyB].dense;
		float xa = anyA >= 0 ? col[dkColumnPositionX][anyA] : 0, ya = anyA >= 0 ? col[dkColumnPositionY][anyA] : 0;
		float aa = anyA >= 0 ? col[dkColumnAngle][anyA] : 0;
		float xb = col[dkColumnPositionX][anyB], yb = col[dkColumnPositionY][anyB], ab = col[dkColumnAngle][anyB];
		float ca, sa, cb, sb;
		dkSinCos(aa, &sa, &ca); // the world's angle is 0: sine 0, cosine 1
		dkSinCos(ab, &sb, &cb);
		float rAx = ca * d->anchorAx - sa * d->anchorAy, rAy = sa * d->anchorAx + ca * d->anchorAy;
		float rBx = cb * d->anchorBx - sb * d->anchorBy, rBy = sb * d->anchorBx + cb * d->anchorBy;
		float dcx = xb - xa, dcy = yb - ya;
		f[dkJsMassA][k] = mA;
		f[dkJsInertiaA][k] = iA;
		f[dkJsMassB][k] = mB;
		f[dkJsInertiaB][k] = iB;
		f[dkJsRAx][k] = rAx;
		f[dkJsRAy][k] = rAy;
		f[dkJsRBx][k] = rBx;
		f[dkJsRBy][k] = rBy;
		f[dkJsDeltaX][k] = dcx;
		f[dkJsDeltaY][k] = dcy;
		f[dkJsAngle][k] = (ab - aa) - j->referenceAngle;
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
		f[dkJsAxisX][k] = ux;
		f[dkJsAxisY][k] = uy;
		float a1 = (dx + rAx) * uy - (dy + rAy) * ux, a2 = rBx * uy - rBy * ux;
		float ka = mA + mB + iA * a1 * a1 + iB * a2 * a2;
		f[dkJsAxialMass][k] = ka > 0.0f ? 1.0f / ka : 0.0f;
		f[dkJsAngleMass][k] = iA + iB > 0.0f ? 1.0f / (iA + iB) : 0.0f;
		uint32_t rows = rowsOf(j) & ~(uint32_t)direct[i];
		f[dkJsDistance][k] = d->kind == dkJointDistance;
		f[dkJsLength][k] = d->length;
		if (d->kind == dkJointDistance) {
			f[dkJsAxialLower][k] = d->minLength;
			f[dkJsAxialUpper][k] = d->maxLength;
		} else {
			f[dkJsAxialLower][k] = j->referenceTranslation + d->lower;
			f[dkJsAxialUpper][k] = j->referenceTranslation + d->upper;
		}
		f[dkJsAngleLower][k] = d->lower;
		f[dkJsAngleUpper][k] = d->upper;
		f[dkJsFrictionMax][k] = d->maxFrictionTorque * h;
		dkSoftness soft = d->hertz > 0.0f ? dkMakeSoft(d->hertz, d->dampingRatio, h) : rigid;
		f[dkJsSoftBias][k] = soft.biasRate;
		f[dkJsSoftMass][k] = soft.massScale;
		f[dkJsSoftImpulse][k] = soft.impulseScale;
		f[dkJsSpring][k] = d->hertz > 0.0f;
		f[dkJsPoint][k] = (rows & dkJointRowPoint) != 0;
		f[dkJsAngleEq][k] = (rows & dkJointRowAngleEq) != 0;
		f[dkJsPrism][k] = (rows & dkJointRowPrism) != 0;
		f[dkJsAxialEq][k] = (rows & dkJointRowAxialEq) != 0;
		f[dkJsAxialLimit][k] = (rows & dkJointRowAxialLimit) != 0;
		f[dkJsAngleLimit][k] = (rows & dkJointRowAngleLimit) != 0;
		f[dkJsFriction][k] = (rows & dkJointRowFriction) != 0;
		soa->rows[k / DK_CONTACT_PAD] |= rows;
		// Warm start from the last step; rows that are off start from zero.
		f[dkJsLinearX][k] = (rows & dkJointRowPoint) ? j->linearX : 0.0f;
		f[dkJsLinearY][k] = (rows & dkJointRowPoint) ? j->linearY : 0.0f;
		f[dkJsAxial][k] = (rows & dkJointRowAxialEq) ? j->axial : 0.0f;
		f[dkJsAxialLowerImpulse][k] = (rows & dkJointRowAxialLimit) ? j->axialLower : 0.0f;
		f[dkJsAxialUpperImpulse][k] = (rows & dkJointRowAxialLimit) ? j->axialUpper : 0.0f;
		f[dkJsPerp][k] = j->perp;
		f[dkJsAngular][k] = (rows & (dkJointRowAngleEq | dkJointRowPrism)) ? j->angular : 0.0f;
		f[dkJsAngleLowerImpulse][k] = (rows & dkJointRowAngleLimit) ? j->angleLower : 0.0f;
		f[dkJsAngleUpperImpulse][k] = (rows & dkJointRowAngleLimit) ? j->angleUpper : 0.0f;
		f[dkJsFrictionImpulse][k] = (rows & dkJointRowFriction) ? j->friction : 0.0f;
	}
	return true;
}

void dkJoints_StoreImpulses(dkWorld* world, const dkJointSoA* soa)
{
	float* const* f = soa->col;
	for (int32_t k = 0; k < soa->count; ++k) {
		if (soa->joint[k] < 0) continue;
		dkJoint* j = &world->joints[soa->joint[k]];
		j->linearX = f[dkJsLinearX][k];
		j->linearY = f[dkJsLinearY][k];
		j->axial = f[dkJsAxial][k];
		j->axialLower = f[dkJsAxialLowerImpulse][k];
		j->axialUpper = f[dkJsAxialUpperImpulse][k];
		j->perp = f[dkJsPerp][k];
		j->angular = f[dkJsAngular][k];
		j->angleLower = f[dkJsAngleLowerImpulse][k];
		j->angleUpper = f[dkJsAngleUpperImpulse][k];
		j->friction = f[dkJsFrictionImpulse][k];
	}
}
