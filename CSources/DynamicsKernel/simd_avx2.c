// SPDX-License-Identifier: Apache-2.0
// SIMD level AVX2: 8 floats per vector. Chosen at run time only when the CPU and OS support AVX2.
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h> // the transposes of stage_bodies_wide.h, and dkV_select
#define DK_W 8
#define DK_ISA avx2
#define DK_LEVEL dkSimdAVX2
#define DK_SELECT_BLENDV // simd.h
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#include "simd_instantiate.h"
#pragma clang attribute pop
#endif
