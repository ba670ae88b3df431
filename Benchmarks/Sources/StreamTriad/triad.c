// SPDX-License-Identifier: Apache-2.0
// STREAM triad over 64-byte aligned float arrays (vectorised by the compiler at the build's ISA).
#include "StreamTriad.h"

#include <stdlib.h>
#include <string.h>

struct TriadArrays {
	float *a, *b, *c;
	size_t n;
};

TriadArrays* triadCreate(size_t bytes)
{
	TriadArrays* t = calloc(1, sizeof *t);
	if (!t) return NULL;
	t->n = bytes / (3 * sizeof(float));
	size_t size = (t->n * sizeof(float) + 63) / 64 * 64;
	t->a = aligned_alloc(64, size);
	t->b = aligned_alloc(64, size);
	t->c = aligned_alloc(64, size);
	if (!t->a || !t->b || !t->c) {
		triadDestroy(t);
		return NULL;
	}
	for (size_t i = 0; i < t->n; ++i) {
		t->a[i] = 0.0f;
		t->b[i] = (float)(i % 97);
		t->c[i] = (float)(i % 89);
	}
	return t;
}

void triadDestroy(TriadArrays* t)
{
	if (!t) return;
	free(t->a);
	free(t->b);
	free(t->c);
	free(t);
}

float triadRun(TriadArrays* t, float s)
{
	float* restrict a = t->a;
	const float* restrict b = t->b;
	const float* restrict c = t->c;
	for (size_t i = 0; i < t->n; ++i) a[i] = b[i] + s * c[i];
	return a[0];
}
