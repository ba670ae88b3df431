// SPDX-License-Identifier: Apache-2.0
// Stage: integration. Semi-implicit Euler per substep of h seconds, as the Units and semantics article
// gives it: v += h·a (forces, gravity and fields), damping and snap springs, velocity fields, then q += h·v.
// Three integrators (dkWorldDef.integrator) give the same law: the fused SIMD kernel, which keeps a block's
// rows in registers for every substep with the fields inside; the BLAS path, one saxpy per column per
// substep over each block, which keeps the block's columns in L2 across the substeps (the comparison with
// one whole-range call per column is in Benchmarks/results); and the scalar reference kernels.
// The coupled step (solver.c) integrates substep by substep through the body states the contact and joint
// solver works on.
#include "field.h"
#include "integrate.h"
#include "kernels.h"

#include <math.h>

// The scalar integrator runs every stage on the scalar reference kernels.
static const dkKernels* kernelsOf(const dkWorld* world)
{
	return world->def.integrator == dkIntegratorScalar ? dkScalarKernels() : world->kernels;
}

// Accelerations of rows [b, e) in one substep: forces and push torques, then the fields of that substep.
static void accelerations(dkWorld* world, const dkKernels* k, int32_t b, int32_t e, float h, int32_t substep,
						  dkFieldBatch* batch)
{
	k->accumulateForces(world->col, b, e);
	dkFields_Select(world, b, e, substep, true, batch);
	batch->h = h;
	if (batch->count > 0 || batch->customForces)
		k->applyFields(world->col, world->fieldLo, world->fieldHi, b, e, batch);
}

// y ← y + a·x over n rows: BLAS saxpy for the BLAS integrator, otherwise the kernel's own loop. The contact
// solver integrates through here whatever the integrator, and a BLAS library may fuse the multiply-add
// (OpenBLAS does, and so does Debian's reference BLAS on arm64), so only the BLAS integrator's bits depend
// on the library.
static void axpy(const dkWorld* world, int32_t n, float a, const float* x, float* y)
{
	if (world->def.integrator == dkIntegratorBLAS) {
		dkBlasAxpy(n, a, x, y, false);
		return;
	}
	for (int32_t i = 0; i < n; ++i) y[i] = y[i] + a * x[i];
}

// Velocities of rows [b, e) for one substep: forces and fields, v += h·a, damping and snap springs,
// velocity fields.
void dkIntegrate_Velocities(dkWorld* world, int32_t b, int32_t e, float h, int32_t substep)
{
	float** c = world->col;
	const dkKernels* k = kernelsOf(world);
	dkFieldBatch batch;
	accelerations(world, k, b, e, h, substep, &batch);
	axpy(world, e - b, h, c[dkColumnAccelX] + b, c[dkColumnVelocityX] + b);
	axpy(world, e - b, h, c[dkColumnAccelY] + b, c[dkColumnVelocityY] + b);
	axpy(world, e - b, h, c[dkColumnAlpha] + b, c[dkColumnAngularVelocity] + b);
	k->dampAndSnap(c, b, e, h, world->hasSnaps);
	if (batch.velocityCount > 0) k->overrideVelocities(c, world->fieldLo, world->fieldHi, b, e, &batch);
}

// Positions of rows [b, e) for one substep: q += h·v.
void dkIntegrate_Positions(dkWorld* world, int32_t b, int32_t e, float h)
{
	float** c = world->col;
	axpy(world, e - b, h, c[dkColumnVelocityX] + b, c[dkColumnPositionX] + b);
	axpy(world, e - b, h, c[dkColumnVelocityY] + b, c[dkColumnPositionY] + b);
	axpy(world, e - b, h, c[dkColumnAngularVelocity] + b, c[dkColumnAngle] + b);
}

// The fields of every substep for rows [b, e), for the fused integrator: chosen once by membership (the
// kernel tests region bounds per vector, as the rows move during the step), then the same fields'
// frames of each later substep.
static void selectStep(dkWorld* world, int32_t b, int32_t e, int32_t substeps, float h, dkFieldBatch* batch,
					   dkFieldPass* pass)
{
	dkFields_Select(world, b, e, 0, false, &batch[0]);
	batch[0].h = h;
	for (int32_t s = 1; s < substeps; ++s) {
		batch[s] = batch[0];
		for (int32_t k = 0; k < batch[0].count; ++k) batch[s].frame[k] = batch[0].frame[k] + s * world->framesPerSubstep;
	}
	*pass = (dkFieldPass){world->fieldLo, world->fieldHi, batch, batch[0].velocityCount > 0};
}

