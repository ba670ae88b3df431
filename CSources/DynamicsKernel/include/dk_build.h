// SPDX-License-Identifier: Apache-2.0
// What this build of the kernel carries: its source commit and its SIMD levels.
#ifndef DK_BUILD_H
#define DK_BUILD_H

#include "dk_types.h"

#include <stdint.h>

/// The commit the kernel was built from (DYNAMICS_COMMIT when the package was built, as `make dist` sets
/// it), or "unknown".
const char* dkBuildCommit(void);
/// The SIMD levels compiled into this build, lowest first, into `levels` (at most `capacity`); returns how
/// many there are. The CPU picks among them at run time (dkCpuBestSimdLevel).
int32_t dkBuildSimdLevels(dkSimdLevel* levels, int32_t capacity);

#endif
