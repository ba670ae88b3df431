// SPDX-License-Identifier: Apache-2.0
// SIMD level NEON (every arm64 CPU): 4 floats per vector.
#if defined(__aarch64__)
#define DK_W 4
#define DK_ISA neon
#define DK_LEVEL dkSimdNEON
#include "simd_instantiate.h"
#endif
