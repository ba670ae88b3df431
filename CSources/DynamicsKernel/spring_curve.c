// SPDX-License-Identifier: Apache-2.0
// Stage: damped spring timing curves sampled in bulk (include/dk_spring.h). The displacement from the end,
// e = 1 − x, obeys e'' = −ω² e − 2ζω e' with e(0) = 1 and e'(0) = −v. Its closed forms, for a start
// (e(0), e'(0)) = (1, −v):
//   ζ < 1:  e = exp(−ζωt) (cos ω_d t + (ζω − v) / ω_d · sin ω_d t),  ω_d = ω √(1 − ζ²)
//   ζ = 1:  e = exp(−ωt) (1 + (ω − v) t)
//   ζ > 1:  e = A exp(r₁t) + (1 − A) exp(r₂t),  r₁,₂ = −ω (ζ ∓ √(ζ² − 1)),  A = (−v − r₂) / (r₁ − r₂)
// The state (e, e') at uniform spacing Δ advances by one fixed 2 × 2 matrix, exp(Δ [[0, 1], [−ω², −2ζω]]),
// whose columns are the states at Δ that start from (1, 0) and (0, 1): so a curve costs the matrix (four
// closed-form values, in double precision), then two multiply-add pairs per sample, which the wide template
// runs W curves per vector. (The equivalent two-term recurrence on e alone loses digits for a slow curve
// sampled finely, where its two roots nearly coincide: 1.6e-4 after 60 samples; the matrix keeps 1e-5.)
// Curves are split into blocks of DK_SPRING_BLOCK, claimed by the workers; each block writes its own
// columns of the output, so the split and the SIMD level change no bit.
#include "dk_spring.h"
#include "kernels.h"
#include "team.h"

#include <math.h>

#define DK_SPRING_BLOCK 2048

// The transition matrix over dt, row-major, (e, e') ← m (e, e'): its columns are the closed-form states at
// dt of the springs that start from (1, 0) and from (0, 1). One exp (two when overdamped), one cos and sin,
// one sqrt per curve.
static void transition(double omega, double zeta, double dt, float* m)
{
	double e1, r1, e2, r2; // from (1, 0) and from (0, 1)
	if (zeta < 1.0) {
		double wd = omega * sqrt(1.0 - zeta * zeta), decay = exp(-zeta * omega * dt);
		double co = cos(wd * dt), sn = sin(wd * dt), zw = zeta * omega;
		e1 = decay * (co + zw / wd * sn);
		r1 = decay * (-zw * (co + zw / wd * sn) + wd * (zw / wd * co - sn));
		e2 = decay * sn / wd;
		r2 = decay * (co - zw / wd * sn);
	} else if (zeta == 1.0) {
		double decay = exp(-omega * dt);
		e1 = decay * (1.0 + omega * dt);
		r1 = decay * (omega - omega * (1.0 + omega * dt));
		e2 = decay * dt;
		r2 = decay * (1.0 - omega * dt);
	} else {
		double root = sqrt(zeta * zeta - 1.0), p = -omega * (zeta - root), q = -omega * (zeta + root);
		double xp = exp(p * dt), xq = exp(q * dt), d = p - q;
		// From (e0, r0): a = (r0 − q e0) / (p − q), b = e0 − a; e = a xp + b xq, e' = a p xp + b q xq.
		double a1 = -q / d, b1 = 1.0 - a1, a2 = 1.0 / d, b2 = -a2;
		e1 = a1 * xp + b1 * xq;
		r1 = a1 * p * xp + b1 * q * xq;
		e2 = a2 * xp + b2 * xq;
		r2 = a2 * p * xp + b2 * q * xq;
	}
	m[0] = (float)e1, m[1] = (float)e2, m[2] = (float)r1, m[3] = (float)r2;
}

void dkSpringSamples_scalar(const float* const* m, float* e, float* rate, int32_t begin, int32_t end, int32_t count,
							int32_t samples, float* out)
{
	for (int32_t k = 0; k < samples; ++k) {
		float* row = out + (size_t)k * count;
#pragma clang loop vectorize(disable)
		for (int32_t i = begin; i < end; ++i) {
			row[i] = 1.0f - e[i];
			float next = m[0][i] * e[i] + m[1][i] * rate[i];
			rate[i] = m[2][i] * e[i] + m[3][i] * rate[i];
			e[i] = next;
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
	float m[4][DK_SPRING_BLOCK], e0[DK_SPRING_BLOCK], rate0[DK_SPRING_BLOCK];
	const float* columns[4] = {m[0], m[1], m[2], m[3]};
	for (int32_t b, e; dkClaimChunk(&t->next, DK_SPRING_BLOCK, s->count, &b, &e);) {
		for (int32_t i = b; i < e; ++i) {
			float matrix[4];
			transition(s->omega[i], s->zeta[i], s->interval, matrix);
			for (int q = 0; q < 4; ++q) m[q][i - b] = matrix[q];
			e0[i - b] = 1.0f;
			rate0[i - b] = -s->velocity[i];
		}
		// The block's columns of the output, row by row (8 KiB runs): shift the output so that the kernel's
		// column i - b is curve i.
		t->kernels->springSamples(columns, e0, rate0, 0, e - b, s->count, s->samples, s->out + b);
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
