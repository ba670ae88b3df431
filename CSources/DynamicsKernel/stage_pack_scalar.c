// SPDX-License-Identifier: Apache-2.0
// Stage: packing poses for write-back, scalar reference: (x, y, angle) interleaved per row.
#include "kernels.h"

void dkPackPoses_scalar(dkCols c, int32_t begin, int32_t end, float* out)
{
#pragma clang loop vectorize(disable)
	for (int32_t i = begin; i < end; ++i) {
		float* o = out + 3 * (i - begin);
		o[0] = c[dkColumnPositionX][i];
		o[1] = c[dkColumnPositionY][i];
		o[2] = c[dkColumnAngle][i];
	}
}
