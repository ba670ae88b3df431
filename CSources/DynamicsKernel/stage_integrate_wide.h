// SPDX-License-Identifier: Apache-2.0
// Stage template: integration, wide. Instantiated once per SIMD level by simd_<isa>.c (see simd.h).
// Same laws and the same operation order as stage_integrate_scalar.c, so results are bit-identical.
// The fused kernel keeps a vector of rows in registers for all substeps: one pass over memory per step,
// fields included (their frames per substep come in `fields`, see stage_field_wide.h).
// Push torques need cos/sin of each row's angle; the few rows with an off-centre push take a per-lane
// scalar path (dkPushAlpha) inside the vector loop.

static inline dkVf DK_FN(accelOf)(dkVf g, dkVf im, dkVf f)
{
	dkVm dyn = im > 0.0f;
	return dkV_select(dyn, g, dkV_splat(0.0f)) + DK_FORCE_SCALE * im * f;
}

static inline dkVf DK_FN(alphaOf)(dkVm torqued, dkVf angle, dkVf tc, dkVf td, dkVf ii)
{
	dkVf al = dkV_splat(0.0f);
	if (dkV_any(torqued)) {
		for (int l = 0; l < DK_W; ++l)
			if (torqued[l]) al[l] = dkPushAlpha(angle[l], tc[l], td[l], ii[l]);
	}
	return al;
}

static inline dkVm DK_FN(torquedOf)(dkVf tc, dkVf td, dkVf ii)
{
	return ((tc != 0.0f) | (td != 0.0f)) & (ii > 0.0f);
}

// The snap coefficients of DK_W rows (oscillator.h), lane by lane with the scalar function, so every
// width computes the same bits; lanes that do not snap get the identity.
typedef struct DK_FN(dkSnapVec) {
	dkVf keep, pull, lift;
} DK_FN(dkSnapVec);

static inline DK_FN(dkSnapVec) DK_FN(snapStepOf)(dkVf omega, dkVf zeta, dkVm snapped, float h)
{
	DK_FN(dkSnapVec) v;
	for (int l = 0; l < DK_W; ++l) {
		dkSnapStep s = snapped[l] ? dkSnapStepOf(h, omega[l], zeta[l]) : (dkSnapStep){1.0f, 0.0f, 0.0f};
		v.keep[l] = s.keep;
		v.pull[l] = s.pull;
		v.lift[l] = s.lift;
	}
	return v;
}

static void DK_FN(dkIntegrateFused)(dkCols c, int32_t begin, int32_t end, float h, int32_t substeps, bool snaps,
									const dkFieldPass* fields)
{
	int32_t i = begin;
	for (; i + DK_W <= end; i += DK_W) {
		dkVf x = dkV_load(c[dkColumnPositionX] + i), y = dkV_load(c[dkColumnPositionY] + i);
		dkVf a = dkV_load(c[dkColumnAngle] + i);
		dkVf vx = dkV_load(c[dkColumnVelocityX] + i), vy = dkV_load(c[dkColumnVelocityY] + i);
		dkVf w = dkV_load(c[dkColumnAngularVelocity] + i);
		dkVf im = dkV_load(c[dkColumnInverseMass] + i), ii = dkV_load(c[dkColumnInverseInertia] + i);
		dkVf ax = DK_FN(accelOf)(dkV_load(c[dkColumnGravityX] + i), im, dkV_load(c[dkColumnForceX] + i));
		dkVf ay = DK_FN(accelOf)(dkV_load(c[dkColumnGravityY] + i), im, dkV_load(c[dkColumnForceY] + i));
		dkVf tc = dkV_load(c[dkColumnTorqueCross] + i), td = dkV_load(c[dkColumnTorqueDot] + i);
		dkVm torqued = DK_FN(torquedOf)(tc, td, ii);
		dkVf dl = 1.0f + h * dkV_load(c[dkColumnLinearDamping] + i);
		dkVf da = 1.0f + h * dkV_load(c[dkColumnAngularDamping] + i);
		bool damped = dkV_any(dl != 1.0f), turnDamped = dkV_any(da != 1.0f);

		dkVm snapped = {0}, snapTurn = {0};
		dkVf sx = {0}, sy = {0};
		DK_FN(dkSnapVec) snap = {.keep = {0}, .pull = {0}, .lift = {0}};
		bool snapHere = false;
		if (snaps) {
			dkVf om = dkV_load(c[dkColumnSnapOmega] + i);
			snapped = (om > 0.0f) & (im > 0.0f);
			if (dkV_any(snapped)) {
				snap = DK_FN(snapStepOf)(om, dkV_load(c[dkColumnSnapZeta] + i), snapped, h);
				sx = dkV_load(c[dkColumnSnapX] + i);
				sy = dkV_load(c[dkColumnSnapY] + i);
				snapTurn = snapped & (ii > 0.0f);
				snapHere = true;
			}
		}
		for (int32_t s = 0; s < substeps; ++s) {
			dkVf al = DK_FN(alphaOf)(torqued, a, tc, td, ii);
			dkVf tx = ax, ty = ay;
			if (fields) {
				dkVf fx, fy;
				DK_FN(fieldSum)(c, fields->lo, fields->hi, i, &fields->batch[s], x, y, vx, vy, im, &fx, &fy);
				tx = ax + fx;
				ty = ay + fy;
			}
			vx = vx + h * tx;
			vy = vy + h * ty;
			w = w + h * al;
			if (damped) { // dividing by 1 changes nothing: undamped vectors skip the divisions
				vx = vx / dl;
				vy = vy / dl;
			}
			if (turnDamped) w = w / da;
			if (snapHere) {
				vx = dkV_select(snapped, (snap.keep * vx - snap.pull * (x - sx)) + snap.lift * (h * tx), vx);
				vy = dkV_select(snapped, (snap.keep * vy - snap.pull * (y - sy)) + snap.lift * (h * ty), vy);
				dkVf turn = a - DK_TWO_PI * dkV_rint(a / DK_TWO_PI);
				w = dkV_select(snapTurn, (snap.keep * w - snap.pull * turn) + snap.lift * (h * al), w);
			}
			if (fields && fields->velocity) DK_FN(velocityFields)(fields->lo, fields->hi, i, &fields->batch[s], x, y, im, &vx, &vy);
			x = x + h * vx;
			y = y + h * vy;
			a = a + h * w;
		}
		dkV_store(c[dkColumnPositionX] + i, x);
		dkV_store(c[dkColumnPositionY] + i, y);
		dkV_store(c[dkColumnAngle] + i, a);
		dkV_store(c[dkColumnVelocityX] + i, vx);
		dkV_store(c[dkColumnVelocityY] + i, vy);
		dkV_store(c[dkColumnAngularVelocity] + i, w);
	}
	if (i < end) dkIntegrateFused_scalar(c, i, end, h, substeps, snaps, fields);
}

