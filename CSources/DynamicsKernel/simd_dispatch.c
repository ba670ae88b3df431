// SPDX-License-Identifier: Apache-2.0
// Run-time SIMD choice: which levels this CPU and OS support, and the kernel table for a limit.
// The check reads CPUID and XGETBV each time it is asked (a world asks once, at creation or
// reconfiguration); nothing is cached in global state.
#include "kernels.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

static const dkKernels dkKernels_scalar = {
	.level = dkSimdScalar,
	.width = 1,
	.integrateFused = dkIntegrateFused_scalar,
	.accumulateForces = dkAccumulateForces_scalar,
	.dampAndSnap = dkDampAndSnap_scalar,
	.detectRest = dkDetectRest_scalar,
	.packPoses = dkPackPoses_scalar,
	.contactWarmStart = dkContactWarmStart_scalar,
	.contactSolve = dkContactSolve_scalar,
	.contactApproach = dkContactApproach_scalar,
	.contactRestitution = dkContactRestitution_scalar,
	.jointWarmStart = dkJointWarmStart_scalar,
	.jointSolve = dkJointSolve_scalar,
	.applyFields = dkApplyFields_scalar,
	.overrideVelocities = dkOverrideVelocities_scalar,
	.summarizeRows = dkSummarizeRows_scalar,
	.springSamples = dkSpringSamples_scalar,
};

#if defined(__x86_64__) || defined(__i386__)
static uint64_t xgetbv0(void)
{
	uint32_t lo, hi;
	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
	return ((uint64_t)hi << 32) | lo;
}
#endif

dkSimdLevel dkCpuBestSimdLevel(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d)) return dkSimdScalar;
	if (!(d & (1u << 26))) return dkSimdScalar; // SSE2
	bool osxsave = (c & (1u << 27)) != 0, avx = (c & (1u << 28)) != 0;
	if (!osxsave || !avx) return dkSimdSSE2;
	uint64_t xcr0 = xgetbv0();
	if ((xcr0 & 0x6) != 0x6) return dkSimdSSE2; // XMM and YMM state saved by the OS
	if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return dkSimdSSE2;
	bool avx2 = (b & (1u << 5)) != 0, avx512f = (b & (1u << 16)) != 0, avx512vl = (b & (1u << 31)) != 0;
	if (avx2 && avx512f && avx512vl && (xcr0 & 0xE6) == 0xE6) return dkSimdAVX512;
	if (avx2) return dkSimdAVX2;
	return dkSimdSSE2;
#elif defined(__aarch64__)
	return dkSimdNEON;
#else
	return dkSimdScalar;
#endif
}

const char* dkSimdLevelName(dkSimdLevel level)
{
	switch (level) {
	case dkSimdScalar: return "scalar";
	case dkSimdSSE2: return "sse2";
	case dkSimdNEON: return "neon";
	case dkSimdAVX2: return "avx2";
	case dkSimdAVX512: return "avx512";
	}
	return "unknown";
}

const dkKernels* dkScalarKernels(void) { return &dkKernels_scalar; }

const dkKernels* dkKernelsFor(dkSimdLevel limit)
{
	dkSimdLevel best = dkCpuBestSimdLevel();
	dkSimdLevel level = limit < best ? limit : best;
#if defined(__x86_64__) || defined(__i386__)
	if (level >= dkSimdAVX512) return &dkKernels_avx512;
	if (level >= dkSimdAVX2) return &dkKernels_avx2;
	if (level >= dkSimdSSE2) return &dkKernels_sse2;
#elif defined(__aarch64__)
	if (level >= dkSimdNEON) return &dkKernels_neon;
#endif
	return &dkKernels_scalar;
}
