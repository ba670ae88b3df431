// SPDX-License-Identifier: Apache-2.0
// Internal: the one place that knows vector widths. A file that includes this defines DK_W (floats per
// vector) and DK_ISA (a suffix) first, inside a `#pragma clang attribute push(target(...))` region, then
// includes the stage templates (stage_*_wide.h), which are written against these helpers only.
#ifndef DK_SIMD_H
#define DK_SIMD_H

#if !defined(DK_W) || !defined(DK_ISA)
#error "define DK_W and DK_ISA before including simd.h"
#endif

#include <stdint.h>
#include <string.h>

#include "core.h" // no floating-point contraction

typedef float dkVf __attribute__((vector_size(DK_W * sizeof(float))));
typedef int32_t dkVm __attribute__((vector_size(DK_W * sizeof(float))));

#define DK_CAT2(a, b) a##_##b
#define DK_CAT(a, b) DK_CAT2(a, b)
#define DK_FN(name) DK_CAT(name, DK_ISA)

static inline dkVf dkV_load(const float* p)
{
	dkVf v;
	memcpy(&v, p, sizeof v);
	return v;
}
static inline void dkV_store(float* p, dkVf v) { memcpy(p, &v, sizeof v); }
static inline dkVf dkV_splat(float x) { return (dkVf){0} + x; }
// A lane of `a` where the mask lane is set (all ones, as every comparison gives), of `b` where it is clear.
// AVX2 has one instruction for it (its sign bit decides, which for such masks is the same bits).
#if defined(DK_SELECT_BLENDV)
static inline dkVf dkV_select(dkVm m, dkVf a, dkVf b) { return (dkVf)_mm256_blendv_ps((__m256)b, (__m256)a, (__m256)m); }
#else
static inline dkVf dkV_select(dkVm m, dkVf a, dkVf b) { return (dkVf)(((dkVm)a & m) | ((dkVm)b & ~m)); }
#endif
static inline dkVf dkV_abs(dkVf v) { return (dkVf)((dkVm)v & 0x7fffffff); }
// Round to nearest, ties to even: what rintf does in the default rounding mode.
static inline dkVf dkV_rint(dkVf v) { return __builtin_elementwise_roundeven(v); }
static inline int dkV_count(dkVm m)
{
	int n = 0;
	for (int l = 0; l < DK_W; ++l) n += m[l] != 0;
	return n;
}
static inline int dkV_any(dkVm m) { return __builtin_reduce_or(m) != 0; }

#endif