static void DK_FN(dkAccumulateForces)(dkCols c, int32_t begin, int32_t end)
{
	int32_t i = begin;
	for (; i + DK_W <= end; i += DK_W) {
		dkVf im = dkV_load(c[dkColumnInverseMass] + i), ii = dkV_load(c[dkColumnInverseInertia] + i);
		dkVf tc = dkV_load(c[dkColumnTorqueCross] + i), td = dkV_load(c[dkColumnTorqueDot] + i);
		dkV_store(c[dkColumnAccelX] + i,
				  DK_FN(accelOf)(dkV_load(c[dkColumnGravityX] + i), im, dkV_load(c[dkColumnForceX] + i)));
		dkV_store(c[dkColumnAccelY] + i,
				  DK_FN(accelOf)(dkV_load(c[dkColumnGravityY] + i), im, dkV_load(c[dkColumnForceY] + i)));
		dkV_store(c[dkColumnAlpha] + i,
				  DK_FN(alphaOf)(DK_FN(torquedOf)(tc, td, ii), dkV_load(c[dkColumnAngle] + i), tc, td, ii));
	}
	if (i < end) dkAccumulateForces_scalar(c, i, end);
}

// Snap springs of rows [i, i + DK_W) on velocities already damped, whose substep accelerations are in the
// scratch columns: the spring toward the snap point, and the angle toward the nearest whole turn
// (dkSnapStepOf, dkTurnRemainder).
static inline void DK_FN(snapLanes)(dkCols c, int32_t i, float h, dkVf* vx, dkVf* vy, dkVf* w)
{
	dkVf om = dkV_load(c[dkColumnSnapOmega] + i), im = dkV_load(c[dkColumnInverseMass] + i);
	dkVm snapped = (om > 0.0f) & (im > 0.0f);
	if (!dkV_any(snapped)) return;
	dkVf ii = dkV_load(c[dkColumnInverseInertia] + i);
	DK_FN(dkSnapVec) s = DK_FN(snapStepOf)(om, dkV_load(c[dkColumnSnapZeta] + i), snapped, h);
	dkVf x = dkV_load(c[dkColumnPositionX] + i), y = dkV_load(c[dkColumnPositionY] + i);
	dkVf a = dkV_load(c[dkColumnAngle] + i);
	dkVf ax = dkV_load(c[dkColumnAccelX] + i), ay = dkV_load(c[dkColumnAccelY] + i);
	dkVf al = dkV_load(c[dkColumnAlpha] + i);
	*vx = dkV_select(snapped, (s.keep * *vx - s.pull * (x - dkV_load(c[dkColumnSnapX] + i))) + s.lift * (h * ax), *vx);
	*vy = dkV_select(snapped, (s.keep * *vy - s.pull * (y - dkV_load(c[dkColumnSnapY] + i))) + s.lift * (h * ay), *vy);
	dkVf turn = a - DK_TWO_PI * dkV_rint(a / DK_TWO_PI);
	*w = dkV_select(snapped & (ii > 0.0f), (s.keep * *w - s.pull * turn) + s.lift * (h * al), *w);
}

static void DK_FN(dkDampAndSnap)(dkCols c, int32_t begin, int32_t end, float h, bool snaps)
{
	int32_t i = begin;
	for (; i + DK_W <= end; i += DK_W) {
		dkVf dl = 1.0f + h * dkV_load(c[dkColumnLinearDamping] + i);
		dkVf da = 1.0f + h * dkV_load(c[dkColumnAngularDamping] + i);
		dkVf vx = dkV_load(c[dkColumnVelocityX] + i) / dl;
		dkVf vy = dkV_load(c[dkColumnVelocityY] + i) / dl;
		dkVf w = dkV_load(c[dkColumnAngularVelocity] + i) / da;
		if (snaps) DK_FN(snapLanes)(c, i, h, &vx, &vy, &w);
		dkV_store(c[dkColumnVelocityX] + i, vx);
		dkV_store(c[dkColumnVelocityY] + i, vy);
		dkV_store(c[dkColumnAngularVelocity] + i, w);
	}
	if (i < end) dkDampAndSnap_scalar(c, i, end, h, snaps);
}
