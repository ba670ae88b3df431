// SPDX-License-Identifier: Apache-2.0
// Stage template: spring timing curves sampled by their transition matrix, W curves per vector (see
// spring_curve.c for the law and dkSpringSamples_scalar for the reference). Sample by sample, each row's
// run of curves in turn, so the stores stream; the states (e, rate) stay in L1. Instantiated per SIMD level.

static void DK_FN(dkSpringSamples)(const float* const* m, float* e, float* rate, int32_t begin, int32_t end,
								   int32_t count, int32_t samples, float* out)
{
	int32_t wide = begin + (end - begin) / DK_W * DK_W;
	for (int32_t k = 0; k < samples; ++k) {
		float* row = out + (size_t)k * count;
		for (int32_t i = begin; i < wide; i += DK_W) {
			dkVf x = dkV_load(e + i), r = dkV_load(rate + i);
			dkV_store(row + i, 1.0f - x);
			dkV_store(e + i, dkV_load(m[0] + i) * x + dkV_load(m[1] + i) * r);
			dkV_store(rate + i, dkV_load(m[2] + i) * x + dkV_load(m[3] + i) * r);
		}
	}
	if (wide < end) dkSpringSamples_scalar(m, e, rate, wide, end, count, samples, out);
}
