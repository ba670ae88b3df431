// SPDX-License-Identifier: Apache-2.0
// Laws: correctly rounded sine and cosine (trig.h), free fall, and the soft-contact sink of a column.
#include "check.h"
#include "trig.h"

#include <math.h>
#include <stdio.h>

// ---- Laws ----------------------------------------------------------------------------------------------

void laws(Report* r)
{
	char detail[160];
	// The kernel's sine and cosine against long double on angles spread over ±1000 rad (most of them not
	// near a multiple of π/2) and near multiples of π/2, where the reduction matters most.
	int wrong = 0, samples = 0;
	uint32_t state = 99;
	for (int i = 0; i < 200000; ++i) {
		state = state * 1664525u + 1013904223u;
		float u = (float)(state >> 8) / 16777216.0f * 2.0f - 1.0f;
		float x = (i % 4 == 0) ? 1.5707963267948966f * (float)(int)(u * 600.0f) * (1.0f + 1e-7f * u) : u * 1000.0f;
		float sn, cs;
		dkSinCos(x, &sn, &cs);
		wrong += sn != (float)sinl((long double)x) || cs != (float)cosl((long double)x);
		samples++;
	}
	snprintf(detail, sizeof detail, "%d of %d angles off", wrong, samples);
	check(r, wrong == 0, "the kernel's sine and cosine are correctly rounded", detail);
	// Free fall for 1 s in 240 substeps of semi-implicit Euler: y = g·h²·n(n+1)/2 = 502.083 pt.
	dkWorld* w = makeWorld(dkSimdAVX512, 1, dkIntegratorFused);
	dkItemId id = item(w, dkShapeRectangle, 0, 0, 0, 10, 10, 0);
	step(w, 60);
	int32_t row;
	dkWorld_DenseIndices(w, &id, 1, &row);
	double fell = dkWorld_Column(w, dkColumnPositionY)[row], law = G * 241.0 / 480.0;
	snprintf(detail, sizeof detail, "fell %.4f pt, law %.4f pt", fell, law);
	check(r, fabs(fell - law) < 1e-4 * law, "free fall for 1 s follows semi-implicit Euler", detail);
	dkWorld_Destroy(w);
	// A resting column of 10 boxes on a floor: the top sinks 115.625·g/ω² at 30 Hz (CollisionTests.contactLaw).
	w = makeWorld(dkSimdAVX512, 1, dkIntegratorFused);
	segment(w, -1000, FLOOR, 1000, FLOOR);
	dkItemId top = {0, 0};
	for (int i = 0; i < 10; ++i) top = box(w, 0, FLOOR - 50 - 100.0f * (float)i, 0, 100, 100);
	step(w, 300);
	dkWorld_DenseIndices(w, &top, 1, &row);
	double omega = 2 * 3.14159265358979 * 30, predicted = 115.625 * G / (omega * omega);
	double sink = dkWorld_Column(w, dkColumnPositionY)[row] - (FLOOR - 950);
	snprintf(detail, sizeof detail, "sank %.4f pt, law %.4f pt", sink, predicted);
	check(r, fabs(sink - predicted) < 0.01 * predicted, "a 10-box column sinks by the soft-contact law", detail);
	dkWorld_Destroy(w);
}
