// SPDX-License-Identifier: Apache-2.0
// Stage template: the joint solver's per-substep kernels over the wide layout (joint.h), one batch of
// DK_W joints of one colour at a time; included after stage_bodies_wide.h (it shares its helpers).
// Instantiated per SIMD level and at DK_W = 1, the scalar path; all levels give the same bits.
//
// Every joint is a set of rows, each switched on per lane:
//   point      the anchors coincide (2×2 block; revolute, weld)
//   angle      the relative angle is held (weld)
//   prism      no motion across the axis and no relative rotation (2×2 block; prismatic)
//   axial      the length along the axis is held, rigidly or as a spring (distance)
//   axial lim. the length along the axis stays within [lower, upper] (distance, prismatic)
//   angle lim. the relative angle stays within [lower, upper] (revolute)
//   friction   relative rotation is resisted up to a maximum torque (revolute)
// The axis is the line between the anchors for a distance joint and A's axis for a prismatic one.
// Rows follow Box2D v3's joints (soft step: rigid rows are soft with the joint softness while biased and
// hard while relaxing; limits are speculative like contacts), except springs, which act once per substep
// with the coefficients of oscillator.h. A row that no lane of a
// group of DK_CONSTRAINT_PAD joints uses is skipped; the lanes that use it compute it the same at every width.
// Bodies are gathered and scattered with the contact template's helpers.

#define DK_JLOAD(field) dkV_load(dkJsAt(c, field, k))
#define DK_JSTORE(field, v) dkV_store(dkJsAt(c, field, k), (v))
#define DK_XLOAD(field) dkV_load(dkJxAt(c, field, k))
#define DK_XSTORE(field, v) dkV_store(dkJxAt(c, field, k), (v))

// The geometry of a batch at the current substep: anchors, separation, axis and angle.
typedef struct DK_FN(dkJointFrame) {
	dkVf rAx, rAy, rBx, rBy; // anchors from the centres, rotated with the items
	dkVf dx, dy;			 // anchor B − anchor A
	dkVf ux, uy;			 // axis
	dkVf value;				 // length along the axis
	dkVf a1, a2;			 // axis lever arms: (d + rA) × u, rB × u
	dkVf s1, s2;			 // perpendicular lever arms: (d + rA) × u⊥, rB × u⊥ (u⊥ = (−uy, ux))
	dkVf angle;				 // relative angle minus the reference
} DK_FN(dkJointFrame);

static inline DK_FN(dkJointFrame) DK_FN(jointFrame)(const dkJointSoA* c, int32_t k, const DK_FN(dkBodyVec) * a,
													 const DK_FN(dkBodyVec) * b)
{
	DK_FN(dkJointFrame) f;
	dkVf rAx = DK_JLOAD(dkJsRAx), rAy = DK_JLOAD(dkJsRAy), rBx = DK_JLOAD(dkJsRBx), rBy = DK_JLOAD(dkJsRBy);
	f.rAx = a->dc * rAx - a->ds * rAy;
	f.rAy = a->ds * rAx + a->dc * rAy;
	f.rBx = b->dc * rBx - b->ds * rBy;
	f.rBy = b->ds * rBx + b->dc * rBy;
	f.dx = ((b->dx - a->dx) + DK_JLOAD(dkJsDeltaX)) + (f.rBx - f.rAx);
	f.dy = ((b->dy - a->dy) + DK_JLOAD(dkJsDeltaY)) + (f.rBy - f.rAy);
	dkVf length = __builtin_elementwise_sqrt(f.dx * f.dx + f.dy * f.dy);
	dkVm tiny = length < 1.0e-4f;
	dkVf inv = dkV_select(tiny, dkV_splat(0.0f), 1.0f / dkV_select(tiny, dkV_splat(1.0f), length));
	dkVf axX = DK_JLOAD(dkJsAxisX), axY = DK_JLOAD(dkJsAxisY);
	dkVm distance = DK_JLOAD(dkJsDistance) != 0.0f;
	f.ux = dkV_select(distance, f.dx * inv, a->dc * axX - a->ds * axY);
	f.uy = dkV_select(distance, f.dy * inv, a->ds * axX + a->dc * axY);
	f.value = dkV_select(distance, length, f.ux * f.dx + f.uy * f.dy);
	dkVf lx = f.dx + f.rAx, ly = f.dy + f.rAy;
	f.a1 = lx * f.uy - ly * f.ux;
	f.a2 = f.rBx * f.uy - f.rBy * f.ux;
	f.s1 = lx * f.ux + ly * f.uy;
	f.s2 = f.rBx * f.ux + f.rBy * f.uy;
	f.angle = DK_JLOAD(dkJsAngle) + (b->da - a->da);
	return f;
}

