// Entry points that run one stage on caller-owned columns with an explicit path, so tests can compare
// every SIMD level and the BLAS path against the scalar reference on the same data.
#include "kernels.h"

#include <math.h>

dkResult dkIntegrateColumns(dkColumnSet* set, dkIntegrator integrator, dkSimdLevel level, float dt,
							int32_t substeps, dkError* error)
{
	if (!isfinite(dt) || dt <= 0.0f || substeps < 1) {
		dkSetError(error, dkResultInvalidValue, -1, "dt", dt);
		return dkResultInvalidValue;
	}
	// A world view over the caller's columns (scratch columns come from the caller too).
	dkWorld view = {0};
	for (int c = 0; c < dkColumnPublicCount; ++c) view.col[c] = set->column[c];
	float* scratch[3] = {dkAllocColumn(set->count), dkAllocColumn(set->count), dkAllocColumn(set->count)};
	if (!scratch[0] || !scratch[1] || !scratch[2]) {
		for (int k = 0; k < 3; ++k) dkFreeColumn(scratch[k]);
		dkSetError(error, dkResultOutOfMemory, -1, "count", set->count);
		return dkResultOutOfMemory;
	}
	view.col[dkColumnAccelX] = scratch[0];
	view.col[dkColumnAccelY] = scratch[1];
	view.col[dkColumnAlpha] = scratch[2];
	view.kernels = dkKernelsFor(level);
	view.hasSnaps = true;
	float h = dt / (float)substeps;
	switch (integrator) {
	case dkIntegratorFused: view.kernels->integrateFused(view.col, 0, set->count, h, substeps, true); break;
	case dkIntegratorScalar: dkIntegrateFused_scalar(view.col, 0, set->count, h, substeps, true); break;
	case dkIntegratorBLAS:
		for (int32_t s = 0; s < substeps; ++s) {
			dkSolver_Velocities(&view, 0, set->count, h);
			dkSolver_Positions(&view, 0, set->count, h);
		}
		break;
	}
	for (int k = 0; k < 3; ++k) dkFreeColumn(scratch[k]);
	return dkResultOK;
}

int32_t dkDetectRestColumns(dkColumnSet* set, dkSimdLevel level, float dt, float restSpeed, float restAngularSpeed,
							float restTime)
{
	int32_t still = 0;
	return dkKernelsFor(level)->detectRest(set->column, 0, set->count, dt, restSpeed, restAngularSpeed, restTime, &still);
}

void dkPackPosesColumns(const dkColumnSet* set, dkSimdLevel level, float* out)
{
	dkKernelsFor(level)->packPoses(set->column, 0, set->count, out);
}
