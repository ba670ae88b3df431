// SPDX-License-Identifier: Apache-2.0
// Stage template: rest detection, wide (see stage_rest_scalar.c for the law). Instantiated per SIMD level.

static int32_t DK_FN(dkDetectRest)(dkCols c, int32_t begin, int32_t end, float dt, float restSpeed,
								   float restAngularSpeed, float restTime, int32_t* stillRows)
{
	float rs2 = restSpeed * restSpeed;
	int32_t resting = 0;
	int32_t i = begin;
	for (; i + DK_W <= end; i += DK_W) {
		dkVf vx = dkV_load(c[dkColumnVelocityX] + i), vy = dkV_load(c[dkColumnVelocityY] + i);
		dkVf w = dkV_load(c[dkColumnAngularVelocity] + i);
		dkVf width = dkV_load(c[dkColumnWidth] + i), height = dkV_load(c[dkColumnHeight] + i);
		dkVm turnStill = (dkV_abs(w) < restAngularSpeed) | ((w * w) * (width * width + height * height) < 4.0f * rs2);
		dkVm still = (vx * vx + vy * vy < rs2) & turnStill;
		dkVf t = dkV_select(still, dkV_load(c[dkColumnSleepTime] + i) + dt, dkV_splat(0.0f));
		dkV_store(c[dkColumnSleepTime] + i, t);
		*stillRows += dkV_count(still);
		resting += dkV_count(t >= restTime);
	}
	if (i < end) resting += dkDetectRest_scalar(c, i, end, dt, restSpeed, restAngularSpeed, restTime, stillRows);
	return resting;
}
