// SPDX-License-Identifier: Apache-2.0
// Internal: islands (island.c), the groups of moving items that rest and wake as a whole.
#ifndef DK_ISLAND_H
#define DK_ISLAND_H

#include "core.h"

// An island: a doubly linked list of item slots (dkWorld.islandNext / islandPrev). `size` is 0 while the
// island slot is free. `removed` counts the links lost since the island was last split (contacts that
// stopped touching, joints destroyed, members that left): while it is 0 the island is known to be
// connected.
struct dkIsland {
	int32_t head, tail, size, removed;
};
DK_ARRAY_FUNCTIONS(dkIsland, dkIslandArray)

// Whether the item in `row` moves at all (anchored items never join an island).
static inline bool dkIslands_Moves(const dkWorld* world, int32_t row)
{
	return world->col[dkColumnInverseMass][row] > 0.0f || world->col[dkColumnInverseInertia][row] > 0.0f;
}

// Makes room for `capacity` item slots (and as many islands); new slots belong to no island. False when out
// of memory (then nothing changed).
bool dkIslands_Reserve(dkWorld* world, int32_t capacity);
void dkIslands_Destroy(dkWorld* world);
// A new item in `slot` belongs to no island.
void dkIslands_Clear(dkWorld* world, int32_t slot);
// Joins the islands of two moving items (a contact began touching, or a joint was made): the smaller
// island's members join the larger one.
void dkIslands_Link(dkWorld* world, int32_t slotA, int32_t slotB);
// A link between two items went away (a contact stopped touching, a joint was destroyed): their island may
// have come apart, and is split when it is next about to rest.
void dkIslands_Unlinked(dkWorld* world, int32_t slotA, int32_t slotB);
// The item in `slot` leaves its island (it is removed or anchored).
void dkIslands_Leave(dkWorld* world, int32_t slot);
// Splits island `island` into its connected parts, through the touching contacts and joints between its
// members; parts of one item leave islands. False when out of memory (then nothing changed).
bool dkIslands_Split(dkWorld* world, int32_t island);

#endif