// Applies, on lanes `on`, the linear impulse (px, py) and the angular impulses lA to A (subtracted) and lB
// to B (added): v_A −= m_A p, ω_A −= I_A⁻¹ lA, v_B += m_B p, ω_B += I_B⁻¹ lB.
static inline void DK_FN(jointApply)(DK_FN(dkBodyVec) * a, DK_FN(dkBodyVec) * b, dkVm on, dkVf mA, dkVf iA,
									 dkVf mB, dkVf iB, dkVf px, dkVf py, dkVf lA, dkVf lB)
{
	a->vx = dkV_select(on, a->vx - mA * px, a->vx);
	a->vy = dkV_select(on, a->vy - mA * py, a->vy);
	a->w = dkV_select(on, a->w - iA * lA, a->w);
	b->vx = dkV_select(on, b->vx + mB * px, b->vx);
	b->vy = dkV_select(on, b->vy + mB * py, b->vy);
	b->w = dkV_select(on, b->w + iB * lB, b->w);
}

// Relative velocity along the axis: u · (v_B − v_A) + a2 ω_B − a1 ω_A.
static inline dkVf DK_FN(axialSpeed)(const DK_FN(dkBodyVec) * a, const DK_FN(dkBodyVec) * b,
									 const DK_FN(dkJointFrame) * f)
{
	return (f->ux * (b->vx - a->vx) + f->uy * (b->vy - a->vy)) + (f->a2 * b->w - f->a1 * a->w);
}

// Motors and angular springs (few joints): their rows of joints [begin, end), in a pass of their own before
// the other rows' (Box2D's order: spring, motor, limits, then the point or the slider's rows), so that the
// other rows' kernels are what they were without them (inside them, their branch made the solve spill
// registers; Benchmarks/results has the measurement). Warm start (`warm`): their accumulated impulses;
// solve and relax: a pin's angular spring in the pass marked `springs`, as the equality springs, the motors
// in every pass.
__attribute__((noinline)) static void DK_FN(jointExtraRows)(dkJointSoA* c, int32_t begin, int32_t end,
															 dkBodyState* states, bool warm, bool springs)
{
	for (int32_t k = begin; k < end; k += DK_W) {
		uint32_t rows = c->rows[k / DK_CONSTRAINT_PAD];
		if (!(rows & dkJointRowsExtra)) continue;
		DK_FN(dkBodyVec) a = DK_FN(gatherBodies)(states, c->stateA + k);
		DK_FN(dkBodyVec) b = DK_FN(gatherBodies)(states, c->stateB + k);
		DK_FN(dkJointFrame) f = DK_FN(jointFrame)(c, k, &a, &b);
		dkVf mA = DK_JLOAD(dkJsMassA), iA = DK_JLOAD(dkJsInertiaA), mB = DK_JLOAD(dkJsMassB), iB = DK_JLOAD(dkJsInertiaB);
		dkVf zero = dkV_splat(0.0f), angleMass = DK_JLOAD(dkJsAngleMass);
		if (warm) {
			dkVf axial = DK_XLOAD(dkJxAxialMotorImpulse), turn = DK_XLOAD(dkJxMotorImpulse) + DK_XLOAD(dkJxSpringImpulse);
			DK_FN(jointApply)(&a, &b, zero == zero, mA, iA, mB, iB, axial * f.ux, axial * f.uy, axial * f.a1 + turn,
							  axial * f.a2 + turn);
		} else {
			if ((rows & dkJointRowAngleSpring) && springs) {
				dkVm on = DK_XLOAD(dkJxAngleSpring) != 0.0f;
				dkVf old = DK_XLOAD(dkJxSpringImpulse);
				dkVf impulse = -angleMass * DK_XLOAD(dkJxSpringMass) *
									((b.w - a.w) + DK_XLOAD(dkJxSpringBias) * (f.angle - DK_XLOAD(dkJxRestAngle))) -
								DK_XLOAD(dkJxSpringImpulseScale) * old;
				DK_XSTORE(dkJxSpringImpulse, dkV_select(on, old + impulse, old));
				DK_FN(jointApply)(&a, &b, on, mA, iA, mB, iB, zero, zero, impulse, impulse);
			}
			if (rows & dkJointRowMotor) {
				dkVm on = DK_XLOAD(dkJxMotor) != 0.0f;
				dkVf limit = DK_XLOAD(dkJxMotorMax), old = DK_XLOAD(dkJxMotorImpulse);
				dkVf total = DK_FN(vmin)(DK_FN(vmax)(old - angleMass * ((b.w - a.w) - DK_XLOAD(dkJxMotorSpeed)), -limit), limit);
				dkVf impulse = total - old;
				DK_XSTORE(dkJxMotorImpulse, dkV_select(on, total, old));
				DK_FN(jointApply)(&a, &b, on, mA, iA, mB, iB, zero, zero, impulse, impulse);
			}
			if (rows & dkJointRowAxialMotor) { // a slider's motor: the pin's, along the axis
				dkVm on = DK_XLOAD(dkJxAxialMotor) != 0.0f;
				dkVf limit = DK_XLOAD(dkJxMotorMax), old = DK_XLOAD(dkJxAxialMotorImpulse);
				dkVf speed = DK_FN(axialSpeed)(&a, &b, &f) - DK_XLOAD(dkJxMotorSpeed);
				dkVf total = DK_FN(vmin)(DK_FN(vmax)(old - DK_JLOAD(dkJsAxialMass) * speed, -limit), limit);
				dkVf impulse = total - old;
				DK_XSTORE(dkJxAxialMotorImpulse, dkV_select(on, total, old));
				DK_FN(jointApply)(&a, &b, on, mA, iA, mB, iB, impulse * f.ux, impulse * f.uy, impulse * f.a1, impulse * f.a2);
			}
		}
		DK_FN(scatterBodies)(states, c->stateA + k, &a, c->zeroState);
		DK_FN(scatterBodies)(states, c->stateB + k, &b, c->zeroState);
	}
}

