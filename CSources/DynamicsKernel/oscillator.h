// SPDX-License-Identifier: Apache-2.0
// Internal: springs whose discrete motion has the damped oscillator's exact frequency and decay.
//
// A spring of angular frequency ω and damping ratio ζ moves, over one substep h, as the continuous
// oscillator x'' = −ω² x − 2ζω x' when the substep's map of (offset, velocity) has the eigenvalues
// μ = e^{(−ζω ± iω√(1−ζ²)) h} (for ζ ≥ 1 both real: e^{(−ζω ± ω√(ζ²−1)) h}). Every map below is built from
// their sum and product,
//   A = μ₁ + μ₂ = 2 e^{−ζωh} cos(ω√(1−ζ²) h)   (cosh for ζ > 1),   B = μ₁ μ₂ = e^{−2ζωh},
// so the envelope and the period of the sampled motion are the oscillator's at any substep, rather than
// the first-order approximations of an implicit Euler step (whose decay is too fast by up to 2ζωh/2 and
// whose frequency is too low for ζ near 1). The coefficients are computed in double once per step and row;
// the substeps then use them in float.
#ifndef DK_OSCILLATOR_H
#define DK_OSCILLATOR_H

#include "core.h" // first: no floating-point contraction

#include <math.h>

typedef struct dkOscillatorPoles {
	double sum, product; // A and B above
	double wh2;			 // (ωh)²
} dkOscillatorPoles;

static inline dkOscillatorPoles dkOscillatorPolesOf(double omega, double zeta, double h)
{
	double wh = omega * h, decay = exp(-zeta * wh);
	double turn = zeta < 1.0 ? cos(wh * sqrt(1.0 - zeta * zeta)) : cosh(wh * sqrt(zeta * zeta - 1.0));
	return (dkOscillatorPoles){2.0 * decay * turn, decay * decay, wh * wh};
}

// The snap (an item held to a point by its own spring, no solver state), per substep on the velocity v
// that already holds the substep's acceleration a:
//   v ← keep · v − pull · (q − target) + lift · h a,   then q ← q + h v.
// The map (q, v) ↦ (q + h v', v') has trace 1 − h·pull + keep and determinant keep, so keep = B and
// pull = (1 + B − A) / h give the oscillator's eigenvalues; lift puts the item at rest under a constant
// acceleration at the continuous spring's offset a / ω² (keep · h a − pull · a / ω² + lift · h a = 0).
typedef struct dkSnapStep {
	float keep, pull, lift;
} dkSnapStep;

static inline dkSnapStep dkSnapStepOf(float h, float omega, float zeta)
{
	dkOscillatorPoles p = dkOscillatorPolesOf(omega, zeta, h);
	double gap = 1.0 + p.product - p.sum; // ≈ (ωh)² for small ωh
	return (dkSnapStep){(float)p.product, (float)(gap / h), (float)(gap / p.wh2 - p.product)};
}

// A spring row of the joint solver. The soft step warm-starts each substep with the accumulated impulse
// λ, then the solve pass applies, with the row's effective mass m and error C,
//   Δλ = −massScale · m (Ċ + bias · C) − impulseScale · λ.
// A spring acts in that pass only (not while relaxing), so for a row between an item and an anchor the
// substep is a linear map of (C, Ċ, λ). With p = massScale, r = impulseScale, q = p · bias its
// characteristic polynomial is
//   z³ + (hq + 2p + r − 3) z² + (3 − 3p − 2r) z + (p + r − 1),
// and the coefficients are chosen so that it is (z² − A z + B)(z − 1/3): the oscillator's two
// eigenvalues and a third one, the warm start's, that dies by a factor of 3 per substep:
//   p = 1 − B + (2B − A) / 3,   r = A / 3,   hq = 3 − A − 1/3 − 2p − r.
// Of the one-parameter family with the oscillator's eigenvalues, the third eigenvalue 1/3 is the one
// whose motion from rest also follows the oscillator's trajectory (an offset of 40 pt at 10 Hz, ζ 0.1
// and 240 substeps/s stays within 0.5 pt of it; Box2D's soft step, same substeps, leaves it by 17 pt).
// Under a constant load the row rests at (rh/q)·(load), which differs from the continuous spring's offset
// load/ω² by about −0.4 (ωh)² of it for ζ ≤ 1 (−3 % at 10 Hz and 240 substeps/s: 0.007 pt under
// 1000 pt/s²). Above ωh = 1 (38 Hz at 240 substeps/s) the substeps cannot show the spring; there, and
// wherever the coefficients would leave (0, 1), dkSpringStepOf returns Box2D's soft step (exact = false).
typedef struct dkSpringStep {
	float massScale, impulseScale, bias;
	bool exact;
} dkSpringStep;

static inline dkSpringStep dkSpringStepOf(float hertz, float zeta, float h)
{
	double omega = 2.0 * 3.14159265358979323846 * hertz;
	dkOscillatorPoles poles = dkOscillatorPolesOf(omega, zeta, h);
	if (omega * h <= 1.0) {
		double A = poles.sum, B = poles.product;
		double p = 1.0 - B + (2.0 * B - A) / 3.0, r = A / 3.0, hq = 3.0 - A - 1.0 / 3.0 - 2.0 * p - r;
		if (p > 0.0 && p < 1.0 && r > 0.0 && r < 1.0 && hq > 0.0)
			return (dkSpringStep){(float)p, (float)r, (float)(hq / (h * p)), true};
	}
	double a1 = 2.0 * zeta + omega * h, a2 = omega * h * a1, a3 = 1.0 / (1.0 + a2);
	return (dkSpringStep){(float)(a2 * a3), (float)a3, (float)(omega / a1), false};
}

#endif
