// SPDX-License-Identifier: Apache-2.0
// SIMD level AVX-512: 16 floats per vector. Chosen at run time only when the CPU and OS support AVX-512F.
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h> // the transposes of stage_bodies_wide.h
#define DK_W 16
#define DK_ISA avx512
#define DK_LEVEL dkSimdAVX512
#pragma clang attribute push(__attribute__((target("avx512f,avx512vl,avx2,fma"))), apply_to = function)
#include "simd_instantiate.h"
#pragma clang attribute pop
#endif
