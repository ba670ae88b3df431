// SPDX-License-Identifier: Apache-2.0
// Data structure: the constraint graph colouring. Constraints are coloured greedily in contact order (so
// the result does not depend on the worker count) such that no two constraints of one colour share an
// item that moves; boundaries and items that do not move this step never conflict. Constraints that find
// no free colour go to an overflow group solved last, one at a time.
#include "constraint_graph.h"
#include "core.h"

#include <stdlib.h>
#include <string.h>

// Each row keeps a mask of the colours it is in, so a constraint's lowest free colour is the lowest bit
// clear in both its rows' masks: one word read per row, whatever the number of colours tried.
bool dkGraph_Colour(dkWorld* world, const int32_t* rowA, const int32_t* rowB, int32_t count, int32_t rows, int32_t* order,
					int32_t* colourStart)
{
	_Static_assert(DK_GRAPH_COLOURS < 32, "a row's colours fit a 32-bit mask");
	uint32_t* used = dkScratchZeroed(world, (size_t)(rows > 0 ? rows : 1) * sizeof(uint32_t));
	int32_t* colour = dkScratch(world, (size_t)(count > 0 ? count : 1) * sizeof(int32_t));
	if (!used || !colour) {
		dkScratchFree(world, used);
		dkScratchFree(world, colour);
		return false;
	}
	const uint32_t all = ((uint32_t)1 << DK_GRAPH_COLOURS) - 1;
	int32_t counts[DK_GRAPH_COLOURS + 1] = {0};
	for (int32_t k = 0; k < count; ++k) {
		int32_t a = rowA[k], b = rowB[k];
		uint32_t open = all & ~((a >= 0 ? used[a] : 0) | (b >= 0 ? used[b] : 0));
		int32_t c = DK_GRAPH_COLOURS; // the overflow group
		if (open != 0) {
			c = __builtin_ctz(open);
			if (a >= 0) used[a] |= (uint32_t)1 << c;
			if (b >= 0) used[b] |= (uint32_t)1 << c;
		}
		colour[k] = c;
		counts[c]++;
	}
	colourStart[0] = 0;
	for (int32_t c = 0; c <= DK_GRAPH_COLOURS; ++c) colourStart[c + 1] = colourStart[c] + counts[c];
	int32_t fill[DK_GRAPH_COLOURS + 1];
	memcpy(fill, colourStart, sizeof fill);
	for (int32_t k = 0; k < count; ++k) order[fill[colour[k]]++] = k;
	dkScratchFree(world, used);
	dkScratchFree(world, colour);
	return true;
}
