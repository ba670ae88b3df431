// SPDX-License-Identifier: Apache-2.0
// Internal: the kernel's own sine and cosine of an angle, with the same bits on every CPU and C library.
// libm's sinf and cosf differ between C libraries and even within one: glibc picks a variant at load time
// by CPU feature (with or without fused multiply-add), so a state's bits could change with the machine.
// Here both come from one computation in double precision with basic IEEE operations only (no
// contraction: core.h), then round to float once:
//   - the angle is reduced by the nearest multiple k of π/2, with π/2 split in three parts (Cody–Waite),
//     so r = x − k·π/2 is exact to about 1e-17 for |x| up to 10⁶ rad; larger angles still give the same
//     bits everywhere, with less accuracy;
//   - sin r and cos r on |r| ≤ π/4 are their Taylor series to r¹⁵ and r¹⁶ (truncation below 5e-17);
//   - the quadrant k mod 4 swaps and negates them.
// No libm call is made: rounding uses the 1.5·2⁵² trick, which is exact in round-to-nearest.
// The result is the correctly rounded float except when the true value lies within about 1e-16 of halfway
// between two floats.
#ifndef DK_TRIG_H
#define DK_TRIG_H

#include "core.h"

#include <math.h>
#include <stdint.h>

static inline void dkSinCos(float angle, float* outSin, float* outCos)
{
	const double twoOverPi = 0.63661977236758134308;
	const double pio2Hi = 1.57079632673412561417e+00;  // the first 33 bits of π/2: k·pio2Hi is exact
	const double pio2Mid = 6.07710050630396597660e-11; // the next 33 bits
	const double pio2Lo = 2.02226624871116645580e-21;  // the next 33 bits (the rest is below 1e-31)
	double x = (double)angle;
	// k = x·2/π rounded to the nearest integer (ties to even) by adding and removing 1.5·2⁵²; beyond 2⁵⁰
	// the angle itself is far past any meaningful precision, and k only needs to be the same everywhere.
	double v = x * twoOverPi;
	double k = fabs(v) < 0x1p50 ? (v + 0x1.8p52) - 0x1.8p52 : v;
	double r = ((x - k * pio2Hi) - k * pio2Mid) - k * pio2Lo;
	double r2 = r * r;
	double s = r2 * (1.0 / 1307674368000.0) - 1.0 / 6227020800.0; // r¹⁵/15! … r³/3!, by Horner
	s = s * r2 + 1.0 / 39916800.0;
	s = s * r2 - 1.0 / 362880.0;
	s = s * r2 + 1.0 / 5040.0;
	s = s * r2 - 1.0 / 120.0;
	s = s * r2 + 1.0 / 6.0;
	s = r - r * r2 * s;
	double c = r2 * (1.0 / 20922789888000.0) - 1.0 / 87178291200.0; // r¹⁶/16! … r²/2!
	c = c * r2 + 1.0 / 479001600.0;
	c = c * r2 - 1.0 / 3628800.0;
	c = c * r2 + 1.0 / 40320.0;
	c = c * r2 - 1.0 / 720.0;
	c = c * r2 + 1.0 / 24.0;
	c = c * r2 - 0.5;
	c = 1.0 + r2 * c;
	int quadrant = fabs(k) < 0x1p50 ? (int)((int64_t)k & 3) : 0; // k mod 4 (two's complement: −1 → 3)
	double sv = quadrant == 0 ? s : quadrant == 1 ? c : quadrant == 2 ? -s : -c;
	double cv = quadrant == 0 ? c : quadrant == 1 ? -s : quadrant == 2 ? -c : s;
	*outSin = (float)sv;
	*outCos = (float)cv;
}

#endif