// All substeps of the free rows [b, e) (a world without shapes or joints): the fused kernel, with the
// step's fields inside the one pass over the block, or substep by substep on the BLAS path.
void dkIntegrate_Block(dkWorld* world, int32_t b, int32_t e, float h, int32_t substeps)
{
	bool fields = world->framesPerSubstep > 0 || world->customFieldForces;
	if (world->def.integrator == dkIntegratorBLAS) {
		for (int32_t s = 0; s < substeps; ++s) {
			dkIntegrate_Velocities(world, b, e, h, s);
			dkIntegrate_Positions(world, b, e, h);
		}
		return;
	}
	dkFieldBatch batch[DK_MAX_SUBSTEPS];
	dkFieldPass pass;
	if (fields) selectStep(world, b, e, substeps, h, batch, &pass);
	if (world->def.integrator == dkIntegratorScalar)
		dkIntegrateFused_scalar(world->col, b, e, h, substeps, world->hasSnaps, fields ? &pass : NULL);
	else
		world->kernels->integrateFused(world->col, b, e, h, substeps, world->hasSnaps, fields ? &pass : NULL);
}

// Velocities for one substep (forces, v += h a, damping, snap springs: the SIMD kernels and BLAS), after
// taking the relaxed velocities of the previous substep from the states; then into the states.
void dkIntegrate_StateVelocities(dkWorld* world, dkBodyState* states, int32_t b, int32_t e, float h, bool fromStates,
								   int32_t substep)
{
	float** c = world->col;
	if (fromStates) {
		for (int32_t i = b; i < e; ++i) {
			c[dkColumnVelocityX][i] = states[i].vx;
			c[dkColumnVelocityY][i] = states[i].vy;
			c[dkColumnAngularVelocity][i] = states[i].w;
		}
	}
	dkIntegrate_Velocities(world, b, e, h, substep);
	for (int32_t i = b; i < e; ++i) {
		states[i].vx = c[dkColumnVelocityX][i];
		states[i].vy = c[dkColumnVelocityY][i];
		states[i].w = c[dkColumnAngularVelocity][i];
	}
}

// Positions for one substep from the states' velocities, and each row's movement since the step began.
// The rotation since the step began advances as a unit complex number, q ← normalise(q + h ω q⊥), which
// needs no cos or sin (the angle column itself integrates exactly).
void dkIntegrate_StatePositions(dkWorld* world, dkBodyState* states, int32_t b, int32_t e, float h)
{
	float** c = world->col;
	for (int32_t i = b; i < e; ++i) {
		c[dkColumnVelocityX][i] = states[i].vx;
		c[dkColumnVelocityY][i] = states[i].vy;
		c[dkColumnAngularVelocity][i] = states[i].w;
	}
	dkIntegrate_Positions(world, b, e, h);
	for (int32_t i = b; i < e; ++i) {
		dkBodyState* st = &states[i];
		st->dx = c[dkColumnPositionX][i] - c[dkColumnStartX][i];
		st->dy = c[dkColumnPositionY][i] - c[dkColumnStartY][i];
		float hw = h * st->w;
		float qc = st->dc - hw * st->ds, qs = st->ds + hw * st->dc;
		float inv = 1.0f / sqrtf(qc * qc + qs * qs);
		st->dc = qc * inv;
		st->ds = qs * inv;
		st->da = st->da + hw;
	}
}

// Velocities from the states back to the columns.
void dkIntegrate_StoreStates(dkWorld* world, const dkBodyState* states, int32_t b, int32_t e)
{
	float** c = world->col;
	for (int32_t i = b; i < e; ++i) {
		c[dkColumnVelocityX][i] = states[i].vx;
		c[dkColumnVelocityY][i] = states[i].vy;
		c[dkColumnAngularVelocity][i] = states[i].w;
	}
}