static void DK_FN(dkJointWarmStart)(dkJointSoA* c, int32_t begin, int32_t end, dkBodyState* states)
{
	if (c->extra) DK_FN(jointExtraRows)(c, begin, end, states, true, false);
	for (int32_t k = begin; k < end; k += DK_W) {
		uint32_t rows = c->rows[k / DK_CONSTRAINT_PAD];
		DK_FN(dkBodyVec) a = DK_FN(gatherBodies)(states, c->stateA + k);
		DK_FN(dkBodyVec) b = DK_FN(gatherBodies)(states, c->stateB + k);
		DK_FN(dkJointFrame) f = DK_FN(jointFrame)(c, k, &a, &b);
		dkVf mA = DK_JLOAD(dkJsMassA), iA = DK_JLOAD(dkJsInertiaA), mB = DK_JLOAD(dkJsMassB), iB = DK_JLOAD(dkJsInertiaB);
		dkVf zero = dkV_splat(0.0f);
		dkVm all = zero == zero;
		// The accumulated impulses of the rows the group uses (zero in lanes that do not use them).
		dkVf px = zero, py = zero, lA = zero, lB = zero;
		if (rows & (dkJointRowPoint)) {
			dkVf x = DK_JLOAD(dkJsLinearX), y = DK_JLOAD(dkJsLinearY);
			px = px + x;
			py = py + y;
			lA = lA + (f.rAx * y - f.rAy * x);
			lB = lB + (f.rBx * y - f.rBy * x);
		}
		if (rows & (dkJointRowAxialEq | dkJointRowAxialLimit)) {
			dkVf axial = (DK_JLOAD(dkJsAxial) + DK_JLOAD(dkJsAxialLowerImpulse)) - DK_JLOAD(dkJsAxialUpperImpulse);
			px = px + axial * f.ux;
			py = py + axial * f.uy;
			lA = lA + axial * f.a1;
			lB = lB + axial * f.a2;
		}
		if (rows & dkJointRowPrism) {
			dkVf perp = DK_JLOAD(dkJsPerp), turn = DK_JLOAD(dkJsAngular);
			px = px - perp * f.uy;
			py = py + perp * f.ux;
			lA = lA + (perp * f.s1 + turn);
			lB = lB + (perp * f.s2 + turn);
		}
		if (rows & (dkJointRowAngleEq | dkJointRowAngleLimit | dkJointRowFriction)) {
			dkVf turn = ((DK_JLOAD(dkJsFrictionImpulse) + DK_JLOAD(dkJsAngleLowerImpulse)) - DK_JLOAD(dkJsAngleUpperImpulse));
			if (!(rows & dkJointRowPrism)) turn = turn + DK_JLOAD(dkJsAngular);
			lA = lA + turn;
			lB = lB + turn;
		}
		DK_FN(jointApply)(&a, &b, all, mA, iA, mB, iB, px, py, lA, lB);
		DK_FN(scatterBodies)(states, c->stateA + k, &a, c->zeroState);
		DK_FN(scatterBodies)(states, c->stateB + k, &b, c->zeroState);
	}
}

