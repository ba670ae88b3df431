// SPDX-License-Identifier: Apache-2.0
// What the broadphase (broadphase.c) keeps between steps, and its shape lists (shape_lists.c).
#ifndef DK_BROADPHASE_H
#define DK_BROADPHASE_H

#include "collision.h"

// Per shape slot unless said otherwise. All of it is valid while
// the world's pair list is (pairsValid).
struct dkBroadphase {
	dkFilter* filters;		  // from the last full pass
	uint32_t* fatGeneration; // the generation of the shape the slot's fat box was made for (0: none yet)
	uint8_t* escaped;		  // this step: the box left its fat box, or the shape has none
	uint8_t* isLoose;		  // the fat box changed since the grid was built
	int32_t* live;			  // live shape slots, ascending (last full pass)
	int32_t* movers;		  // live shapes of awake items, whose boxes may change (last full pass), ascending
	int32_t* still;			  // the other live shapes (last full pass), ascending
	int32_t* escapedList;	  // this step's escaped shapes, ascending
	int32_t* loose;			  // the loose shapes, ascending
	int32_t* spare;			  // scratch for merging the loose list
	int32_t* changed;		  // this step's shapes of items that rested or woke, ascending (relist)
	int32_t* boxList;		  // this step's box pass: the movers and the shapes that join them or rest anew
	int32_t liveCount, moverCount, stillCount, looseCount;
	// Per item slot, from the last full pass: the item's live shapes (itemShapes[itemStart[i] ..
	// itemStart[i + 1]), ascending) and whether they are among the movers (moving).
	int32_t* itemStart;
	int32_t* itemShapes;
	uint8_t* moving;
	int32_t itemCapacity, indexedItems;
	float dt; // the step the boxes were fattened for
	bool stillBuilt; // the world's still grid lists the shapes in `still`
	bool stillListed; // `still` lists the live shapes that are not movers (else only stillCount is current)
};

// Up to this many shapes whose fat boxes changed since the grid was built, and at most one in
// DK_LOOSE_SHARE of the live ones (or DK_LOOSE_FEW), the grid answers for them; more, and a new grid is built.
#define DK_LOOSE_LIMIT 4096
#define DK_LOOSE_SHARE 4
#define DK_LOOSE_FEW 32

// Boxes (broadphase.c): a shape's box at its item's pose with its motion, and a new fat box around it.
void dkBroadphase_Box(const dkWorld* world, const dkShape* s, float dt, float* box, float* motion);
void dkBroadphase_Fatten(dkWorld* world, int32_t slot);

// The lists (shape_lists.c). Room for the shape and item slots (false when out of memory; a growth of the
// shape slots clears pairsValid).
bool dkShapeLists_Reserve(dkWorld* world, int32_t shapeSlots, int32_t itemSlots);
// Room for exactly `room` shape slots in the box arrays (a snapshot keeps the room it was written with).
bool dkShapeLists_ReserveRoom(dkWorld* world, int32_t room);
// A live shape's filter, as its item is now.
dkFilter dkShapeLists_Filter(const dkWorld* world, const dkShape* s);
// The items that rested or woke, and the shapes that changed, were all taken into account.
void dkShapeLists_Forget(dkWorld* world);
// Merges the ascending lists a and b into out, each slot once; returns its length.
int32_t dkShapeLists_Union(const int32_t* a, int32_t na, const int32_t* b, int32_t nb, int32_t* out);
// Adds this step's escaped shapes (bp->escapedList) to the loose ones; false when too many for the grid.
bool dkShapeLists_Loosen(dkBroadphase* bp, int32_t escapedCount);
// A full pass's lists from the filters of shape slots [0, n); returns the number of escaped shapes listed.
int32_t dkShapeLists_ListAll(dkWorld* world, dkBroadphase* bp, int32_t n);
// Between full passes: the shapes made, freed or refiltered (returns how many, left ascending in
// world->shapeChanges), the items that rested or woke (returns their shapes' count), what follows a relist's
// box pass, and the still list made again.
int32_t dkShapeLists_Retake(dkWorld* world, dkBroadphase* bp, float dt);
int32_t dkShapeLists_Relist(dkWorld* world, dkBroadphase* bp);
int32_t dkShapeLists_AfterRelist(dkWorld* world, dkBroadphase* bp, int32_t escapedCount, int32_t changed);
void dkShapeLists_ListStill(dkBroadphase* bp);

#endif
