// SPDX-License-Identifier: Apache-2.0
// BLAS: the level-1 calls the kernel makes on SoA columns (libblas.so.3 from Debian's libblas-dev, or any
// implementation selected through Debian's alternatives), each with its scalar reference next to it.
//   axpy  — v ← v + h·a and q ← q + h·v in the BLAS integrator path (solver.c)
//   dsdot — kinetic energy and momentum (dot products with double accumulation)
//   isamax — the largest speed component of a block, for the rest-detection fast path
#define _GNU_SOURCE
#include "core.h"

#include <cblas.h>
#include <dlfcn.h>
#include <math.h>

void dkBlasAxpy(int32_t n, float a, const float* x, float* y, bool reference)
{
	if (n <= 0) return;
	if (!reference) {
		cblas_saxpy(n, a, x, 1, y, 1);
		return;
	}
#pragma clang loop vectorize(disable)
	for (int32_t i = 0; i < n; ++i) y[i] = y[i] + a * x[i];
}

double dkBlasDot(int32_t n, const float* x, const float* y, bool reference)
{
	if (n <= 0) return 0.0;
	if (!reference) return cblas_dsdot(n, x, 1, y, 1);
	double s = 0.0;
#pragma clang loop vectorize(disable)
	for (int32_t i = 0; i < n; ++i) s += (double)x[i] * (double)y[i];
	return s;
}

int32_t dkBlasMaxAbsIndex(int32_t n, const float* x, bool reference)
{
	if (n <= 0) return -1;
	if (!reference) return (int32_t)cblas_isamax(n, x, 1);
	int32_t best = 0;
	float m = fabsf(x[0]);
#pragma clang loop vectorize(disable)
	for (int32_t i = 1; i < n; ++i) {
		if (fabsf(x[i]) > m) {
			m = fabsf(x[i]);
			best = i;
		}
	}
	return best;
}

const char* dkBlasLibraryPath(void)
{
	Dl_info info, kernel;
	if (!dladdr((void*)cblas_saxpy, &info) || !info.dli_fname) return "unknown";
	// BLAS in the same object as the kernel: linked statically (make dist).
	if (dladdr((void*)dkBlasLibraryPath, &kernel) && kernel.dli_fbase == info.dli_fbase) return "static";
	return info.dli_fname;
}

dkEnergy dkWorld_Energy(dkWorld* world)
{
	int32_t n = world->count;
	float** c = world->col;
	float* scratch = c[dkColumnMomentum];
	dkEnergy e = {0};
	e.momentumX = dkBlasDot(n, c[dkColumnMass], c[dkColumnVelocityX], false);
	e.momentumY = dkBlasDot(n, c[dkColumnMass], c[dkColumnVelocityY], false);
	double k = 0.0;
	for (int axis = 0; axis < 3; ++axis) {
		const float* v = axis == 0 ? c[dkColumnVelocityX] : axis == 1 ? c[dkColumnVelocityY] : c[dkColumnAngularVelocity];
		const float* m = axis == 2 ? c[dkColumnInertia] : c[dkColumnMass];
		for (int32_t i = 0; i < n; ++i) scratch[i] = m[i] * v[i]; // momentum per row
		k += dkBlasDot(n, scratch, v, false);
	}
	e.kinetic = 0.5 * k;
	return e;
}

float dkWorld_MaxAwakeSpeedComponent(dkWorld* world)
{
	int32_t n = world->awake;
	if (n == 0) return 0.0f;
	float mx = fabsf(world->col[dkColumnVelocityX][dkBlasMaxAbsIndex(n, world->col[dkColumnVelocityX], false)]);
	float my = fabsf(world->col[dkColumnVelocityY][dkBlasMaxAbsIndex(n, world->col[dkColumnVelocityY], false)]);
	return mx > my ? mx : my;
}