// One side of a limit row (Box2D's joint limits): C ≥ 0 inside; speculative when C > 0.
static inline dkVf DK_FN(limitImpulse)(dkVf C, dkVf cdot, dkVf mass, dkVf accumulated, float invH, dkSoftness joint,
									   bool useBias, dkVf* total)
{
	dkVm speculative = C > 0.0f;
	dkVf bias = dkV_select(speculative, C * invH, dkV_splat(0.0f));
	dkVf massScale = dkV_splat(1.0f), impulseScale = dkV_splat(0.0f);
	if (useBias) {
		bias = dkV_select(speculative, bias, joint.biasRate * C);
		massScale = dkV_select(speculative, massScale, dkV_splat(joint.massScale));
		impulseScale = dkV_select(speculative, impulseScale, dkV_splat(joint.impulseScale));
	}
	dkVf impulse = -mass * massScale * (cdot + bias) - impulseScale * accumulated;
	*total = DK_FN(vmax)(accumulated + impulse, dkV_splat(0.0f));
	return *total - accumulated;
}

// Solves 2×2 K x = r (K symmetric); a singular K gives x = 0.
static inline void DK_FN(solve22)(dkVf k11, dkVf k12, dkVf k22, dkVf r1, dkVf r2, dkVf* x1, dkVf* x2)
{
	dkVf det = k11 * k22 - k12 * k12;
	dkVm singular = det == 0.0f;
	dkVf inv = dkV_select(singular, dkV_splat(0.0f), 1.0f / dkV_select(singular, dkV_splat(1.0f), det));
	*x1 = inv * (k22 * r1 - k12 * r2);
	*x2 = inv * (k11 * r2 - k12 * r1);
}

