// SPDX-License-Identifier: Apache-2.0
// Stage: damped spring timing curves sampled in bulk (include/dk_spring.h). The displacement from the end,
// e = 1 − x, obeys e'' = −ω² e − 2ζω e' with e(0) = 1 and e'(0) = −v, whose closed forms are
//   ζ < 1:  e = exp(−ζωt) (cos ω_d t + (ζω − v) / ω_d · sin ω_d t),  ω_d = ω √(1 − ζ²)
//   ζ = 1:  e = exp(−ωt) (1 + (ω − v) t)
//   ζ > 1:  e = A exp(r₁t) + (1 − A) exp(r₂t),  r₁,₂ = −ω (ζ ∓ √(ζ² − 1)),  A = (−v − r₂) / (r₁ − r₂)
// Samples at a uniform spacing Δ satisfy e_{k+1} = (z₁ + z₂) e_k − z₁z₂ e_{k−1} with z = exp(rΔ) (for
// ζ < 1, z₁ + z₂ = 2 exp(−ζωΔ) cos ω_dΔ and z₁z₂ = exp(−2ζωΔ)), exactly: so a curve costs two closed-form
// evaluations, then one multiply-add pair per sample, which the wide template runs W curves per vector.
// |z| < 1 for ζ > 0, so the recurrence's rounding errors decay instead of growing.
// Curves are split into blocks of DK_SPRING_BLOCK, claimed by the workers; each block writes its own
// columns of the output, so the split and the SIMD level change no bit.
#include "dk_spring.h"
#include "kernels.h"
#include "team.h"

#include <math.h>

#define DK_SPRING_BLOCK 2048

// The closed form e(t) in double precision.
static double displacement(double omega, double zeta, double v, double t)
{
	if (zeta < 1.0) {
		double wd = omega * sqrt(1.0 - zeta * zeta);
		return exp(-zeta * omega * t) * (cos(wd * t) + (zeta * omega - v) / wd * sin(wd * t));
	}
	if (zeta == 1.0) return exp(-omega * t) * (1.0 + (omega - v) * t);
	double root = sqrt(zeta * zeta - 1.0), r1 = -omega * (zeta - root), r2 = -omega * (zeta + root);
	double a = (-v - r2) / (r1 - r2);
	return a * exp(r1 * t) + (1.0 - a) * exp(r2 * t);
}

// The recurrence's coefficients for one curve: e_{k+1} = a1 e_k + a2 e_{k−1}.
static void coefficients(double omega, double zeta, double dt, float* a1, float* a2)
{
	double sum, product;
	if (zeta < 1.0) {
		double decay = exp(-zeta * omega * dt);
		sum = 2.0 * decay * cos(omega * sqrt(1.0 - zeta * zeta) * dt);
		product = decay * decay;
	} else if (zeta == 1.0) {
		double z = exp(-omega * dt);
		sum = 2.0 * z;
		product = z * z;
	} else {
		double root = sqrt(zeta * zeta - 1.0);
		double z1 = exp(-omega * (zeta - root) * dt), z2 = exp(-omega * (zeta + root) * dt);
		sum = z1 + z2;
		product = z1 * z2;
	}
	*a1 = (float)sum;
	*a2 = (float)-product;
}

void dkSpringSamples_scalar(const float* a1, const float* a2, const float* e1, int32_t begin, int32_t end,
							int32_t count, int32_t samples, float* out)
{
#pragma clang loop vectorize(disable)
	for (int32_t i = begin; i < end; ++i) {
		float previous = 1.0f, current = e1[i];
		if (samples > 0) out[i] = 1.0f - previous;
		if (samples > 1) out[(size_t)count + i] = 1.0f - current;
		for (int32_t k = 2; k < samples; ++k) {
			float next = a1[i] * current + a2[i] * previous;
			previous = current;
			current = next;
			out[(size_t)k * count + i] = 1.0f - current;
		}
	}
}

typedef struct dkSpringTask {
	const dkSpringSampling* s;
	const dkKernels* kernels;
	atomic_int next;
} dkSpringTask;

static void springTask(void* context, int32_t worker)
{
	(void)worker;
	dkSpringTask* t = context;
	const dkSpringSampling* s = t->s;
	float a1[DK_SPRING_BLOCK], a2[DK_SPRING_BLOCK], e1[DK_SPRING_BLOCK];
	for (int32_t b, e; dkClaimChunk(&t->next, DK_SPRING_BLOCK, s->count, &b, &e);) {
		for (int32_t i = b; i < e; ++i) {
			coefficients(s->omega[i], s->zeta[i], s->interval, &a1[i - b], &a2[i - b]);
			e1[i - b] = (float)displacement(s->omega[i], s->zeta[i], s->velocity[i], s->interval);
		}
		// The block's columns of the output: shift the output so that the kernel's column i - b is curve i.
		t->kernels->springSamples(a1, a2, e1, 0, e - b, s->count, s->samples, s->out + b);
	}
}

static dkResult invalid(dkError* error, const char* field, int32_t index, double value)
{
	dkSetError(error, dkResultInvalidValue, index, field, value);
	return dkResultInvalidValue;
}

dkResult dkSpringCurves_Sample(const dkSpringSampling* s, dkError* error)
{
	if (s->count < 0) return invalid(error, "count", -1, s->count);
	if (s->samples < 0) return invalid(error, "samples", -1, s->samples);
	if (!isfinite(s->interval) || !(s->interval > 0.0f)) return invalid(error, "interval", -1, s->interval);
	if (s->workerCount < 1 || s->workerCount > DK_MAX_WORKERS) return invalid(error, "workers", -1, s->workerCount);
	for (int32_t i = 0; i < s->count; ++i) {
		if (!isfinite(s->omega[i]) || !(s->omega[i] > 0.0f) || s->omega[i] > 1e6f)
			return invalid(error, "naturalFrequency", i, s->omega[i]);
		if (!isfinite(s->zeta[i]) || !(s->zeta[i] >= 0.0f) || s->zeta[i] > 1e3f) return invalid(error, "dampingRatio", i, s->zeta[i]);
		if (!isfinite(s->velocity[i]) || fabsf(s->velocity[i]) > 1e9f) return invalid(error, "initialVelocity", i, s->velocity[i]);
	}
	if (s->count == 0 || s->samples == 0) return dkResultOK;
	dkSpringTask task = {.s = s, .kernels = dkKernelsFor(s->simdLimit)};
	atomic_init(&task.next, 0);
	int32_t blocks = (s->count + DK_SPRING_BLOCK - 1) / DK_SPRING_BLOCK;
	int32_t workers = s->workerCount < blocks ? s->workerCount : blocks;
	if (workers > 1 && s->runTasks) s->runTasks(springTask, &task, workers, s->hostContext);
	else springTask(&task, 0);
	return dkResultOK;
}
