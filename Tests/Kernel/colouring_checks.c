// SPDX-License-Identifier: Apache-2.0
// The constraint colouring (constraint_graph.c) against a brute-force greedy colouring.
#include "check.h"
#include "constraint_graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The constraint colouring against the greedy colouring found by brute force: in order, each constraint
// takes the lowest colour in which no earlier constraint shares a moving row (-1 never conflicts), or the
// overflow group when all DK_GRAPH_COLOURS are taken. Cases: random constraints among 300 rows with a
// quarter of the sides not moving, a hub row in 40 constraints (16 overflow), and no moving rows at all.
void colourings(Report* r)
{
	enum { count = 2000, rows = 300 };
	static int32_t rowA[count], rowB[count], order[count], colour[count], expected[count];
	const char* names[] = {"random constraints", "a hub in 40 constraints", "no moving rows"};
	uint32_t state = 7;
	for (int c = 0; c < 3; ++c) {
		int32_t n = c == 1 ? 40 : count;
		for (int32_t k = 0; k < n; ++k) {
			state = state * 1664525u + 1013904223u;
			int32_t a = (int32_t)(state >> 8) % rows, b = (int32_t)(state >> 20) % rows;
			if (c == 1) { // every constraint shares row 0
				rowA[k] = 0;
				rowB[k] = 1 + k;
			} else {
				rowA[k] = c == 2 || (state & 3) == 0 ? -1 : a;
				rowB[k] = c == 2 || (state & 12) == 0 || b == a ? -1 : b;
			}
		}
		int32_t starts[DK_GRAPH_COLOURS + 2], expectedStarts[DK_GRAPH_COLOURS + 2] = {0};
		for (int32_t k = 0; k < n; ++k) {
			int32_t q = 0;
			for (; q < DK_GRAPH_COLOURS; ++q) {
				bool clash = false;
				for (int32_t j = 0; j < k && !clash; ++j)
					clash = colour[j] == q && ((rowA[k] >= 0 && (rowA[k] == rowA[j] || rowA[k] == rowB[j])) ||
											   (rowB[k] >= 0 && (rowB[k] == rowA[j] || rowB[k] == rowB[j])));
				if (!clash) break;
			}
			colour[k] = q;
			expectedStarts[q + 1]++;
		}
		for (int32_t q = 0; q <= DK_GRAPH_COLOURS; ++q) expectedStarts[q + 1] += expectedStarts[q];
		int32_t fill[DK_GRAPH_COLOURS + 1];
		memcpy(fill, expectedStarts, sizeof fill);
		for (int32_t k = 0; k < n; ++k) expected[fill[colour[k]]++] = k;
		bool ok = dkGraph_Colour(NULL, rowA, rowB, n, rows, order, starts);
		int32_t wrong = 0;
		for (int32_t k = 0; k < n; ++k) wrong += order[k] != expected[k];
		for (int32_t q = 0; q <= DK_GRAPH_COLOURS + 1; ++q) wrong += starts[q] != expectedStarts[q];
		int32_t used = 0, overflow = expectedStarts[DK_GRAPH_COLOURS + 1] - expectedStarts[DK_GRAPH_COLOURS];
		for (int32_t q = 0; q < DK_GRAPH_COLOURS; ++q) used += expectedStarts[q + 1] > expectedStarts[q];
		char what[96], detail[96];
		snprintf(what, sizeof what, "the constraint colouring is the greedy one (%s)", names[c]);
		snprintf(detail, sizeof detail, "%d places differ; %d colours, %d in overflow", wrong, used, overflow);
		check(r, ok && wrong == 0 && (c != 1 || overflow == 16), what, detail);
	}
}
