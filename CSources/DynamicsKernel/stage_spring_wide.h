// SPDX-License-Identifier: Apache-2.0
// Stage template: spring timing curves sampled by their recurrence, W curves per vector (see
// spring_curve.c for the law and dkSpringSamples_scalar for the reference). Instantiated per SIMD level.

static void DK_FN(dkSpringSamples)(const float* a1, const float* a2, const float* e1, int32_t begin, int32_t end,
								   int32_t count, int32_t samples, float* out)
{
	int32_t i = begin;
	for (; i + DK_W <= end; i += DK_W) {
		dkVf c1 = dkV_load(a1 + i), c2 = dkV_load(a2 + i), previous = dkV_splat(1.0f), current = dkV_load(e1 + i);
		if (samples > 0) dkV_store(out + i, 1.0f - previous);
		if (samples > 1) dkV_store(out + (size_t)count + i, 1.0f - current);
		for (int32_t k = 2; k < samples; ++k) {
			dkVf next = c1 * current + c2 * previous;
			previous = current;
			current = next;
			dkV_store(out + (size_t)k * count + i, 1.0f - current);
		}
	}
	if (i < end) dkSpringSamples_scalar(a1, a2, e1, i, end, count, samples, out);
}
