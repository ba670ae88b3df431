// SPDX-License-Identifier: Apache-2.0
// The column oracles (integration, rest detection, pose packing) at the best level against scalar.
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---- Column oracles ------------------------------------------------------------------------------------

typedef struct Columns {
	float data[dkColumnPublicCount][256];
	uint32_t flags[256];
	dkColumnSet set;
} Columns;

static void fillColumns(Columns* c)
{
	uint32_t state = 12345;
	for (int f = 0; f < dkColumnPublicCount; ++f) {
		for (int i = 0; i < 256; ++i) {
			state = state * 1664525u + 1013904223u;
			c->data[f][i] = (float)(state >> 8) / 16777216.0f * 20.0f - 10.0f;
		}
		c->set.column[f] = c->data[f];
	}
	for (int i = 0; i < 256; ++i) {
		c->data[dkColumnInverseMass][i] = fabsf(c->data[dkColumnInverseMass][i]) + 0.1f;
		c->data[dkColumnInverseInertia][i] = fabsf(c->data[dkColumnInverseInertia][i]) * 1e-3f;
		c->data[dkColumnMass][i] = 1.0f / c->data[dkColumnInverseMass][i];
		c->data[dkColumnLinearDamping][i] = fabsf(c->data[dkColumnLinearDamping][i]);
		c->data[dkColumnAngularDamping][i] = fabsf(c->data[dkColumnAngularDamping][i]);
		c->data[dkColumnSnapOmega][i] = (i % 5 == 0) ? 15.7f : 0.0f;
		c->data[dkColumnSnapZeta][i] = 0.5f;
		c->data[dkColumnSleepTime][i] = 0.0f;
		c->flags[i] = (i % 17 == 0) ? dkItemFixedRotation : 0u;
	}
	c->set.flags = c->flags;
	c->set.count = 253; // not a multiple of any width: the tails run too
}

void compareColumns(Report* r, dkSimdLevel best)
{
	static Columns a, b; // 2 × 32 KiB: off the stack
	for (int integrator = 0; integrator < 3; ++integrator) {
		fillColumns(&a);
		fillColumns(&b);
		dkError e;
		must(dkIntegrateColumns(&a.set, (dkIntegrator)integrator, dkSimdScalar, 1.0f / 60.0f, 4, &e), &e, "dkIntegrateColumns");
		must(dkIntegrateColumns(&b.set, (dkIntegrator)integrator, best, 1.0f / 60.0f, 4, &e), &e, "dkIntegrateColumns");
		int same = memcmp(a.data, b.data, sizeof a.data) == 0;
		char what[120];
		snprintf(what, sizeof what, "integration oracle (integrator %d): %s equals scalar bitwise", integrator, dkSimdLevelName(best));
		check(r, same, what, "");
	}
	// Every other item is slow (speed below 5 pt/s, spin below 2°/s) and has been still for 0.49 s, so one
	// more step of 1/60 s puts it past the 0.5 s rest time; the others start over.
	Columns* both[2] = {&a, &b};
	int32_t resting[2];
	for (int k = 0; k < 2; ++k) {
		fillColumns(both[k]);
		for (int i = 0; i < 256; ++i) {
			float slow = (i % 2) ? 1.0f : 0.3f;
			both[k]->data[dkColumnVelocityX][i] *= slow;
			both[k]->data[dkColumnVelocityY][i] *= slow;
			both[k]->data[dkColumnAngularVelocity][i] *= (i % 2) ? 1.0f : 0.003f;
			both[k]->data[dkColumnSleepTime][i] = 0.49f;
		}
		resting[k] = dkDetectRestColumns(&both[k]->set, k == 0 ? dkSimdScalar : best, 1.0f / 60.0f, 5.0f, 0.0349f, 0.5f);
	}
	char detail[80];
	snprintf(detail, sizeof detail, "%d vs %d of 253 items at rest", resting[0], resting[1]);
	check(r, resting[0] == resting[1] && resting[0] > 50 && resting[0] < 200 && memcmp(a.data, b.data, sizeof a.data) == 0,
		  "rest detection oracle agrees bitwise", detail);
	float packA[3 * 256], packB[3 * 256];
	dkPackPosesColumns(&a.set, dkSimdScalar, packA);
	dkPackPosesColumns(&a.set, best, packB);
	check(r, memcmp(packA, packB, 3 * 253 * sizeof(float)) == 0, "pose packing oracle agrees bitwise", "");
}
