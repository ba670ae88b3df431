// SPDX-License-Identifier: Apache-2.0
// SIMD level SSE2 (the x86-64 baseline): 4 floats per vector.
#if defined(__x86_64__) || defined(__i386__)
#define DK_W 4
#define DK_ISA sse2
#define DK_LEVEL dkSimdSSE2
#pragma clang attribute push(__attribute__((target("sse2"))), apply_to = function)
#include "simd_instantiate.h"
#pragma clang attribute pop
#endif
