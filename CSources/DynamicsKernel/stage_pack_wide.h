// SPDX-License-Identifier: Apache-2.0
// Stage template: packing poses for write-back, wide. The interleave is left to the compiler, which
// vectorises it with the shuffles of the instantiating SIMD level (the scalar reference forbids that).

static void DK_FN(dkPackPoses)(dkCols c, int32_t begin, int32_t end, float* out)
{
	const float* restrict x = c[dkColumnPositionX];
	const float* restrict y = c[dkColumnPositionY];
	const float* restrict a = c[dkColumnAngle];
	float* restrict o = out;
	int32_t n = end - begin;
	for (int32_t k = 0; k < n; ++k) {
		o[3 * k + 0] = x[begin + k];
		o[3 * k + 1] = y[begin + k];
		o[3 * k + 2] = a[begin + k];
	}
}
