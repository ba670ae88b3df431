// SPDX-License-Identifier: Apache-2.0
// The radix sort (radix_sort.c) against qsort.
#include "check.h"
#include "radix_sort.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// ---- Sorting -------------------------------------------------------------------------------------------

typedef struct KeyAt {
	uint64_t key;
	int32_t at;
} KeyAt;

static int byKeyThenPlace(const void* a, const void* b)
{
	const KeyAt *x = a, *y = b;
	if (x->key != y->key) return x->key < y->key ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

// The radix sort against qsort on (key, original place), which is the one stable order: keys with many
// repeats in every digit width the broadphase uses (packed cells, packed pairs, full 64 bits), keys that
// differ only in their top digit, all keys equal, and one key.
void sorts(Report* r)
{
	const int32_t n = 50000;
	uint64_t* keys = malloc((size_t)n * sizeof(uint64_t));
	int32_t* payload = malloc((size_t)n * sizeof(int32_t));
	KeyAt* expected = malloc((size_t)n * sizeof(KeyAt));
	if (!keys || !payload || !expected) {
		check(r, 0, "memory for the sort check", "");
		return;
	}
	const struct { const char* name; int bits; int32_t count; } cases[] = {
		{"20-bit keys", 20, n}, {"34-bit keys", 34, n}, {"64-bit keys", 64, n}, {"top digit only", -1, n},
		{"equal keys", 0, n}, {"one key", 64, 1}};
	uint64_t state = 12345;
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; ++c) {
		int32_t count = cases[c].count;
		for (int32_t i = 0; i < count; ++i) {
			state = state * 6364136223846793005ull + 1442695040888963407ull;
			uint64_t v = (state >> 20) % 3000; // repeats: 3 000 distinct values spread over the bits
			uint64_t key = cases[c].bits < 0 ? v << 52 : cases[c].bits == 0 ? 7 : cases[c].bits == 64 ? v * 0x9e3779b97f4a7c15ull : (v * 0x9e3779b97f4a7c15ull) >> (64 - cases[c].bits);
			keys[i] = key;
			payload[i] = i;
			expected[i] = (KeyAt){key, i};
		}
		qsort(expected, (size_t)count, sizeof(KeyAt), byKeyThenPlace);
		bool sorted = dkRadixSort64(NULL, keys, payload, count);
		int32_t wrong = 0;
		for (int32_t i = 0; i < count; ++i) wrong += keys[i] != expected[i].key || payload[i] != expected[i].at;
		char what[96], detail[64];
		snprintf(what, sizeof what, "the radix sort is a stable sort (%s)", cases[c].name);
		snprintf(detail, sizeof detail, "%d of %d places differ", wrong, count);
		check(r, sorted && wrong == 0, what, detail);
	}
	free(keys);
	free(payload);
	free(expected);
}
