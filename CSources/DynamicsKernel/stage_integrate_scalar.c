// SPDX-License-Identifier: Apache-2.0
// Stage: integration, scalar reference. Per substep h, for each awake row (the laws of the Units and
// semantics article, Sources/Dynamics/Dynamics.docc/UnitsAndSemantics.md):
//   forces:   a = g (dynamic rows only) + 100 F / m,  α = 100 τ(θ) / I
//   velocity: v ← (v + h a) / (1 + h c_lin),  ω ← (ω + h α) / (1 + h c_ang)
//   snap:     v ← keep v − pull (q − target) + lift h a   (the oscillator's exact frequency and decay,
//             oscillator.h; the angle's target is the nearest whole turn)
//   fields:   a += the fields' sum (before the velocity); velocity fields set v after the snap
//   position: q ← q + h v
// These loops are the oracle of the wide and BLAS paths: they are never vectorised.
#include "integrate_math.h"
#include "kernels.h"

// The snap of row i on velocities that already hold the substep's accelerations (ax, ay, al).
static inline void snapRow(dkCols c, int32_t i, float h, float ax, float ay, float al)
{
	float om = c[dkColumnSnapOmega][i];
	if (!(om > 0.0f) || !(c[dkColumnInverseMass][i] > 0.0f)) return;
	dkSnapStep s = dkSnapStepOf(h, om, c[dkColumnSnapZeta][i]);
	c[dkColumnVelocityX][i] =
		(s.keep * c[dkColumnVelocityX][i] - s.pull * (c[dkColumnPositionX][i] - c[dkColumnSnapX][i])) + s.lift * (h * ax);
	c[dkColumnVelocityY][i] =
		(s.keep * c[dkColumnVelocityY][i] - s.pull * (c[dkColumnPositionY][i] - c[dkColumnSnapY][i])) + s.lift * (h * ay);
	if (c[dkColumnInverseInertia][i] > 0.0f)
		c[dkColumnAngularVelocity][i] =
			(s.keep * c[dkColumnAngularVelocity][i] - s.pull * dkTurnRemainder(c[dkColumnAngle][i])) + s.lift * (h * al);
}

static inline float rowAlpha(dkCols c, int32_t i)
{
	float tc = c[dkColumnTorqueCross][i], td = c[dkColumnTorqueDot][i], ii = c[dkColumnInverseInertia][i];
	if ((tc == 0.0f && td == 0.0f) || !(ii > 0.0f)) return 0.0f;
	return dkPushAlpha(c[dkColumnAngle][i], tc, td, ii);
}

static inline float rowAccel(float g, float invMass, float force)
{
	return (invMass > 0.0f ? g : 0.0f) + DK_FORCE_SCALE * invMass * force;
}

void dkAccumulateForces_scalar(dkCols c, int32_t begin, int32_t end)
{
#pragma clang loop vectorize(disable)
	for (int32_t i = begin; i < end; ++i) {
		float im = c[dkColumnInverseMass][i];
		c[dkColumnAccelX][i] = rowAccel(c[dkColumnGravityX][i], im, c[dkColumnForceX][i]);
		c[dkColumnAccelY][i] = rowAccel(c[dkColumnGravityY][i], im, c[dkColumnForceY][i]);
		c[dkColumnAlpha][i] = rowAlpha(c, i);
	}
}

void dkDampAndSnap_scalar(dkCols c, int32_t begin, int32_t end, float h, bool snaps)
{
#pragma clang loop vectorize(disable)
	for (int32_t i = begin; i < end; ++i) {
		float dl = 1.0f + h * c[dkColumnLinearDamping][i];
		float da = 1.0f + h * c[dkColumnAngularDamping][i];
		c[dkColumnVelocityX][i] = c[dkColumnVelocityX][i] / dl;
		c[dkColumnVelocityY][i] = c[dkColumnVelocityY][i] / dl;
		c[dkColumnAngularVelocity][i] = c[dkColumnAngularVelocity][i] / da;
		if (snaps) snapRow(c, i, h, c[dkColumnAccelX][i], c[dkColumnAccelY][i], c[dkColumnAlpha][i]);
	}
}

void dkIntegrateFused_scalar(dkCols c, int32_t begin, int32_t end, float h, int32_t substeps, bool snaps,
							 const dkFieldPass* fields)
{
	for (int32_t s = 0; s < substeps; ++s) {
#pragma clang loop vectorize(disable)
		for (int32_t i = begin; i < end; ++i) {
			float im = c[dkColumnInverseMass][i];
			float ax = rowAccel(c[dkColumnGravityX][i], im, c[dkColumnForceX][i]);
			float ay = rowAccel(c[dkColumnGravityY][i], im, c[dkColumnForceY][i]);
			float al = rowAlpha(c, i);
			if (fields) {
				float fx, fy;
				dkFieldRow_scalar(c, fields->lo, fields->hi, i, &fields->batch[s], c[dkColumnPositionX][i],
								  c[dkColumnPositionY][i], c[dkColumnVelocityX][i], c[dkColumnVelocityY][i], im, &fx,
								  &fy);
				ax = ax + fx;
				ay = ay + fy;
			}
			float dl = 1.0f + h * c[dkColumnLinearDamping][i];
			float da = 1.0f + h * c[dkColumnAngularDamping][i];
			c[dkColumnVelocityX][i] = (c[dkColumnVelocityX][i] + h * ax) / dl;
			c[dkColumnVelocityY][i] = (c[dkColumnVelocityY][i] + h * ay) / dl;
			c[dkColumnAngularVelocity][i] = (c[dkColumnAngularVelocity][i] + h * al) / da;
			if (snaps) snapRow(c, i, h, ax, ay, al);
			if (fields && fields->velocity)
				dkVelocityFieldsRow_scalar(fields->lo, fields->hi, i, &fields->batch[s], c[dkColumnPositionX][i],
										   c[dkColumnPositionY][i], im, &c[dkColumnVelocityX][i],
										   &c[dkColumnVelocityY][i]);
			c[dkColumnPositionX][i] = c[dkColumnPositionX][i] + h * c[dkColumnVelocityX][i];
			c[dkColumnPositionY][i] = c[dkColumnPositionY][i] + h * c[dkColumnVelocityY][i];
			c[dkColumnAngle][i] = c[dkColumnAngle][i] + h * c[dkColumnAngularVelocity][i];
		}
	}
}
