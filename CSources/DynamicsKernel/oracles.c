// SPDX-License-Identifier: Apache-2.0
// Entry points that run one stage on caller-owned columns with an explicit path, so tests can compare
// every SIMD level and the BLAS path against the scalar reference on the same data.
#include "integrate.h"
#include "kernels.h"

#include <string.h>

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
	float* scratch[3] = {dkAllocColumn(NULL, set->count), dkAllocColumn(NULL, set->count), dkAllocColumn(NULL, set->count)};
	if (!scratch[0] || !scratch[1] || !scratch[2]) {
		for (int k = 0; k < 3; ++k) dkFreeColumn(NULL, scratch[k]);
		dkSetError(error, dkResultOutOfMemory, -1, "count", set->count);
		return dkResultOutOfMemory;
	}
	view.col[dkColumnAccelX] = scratch[0];
	view.col[dkColumnAccelY] = scratch[1];
	view.col[dkColumnAlpha] = scratch[2];
	view.kernels = dkKernelsFor(level);
	view.def.integrator = integrator;
	view.hasSnaps = true;
	float h = dt / (float)substeps;
	switch (integrator) {
	case dkIntegratorFused: view.kernels->integrateFused(view.col, 0, set->count, h, substeps, true, NULL); break;
	case dkIntegratorScalar: dkIntegrateFused_scalar(view.col, 0, set->count, h, substeps, true, NULL); break;
	case dkIntegratorBLAS:
		for (int32_t s = 0; s < substeps; ++s) {
			dkIntegrate_Velocities(&view, 0, set->count, h, s);
			dkIntegrate_Positions(&view, 0, set->count, h);
		}
		break;
	}
	for (int k = 0; k < 3; ++k) dkFreeColumn(NULL, scratch[k]);
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

dkResult dkFieldAccelerations(const dkFieldDef* def, uint64_t seed, uint32_t salt, double t, const float* x,
							  const float* y, const float* vx, const float* vy, const float* inverseMass,
							  const float* charge, int32_t count, dkSimdLevel level, float* outAx, float* outAy,
							  dkError* error)
{
	if (count < 0 || !isfinite(t)) {
		dkSetError(error, dkResultInvalidValue, -1, count < 0 ? "count" : "t", count < 0 ? count : t);
		return dkResultInvalidValue;
	}
	// A one-field world view: every probe row is a member and the region is infinite.
	dkWorld probe = {0};
	dkFieldId id;
	dkResult r = dkWorld_CreateField(&probe, def, &id, error);
	if (r != dkResultOK) return r;
	dkWorld_SetSeed(&probe, seed);
	dkField* field = &probe.fields[0];
	memset(field->waveKx, 0, sizeof field->waveKx);
	memset(field->waveKy, 0, sizeof field->waveKy);
	dkField_Seed(field, seed, salt, 0.0);
	dkFieldFrame frame;
	dkField_Frame(field, 0, t, &frame);
	dkFieldBatch batch = {.frame = {&frame}, .count = 1};
	uint32_t* ones = (uint32_t*)dkAllocColumn(NULL, count);
	float* vxCopy = dkAllocColumn(NULL, count);
	float* vyCopy = dkAllocColumn(NULL, count);
	if (!ones || !vxCopy || !vyCopy) {
		dkFreeColumn(NULL, ones);
		dkFreeColumn(NULL, vxCopy);
		dkFreeColumn(NULL, vyCopy);
		dkFields_Destroy(&probe);
		dkSetError(error, dkResultOutOfMemory, -1, "count", count);
		return dkResultOutOfMemory;
	}
	for (int32_t i = 0; i < count; ++i) ones[i] = 1u;
	memcpy(vxCopy, vx, (size_t)count * sizeof(float));
	memcpy(vyCopy, vy, (size_t)count * sizeof(float));
	float* col[dkColumnTotal] = {0};
	col[dkColumnPositionX] = (float*)x;
	col[dkColumnPositionY] = (float*)y;
	col[dkColumnVelocityX] = vxCopy;
	col[dkColumnVelocityY] = vyCopy;
	col[dkColumnInverseMass] = (float*)inverseMass;
	col[dkColumnCharge] = (float*)charge;
	col[dkColumnAccelX] = outAx;
	col[dkColumnAccelY] = outAy;
	memset(outAx, 0, (size_t)count * sizeof(float));
	memset(outAy, 0, (size_t)count * sizeof(float));
	const dkKernels* k = dkKernelsFor(level);
	if (def->kind == dkFieldVelocity) {
		k->overrideVelocities(col, ones, ones, 0, count, &batch);
		memcpy(outAx, vxCopy, (size_t)count * sizeof(float));
		memcpy(outAy, vyCopy, (size_t)count * sizeof(float));
	} else {
		k->applyFields(col, ones, ones, 0, count, &batch);
	}
	dkFreeColumn(NULL, ones);
	dkFreeColumn(NULL, vxCopy);
	dkFreeColumn(NULL, vyCopy);
	dkFields_Destroy(&probe);
	return dkResultOK;
}
