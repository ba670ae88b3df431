// Data structure: a stable least-significant-digit radix sort, 16 bits per pass; a pass whose digit is the
// same for every key is skipped. Used for broadphase cells and pairs, whose order must not depend on
// anything but the keys.
#include "radix_sort.h"

#include <stdlib.h>
#include <string.h>

bool dkRadixSort64(uint64_t* keys, int32_t* payload, int32_t n)
{
	if (n < 2) return true;
	uint64_t* tk = malloc((size_t)n * sizeof(uint64_t));
	int32_t* tp = payload ? malloc((size_t)n * sizeof(int32_t)) : NULL;
	uint32_t* count = malloc(65536 * sizeof(uint32_t));
	if (!tk || (payload && !tp) || !count) {
		free(tk);
		free(tp);
		free(count);
		return false;
	}
	uint64_t *src = keys, *dst = tk;
	int32_t *psrc = payload, *pdst = tp;
	for (int shift = 0; shift < 64; shift += 16) {
		uint32_t first = (uint32_t)(src[0] >> shift) & 0xffff;
		bool same = true;
		for (int32_t i = 1; i < n && same; ++i) same = ((uint32_t)(src[i] >> shift) & 0xffff) == first;
		if (same) continue;
		memset(count, 0, 65536 * sizeof(uint32_t));
		for (int32_t i = 0; i < n; ++i) count[(src[i] >> shift) & 0xffff]++;
		uint32_t sum = 0;
		for (int32_t d = 0; d < 65536; ++d) {
			uint32_t c = count[d];
			count[d] = sum;
			sum += c;
		}
		for (int32_t i = 0; i < n; ++i) {
			uint32_t at = count[(src[i] >> shift) & 0xffff]++;
			dst[at] = src[i];
			if (psrc) pdst[at] = psrc[i];
		}
		uint64_t* t = src;
		src = dst;
		dst = t;
		int32_t* u = psrc;
		psrc = pdst;
		pdst = u;
	}
	if (src != keys) {
		memcpy(keys, src, (size_t)n * sizeof(uint64_t));
		if (payload) memcpy(payload, psrc, (size_t)n * sizeof(int32_t));
	}
	free(tk);
	free(tp);
	free(count);
	return true;
}
