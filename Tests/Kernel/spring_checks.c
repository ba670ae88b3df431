// SPDX-License-Identifier: Apache-2.0
// Spring timing curves sampled in bulk (spring_curve.c): the best level's bits against the scalar level's,
// and the samples against the closed form.
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The closed form of the progress (include/dk_spring.h), in double precision.
static double progress(double w, double z, double v, double t)
{
	double e;
	if (z < 1.0) {
		double wd = w * sqrt(1.0 - z * z);
		e = exp(-z * w * t) * (cos(wd * t) + (z * w - v) / wd * sin(wd * t));
	} else if (z == 1.0) {
		e = exp(-w * t) * (1.0 + (w - v) * t);
	} else {
		double root = sqrt(z * z - 1.0), r1 = -w * (z - root), r2 = -w * (z + root), a = (-v - r2) / (r1 - r2);
		e = a * exp(r1 * t) + (1.0 - a) * exp(r2 * t);
	}
	return 1.0 - e;
}

void springs(Report* r, dkSimdLevel best)
{
	enum { curves = 1000, samples = 60 };
	float omega[curves], zeta[curves], velocity[curves];
	uint32_t state = 7;
	for (int i = 0; i < curves; ++i) {
		state = state * 1664525u + 1013904223u;
		float u = (float)(state >> 8) / 16777216.0f;
		omega[i] = 2.0f + 40.0f * u;
		zeta[i] = i % 3 == 0 ? 0.05f + 0.9f * u : i % 3 == 1 ? 1.0f : 1.0f + 3.0f * u;
		velocity[i] = 10.0f * u - 5.0f;
	}
	float* wide = malloc(sizeof(float) * curves * samples);
	float* scalar = malloc(sizeof(float) * curves * samples);
	dkError e;
	dkSpringSampling s = {omega, zeta, velocity, curves, 1.0f / 60.0f, samples, wide, best, 1, NULL, NULL};
	must(dkSpringCurves_Sample(&s, &e), &e, "dkSpringCurves_Sample");
	s.out = scalar;
	s.simdLimit = dkSimdScalar;
	must(dkSpringCurves_Sample(&s, &e), &e, "dkSpringCurves_Sample");
	char detail[120];
	snprintf(detail, sizeof detail, "%s", dkSimdLevelName(best));
	check(r, memcmp(wide, scalar, sizeof(float) * curves * samples) == 0, "spring curves: the best level equals scalar bitwise",
		  detail);
	double worst = 0.0;
	for (int k = 0; k < samples; ++k)
		for (int c = 0; c < curves; ++c)
			worst = fmax(worst, fabs(wide[k * curves + c] - progress(omega[c], zeta[c], velocity[c], k / 60.0)));
	snprintf(detail, sizeof detail, "largest difference %.3g", worst);
	check(r, worst < 1e-5, "spring curves follow the closed form", detail);
	free(wide), free(scalar);
}
