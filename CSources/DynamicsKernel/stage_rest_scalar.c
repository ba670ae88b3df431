// SPDX-License-Identifier: Apache-2.0
// Stage: rest detection, scalar reference. A row's rest timer grows by dt while its speed is below
// restSpeed and its angular speed below restAngularSpeed, and drops to 0 otherwise (the Units and
// semantics article, Sources/Dynamics/Dynamics.docc/UnitsAndSemantics.md, §Rest).
#include "kernels.h"
#include <math.h>

int32_t dkDetectRest_scalar(dkCols c, int32_t begin, int32_t end, float dt, float restSpeed, float restAngularSpeed,
							float restTime, int32_t* still)
{
	float rs2 = restSpeed * restSpeed;
	int32_t resting = 0;
#pragma clang loop vectorize(disable)
	for (int32_t i = begin; i < end; ++i) {
		float vx = c[dkColumnVelocityX][i], vy = c[dkColumnVelocityY][i];
		bool isStill = vx * vx + vy * vy < rs2 && fabsf(c[dkColumnAngularVelocity][i]) < restAngularSpeed;
		float t = isStill ? c[dkColumnSleepTime][i] + dt : 0.0f;
		*still += isStill;
		c[dkColumnSleepTime][i] = t;
		resting += t >= restTime;
	}
	return resting;
}
