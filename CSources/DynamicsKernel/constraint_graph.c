// Data structure: the constraint graph colouring. Constraints are coloured greedily in contact order (so
// the result does not depend on the worker count) such that no two constraints of one colour share an
// item that moves; boundaries and items that do not move this step never conflict. Constraints that find
// no free colour go to an overflow group solved last, one at a time.
#include "constraint_graph.h"

#include <stdlib.h>
#include <string.h>

bool dkGraph_Colour(const int32_t* rowA, const int32_t* rowB, int32_t count, int32_t rows, int32_t* order,
					int32_t* colourStart)
{
	int32_t words = (rows + 63) / 64;
	uint64_t* bits = calloc((size_t)DK_GRAPH_COLOURS * (size_t)(words > 0 ? words : 1), sizeof(uint64_t));
	int32_t* colour = malloc((size_t)(count > 0 ? count : 1) * sizeof(int32_t));
	if (!bits || !colour) {
		free(bits);
		free(colour);
		return false;
	}
	int32_t counts[DK_GRAPH_COLOURS + 1] = {0};
	for (int32_t k = 0; k < count; ++k) {
		int32_t a = rowA[k], b = rowB[k], c = 0;
		for (; c < DK_GRAPH_COLOURS; ++c) {
			uint64_t* set = bits + (size_t)c * words;
			if (a >= 0 && (set[a >> 6] >> (a & 63) & 1)) continue;
			if (b >= 0 && (set[b >> 6] >> (b & 63) & 1)) continue;
			if (a >= 0) set[a >> 6] |= (uint64_t)1 << (a & 63);
			if (b >= 0) set[b >> 6] |= (uint64_t)1 << (b & 63);
			break;
		}
		colour[k] = c; // DK_GRAPH_COLOURS is the overflow group
		counts[c]++;
	}
	colourStart[0] = 0;
	for (int32_t c = 0; c <= DK_GRAPH_COLOURS; ++c) colourStart[c + 1] = colourStart[c] + counts[c];
	int32_t fill[DK_GRAPH_COLOURS + 1];
	memcpy(fill, colourStart, sizeof fill);
	for (int32_t k = 0; k < count; ++k) order[fill[colour[k]]++] = k;
	free(bits);
	free(colour);
	return true;
}
