// SPDX-License-Identifier: Apache-2.0
// Stage: rest detection, scalar reference. A row's rest timer grows by dt while its speed is below
// restSpeed and it turns slowly: its angular speed below restAngularSpeed, or the corners of its bounds
// (half the diagonal from its centre) moving slower than restSpeed, as Box2D's sleep rule measures a body
// by its extent; it drops to 0 otherwise (the Units and semantics article,
// Sources/Dynamics/Dynamics.docc/UnitsAndSemantics.md, §Rest). Squared, so no root: ω² (w² + h²) < 4 v².
#include "kernels.h"
#include <math.h>

int32_t dkDetectRest_scalar(dkCols c, int32_t begin, int32_t end, float dt, float restSpeed, float restAngularSpeed,
							float restTime, int32_t* still)
{
	float rs2 = restSpeed * restSpeed;
	int32_t resting = 0;
#pragma clang loop vectorize(disable)
	for (int32_t i = begin; i < end; ++i) {
		float vx = c[dkColumnVelocityX][i], vy = c[dkColumnVelocityY][i], w = c[dkColumnAngularVelocity][i];
		float width = c[dkColumnWidth][i], height = c[dkColumnHeight][i];
		bool turnStill = fabsf(w) < restAngularSpeed || (w * w) * (width * width + height * height) < 4.0f * rs2;
		bool isStill = vx * vx + vy * vy < rs2 && turnStill;
		float t = isStill ? c[dkColumnSleepTime][i] + dt : 0.0f;
		*still += isStill;
		c[dkColumnSleepTime][i] = t;
		resting += t >= restTime;
	}
	return resting;
}
