// SPDX-License-Identifier: Apache-2.0
// What this build carries (dk_build.h). DK_BUILD_COMMIT comes from Package.swift, which takes it from the
// DYNAMICS_COMMIT environment variable of the build.
#include "dk_build.h"

#ifndef DK_BUILD_COMMIT
#define DK_BUILD_COMMIT "unknown"
#endif

const char* dkBuildCommit(void) { return DK_BUILD_COMMIT; }

int32_t dkBuildSimdLevels(dkSimdLevel* levels, int32_t capacity)
{
#if defined(__x86_64__) || defined(__i386__)
	const dkSimdLevel built[] = {dkSimdScalar, dkSimdSSE2, dkSimdAVX2, dkSimdAVX512};
#elif defined(__aarch64__)
	const dkSimdLevel built[] = {dkSimdScalar, dkSimdNEON};
#else
	const dkSimdLevel built[] = {dkSimdScalar};
#endif
	int32_t n = (int32_t)(sizeof built / sizeof built[0]);
	for (int32_t i = 0; i < n && i < capacity; ++i) levels[i] = built[i];
	return n;
}
