// SPDX-License-Identifier: Apache-2.0
// Internal: graph colouring of constraints (constraint_graph.c).
#ifndef DK_CONSTRAINT_GRAPH_H
#define DK_CONSTRAINT_GRAPH_H

#include <stdbool.h>
#include <stdint.h>

#define DK_GRAPH_COLOURS 24

// Colours `count` constraints between rows rowA[k] and rowB[k] (-1: does not move) among `rows` moving rows.
// Writes the constraints in colour order to `order` and each colour's start to colourStart[0…25]
// (colour DK_GRAPH_COLOURS is the overflow group). Its scratch comes from the world's step arena (null: the C
// library). Returns false when out of memory.
typedef struct dkWorld dkWorld;
bool dkGraph_Colour(dkWorld* world, const int32_t* rowA, const int32_t* rowB, int32_t count, int32_t rows, int32_t* order,
					int32_t* colourStart);

#endif
