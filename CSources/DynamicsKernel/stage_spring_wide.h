// SPDX-License-Identifier: Apache-2.0
// Stage template: spring timing curves sampled by their transition matrix, W curves per vector (see
// spring_curve.c for the law and dkSpringSamples_scalar for the reference). Instantiated per SIMD level.

static void DK_FN(dkSpringSamples)(const float* const* m, const float* rate0, int32_t begin, int32_t end, int32_t count,
								   int32_t samples, float* out)
{
	int32_t i = begin;
	for (; i + DK_W <= end; i += DK_W) {
		dkVf m0 = dkV_load(m[0] + i), m1 = dkV_load(m[1] + i), m2 = dkV_load(m[2] + i), m3 = dkV_load(m[3] + i);
		dkVf e = dkV_splat(1.0f), rate = dkV_load(rate0 + i);
		for (int32_t k = 0; k < samples; ++k) {
			dkV_store(out + (size_t)k * count + i, 1.0f - e);
			dkVf next = m0 * e + m1 * rate;
			rate = m2 * e + m3 * rate;
			e = next;
		}
	}
	if (i < end) dkSpringSamples_scalar(m, rate0, i, end, count, samples, out);
}