// One solve (useBias) or relax pass over joints [begin, end). Springs act in the substep's first solve
// pass only (`springs`), as their coefficients assume (oscillator.h); the other passes leave their
// equality rows alone.
static void DK_FN(dkJointSolve)(dkJointSoA* c, int32_t begin, int32_t end, dkBodyState* states, float invH,
								dkSoftness joint, bool useBias, bool springs)
{
	if (c->extra) DK_FN(jointExtraRows)(c, begin, end, states, false, springs);
	for (int32_t k = begin; k < end; k += DK_W) {
		uint32_t rows = c->rows[k / DK_CONSTRAINT_PAD];
		DK_FN(dkBodyVec) a = DK_FN(gatherBodies)(states, c->stateA + k);
		DK_FN(dkBodyVec) b = DK_FN(gatherBodies)(states, c->stateB + k);
		DK_FN(dkJointFrame) f = DK_FN(jointFrame)(c, k, &a, &b);
		dkVf mA = DK_JLOAD(dkJsMassA), iA = DK_JLOAD(dkJsInertiaA), mB = DK_JLOAD(dkJsMassB), iB = DK_JLOAD(dkJsInertiaB);
		dkVf zero = dkV_splat(0.0f);
		// Equality rows: soft while biased, hard while relaxing; springs only in the pass marked `springs`.
		dkVm soft = useBias ? (zero == zero) : (zero != zero);
		dkVm equal = springs ? (zero == zero) : (DK_JLOAD(dkJsSpring) == 0.0f); // lanes whose equality rows act
		dkVf softBias = dkV_select(soft, DK_JLOAD(dkJsSoftBias), zero);
		dkVf massScale = dkV_select(soft, DK_JLOAD(dkJsSoftMass), dkV_splat(1.0f));
		dkVf impulseScale = dkV_select(soft, DK_JLOAD(dkJsSoftImpulse), zero);
		dkVf angleMass = DK_JLOAD(dkJsAngleMass);

		if (rows & dkJointRowFriction) {
			dkVm on = DK_JLOAD(dkJsFriction) != 0.0f;
			dkVf limit = DK_JLOAD(dkJsFrictionMax), old = DK_JLOAD(dkJsFrictionImpulse);
			dkVf total = DK_FN(vmin)(DK_FN(vmax)(old - angleMass * (b.w - a.w), -limit), limit);
			dkVf impulse = total - old;
			DK_JSTORE(dkJsFrictionImpulse, dkV_select(on, total, old));
			DK_FN(jointApply)(&a, &b, on, mA, iA, mB, iB, zero, zero, impulse, impulse);
		}
		if (rows & dkJointRowAngleLimit) {
			dkVm on = DK_JLOAD(dkJsAngleLimit) != 0.0f;
			dkVf old = DK_JLOAD(dkJsAngleLowerImpulse), total;
			dkVf impulse = DK_FN(limitImpulse)(f.angle - DK_JLOAD(dkJsAngleLower), b.w - a.w, angleMass, old, invH,
											   joint, useBias, &total);
			DK_JSTORE(dkJsAngleLowerImpulse, dkV_select(on, total, old));
			DK_FN(jointApply)(&a, &b, on, mA, iA, mB, iB, zero, zero, impulse, impulse);
			old = DK_JLOAD(dkJsAngleUpperImpulse);
			impulse = DK_FN(limitImpulse)(DK_JLOAD(dkJsAngleUpper) - f.angle, a.w - b.w, angleMass, old, invH, joint,
										  useBias, &total);
			DK_JSTORE(dkJsAngleUpperImpulse, dkV_select(on, total, old));
			DK_FN(jointApply)(&a, &b, on, mA, iA, mB, iB, zero, zero, -impulse, -impulse);
		}
		dkVf axialMass = DK_JLOAD(dkJsAxialMass);
		if (rows & dkJointRowAxialEq) {
			dkVm on = (DK_JLOAD(dkJsAxialEq) != 0.0f) & equal;
			dkVf old = DK_JLOAD(dkJsAxial);
			dkVf C = f.value - DK_JLOAD(dkJsLength);
			dkVf impulse = -axialMass * massScale * (DK_FN(axialSpeed)(&a, &b, &f) + softBias * C) - impulseScale * old;
			DK_JSTORE(dkJsAxial, dkV_select(on, old + impulse, old));
			DK_FN(jointApply)(&a, &b, on, mA, iA, mB, iB, impulse * f.ux, impulse * f.uy, impulse * f.a1, impulse * f.a2);
		}
		if (rows & dkJointRowAxialLimit) {
			dkVm on = DK_JLOAD(dkJsAxialLimit) != 0.0f;
			dkVf old = DK_JLOAD(dkJsAxialLowerImpulse), total;
			dkVf impulse = DK_FN(limitImpulse)(f.value - DK_JLOAD(dkJsAxialLower), DK_FN(axialSpeed)(&a, &b, &f),
											   axialMass, old, invH, joint, useBias, &total);
			DK_JSTORE(dkJsAxialLowerImpulse, dkV_select(on, total, old));
			DK_FN(jointApply)(&a, &b, on, mA, iA, mB, iB, impulse * f.ux, impulse * f.uy, impulse * f.a1, impulse * f.a2);
			old = DK_JLOAD(dkJsAxialUpperImpulse);
			impulse = DK_FN(limitImpulse)(DK_JLOAD(dkJsAxialUpper) - f.value, -DK_FN(axialSpeed)(&a, &b, &f), axialMass,
										  old, invH, joint, useBias, &total);
			DK_JSTORE(dkJsAxialUpperImpulse, dkV_select(on, total, old));
			impulse = -impulse;
			DK_FN(jointApply)(&a, &b, on, mA, iA, mB, iB, impulse * f.ux, impulse * f.uy, impulse * f.a1, impulse * f.a2);
		}
		if (rows & dkJointRowPrism) {
			dkVm on = (DK_JLOAD(dkJsPrism) != 0.0f) & equal;
			dkVf perpX = -f.uy, perpY = f.ux;
			dkVf cdot1 = (perpX * (b.vx - a.vx) + perpY * (b.vy - a.vy)) + (f.s2 * b.w - f.s1 * a.w);
			dkVf cdot2 = b.w - a.w;
			dkVf c1 = perpX * f.dx + perpY * f.dy, c2 = f.angle;
			dkVf k11 = ((mA + mB) + iA * f.s1 * f.s1) + iB * f.s2 * f.s2;
			dkVf k12 = iA * f.s1 + iB * f.s2;
			dkVf k22 = iA + iB;
			k22 = dkV_select(k22 == 0.0f, dkV_splat(1.0f), k22);
			dkVf x1, x2;
			DK_FN(solve22)(k11, k12, k22, cdot1 + softBias * c1, cdot2 + softBias * c2, &x1, &x2);
			dkVf oldPerp = DK_JLOAD(dkJsPerp), oldTurn = DK_JLOAD(dkJsAngular);
			dkVf perp = -massScale * x1 - impulseScale * oldPerp;
			dkVf turn = -massScale * x2 - impulseScale * oldTurn;
			DK_JSTORE(dkJsPerp, dkV_select(on, oldPerp + perp, oldPerp));
			DK_JSTORE(dkJsAngular, dkV_select(on, oldTurn + turn, oldTurn));
			DK_FN(jointApply)(&a, &b, on, mA, iA, mB, iB, perp * perpX, perp * perpY, perp * f.s1 + turn,
							  perp * f.s2 + turn);
		}
		if (rows & dkJointRowAngleEq) {
			dkVm on = (DK_JLOAD(dkJsAngleEq) != 0.0f) & equal;
			dkVf old = DK_JLOAD(dkJsAngular);
			dkVf impulse = -angleMass * massScale * ((b.w - a.w) + softBias * f.angle) - impulseScale * old;
			DK_JSTORE(dkJsAngular, dkV_select(on, old + impulse, old));
			DK_FN(jointApply)(&a, &b, on, mA, iA, mB, iB, zero, zero, impulse, impulse);
		}
		if (rows & dkJointRowPoint) {
			dkVm on = (DK_JLOAD(dkJsPoint) != 0.0f) & equal;
			dkVf cdotX = (b.vx - b.w * f.rBy) - (a.vx - a.w * f.rAy);
			dkVf cdotY = (b.vy + b.w * f.rBx) - (a.vy + a.w * f.rAx);
			dkVf k11 = ((mA + mB) + f.rAy * f.rAy * iA) + f.rBy * f.rBy * iB;
			dkVf k12 = -f.rAy * f.rAx * iA - f.rBy * f.rBx * iB;
			dkVf k22 = ((mA + mB) + f.rAx * f.rAx * iA) + f.rBx * f.rBx * iB;
			dkVf x1, x2;
			DK_FN(solve22)(k11, k12, k22, cdotX + softBias * f.dx, cdotY + softBias * f.dy, &x1, &x2);
			dkVf oldX = DK_JLOAD(dkJsLinearX), oldY = DK_JLOAD(dkJsLinearY);
			dkVf px = -massScale * x1 - impulseScale * oldX;
			dkVf py = -massScale * x2 - impulseScale * oldY;
			DK_JSTORE(dkJsLinearX, dkV_select(on, oldX + px, oldX));
			DK_JSTORE(dkJsLinearY, dkV_select(on, oldY + py, oldY));
			DK_FN(jointApply)(&a, &b, on, mA, iA, mB, iB, px, py, f.rAx * py - f.rAy * px, f.rBx * py - f.rBy * px);
		}
		DK_FN(scatterBodies)(states, c->stateA + k, &a, c->zeroState);
		DK_FN(scatterBodies)(states, c->stateB + k, &b, c->zeroState);
	}
}

#undef DK_JLOAD
#undef DK_JSTORE
#undef DK_XLOAD
#undef DK_XSTORE
