// SPDX-License-Identifier: Apache-2.0
// Internal: solver sets (solver_set.c), as Box2D v3 keeps them: what a step touches and what it leaves alone.
// The static set holds what never moves (anchored items, boundaries, and the contacts between them); the
// awake set the awake rows [0, awake), the contact list and the joints; and each resting island (or resting
// item in no island) has a set of its own with the contacts it alone holds. Rest moves an island into a new
// set; waking one moves it back whole. Rest and wake live in solver_set.c.
#ifndef DK_SOLVER_SET_H
#define DK_SOLVER_SET_H

#include "collision.h"

enum {
	dkSetStatic = 0, // anchored items, and the contacts with no item that can move
	dkSetAwake = 1,	 // the awake rows; its contacts are the contact list (world->contacts)
	dkSetFirstResting = 2
};

// A set: its members (a resting island, or one resting item in none) and the contacts whose items are all
// members or never move, sorted by shape pair. A set's contacts go back to the contact update's merge when
// it is woken or returned (dkSets_ReturnHolding); a woken set ends once they are taken back.
struct dkSolverSet {
	dkContactArray contacts;
	int32_t island;		   // the resting island, or -1
	int32_t item;		   // the resting item's slot when island is -1 (-1 for the static and awake sets)
	int32_t withPoints;	   // contacts with manifold points
	int32_t nextReturning; // the next set in world->returningSets, -1 at the end
	int32_t jointHead;	   // the first of its joints (a list through dkJoint.nextInSet), -1 for none
	bool returning;		   // in world->returningSets
	bool woken;			   // its members woke: it ends once its contacts are taken back
	bool alive;
};
DK_ARRAY_FUNCTIONS(dkSolverSet, dkSolverSetArray)

// Room for `capacity` item slots: their set column and a set for each (every resting set has a member), so
// resting never allocates. False when out of memory (what grew keeps its contents).
bool dkSets_Reserve(dkWorld* world, int32_t capacity);
void dkSets_Destroy(dkWorld* world);
// A new item in `slot` is awake.
static inline void dkSets_Clear(dkWorld* world, int32_t slot) { world->setOf[slot] = dkSetAwake; }
// The item in `slot` rested or woke: the broadphase moves its shapes between what moves and what does not,
// and the next contact merge sorts (world->restChanges, which has room for every item slot).
static inline void dkSets_NoteChange(dkWorld* world, int32_t slot)
{
	if (world->restChanged[slot]) return;
	world->restChanged[slot] = 1;
	world->restChanges[world->restChangeCount++] = slot;
}

// Resting contacts: those no set holds (world->restingContacts) and those the sets hold.
static inline int32_t dkSets_RestingContacts(const dkWorld* world)
{
	return world->restingContacts.count + world->setContacts;
}

// Rest, the end of the rest stage (rest.c): the rows whose island (or, in none, whose own timer) may rest leave
// the awake range, in row order; each island, and each item in none, becomes a set.
void dkSets_Rest(dkWorld* world);
// Wakes the item in `row`: a resting item wakes with its whole set, every member's rest timer at zero, and the
// set's contacts go back to the next merge; an awake item's rest timer restarts.
void dkSets_WakeRow(dkWorld* world, int32_t row);
// The contacts of the sets that hold a contact of an item slot marked in `items` (nonzero, one byte per item
// slot; null for none) or of shape slot `shape` (-1 for none) go back to the next merge: an anchored item was
// freed or removed, an anchored item's or a boundary's shape destroyed. A set holds a contact with something
// that does not move (contact.c), so such an item's contacts may be in any set; the others keep theirs aside.
// One pass over the sets' contacts; the items stay as they are.
void dkSets_ReturnHolding(dkWorld* world, const uint8_t* items, int32_t shape);

// At the start of a contact update: the returning sets' contacts join world->restingContacts, in order, for
// the merge to read. False when out of memory (then nothing changed).
bool dkSets_TakeBack(dkWorld* world);
// After a sorting merge: each resting contact that one set holds (its items all in the set or never moving)
// moves into it. One that cannot (out of memory) stays among world->restingContacts, where the next merge reads
// it.
void dkSets_Distribute(dkWorld* world);
// After an update woke items: the contacts of woken sets, and those of world->restingContacts with an item that
// now moves, join the list in order, so this step solves them. Takes the update's reserved spare buffer and
// scratch (dkSets_ScratchBound).
void dkSets_TakeBackWoken(dkWorld* world);
// The scratch dkSets_TakeBackWoken takes, in bytes.
size_t dkSets_ScratchBound(const dkWorld* world);

// Joints. A joint is in the awake set while an item of it moves, in the set of its resting items, or in the
// static set when no item of it can move. Reserve: room in the awake set for `capacity` joints. Add: a new
// joint (its items woken) joins the awake set. Remove: a destroyed joint leaves its set. FreeStatic: the
// static set's joints rejoin the awake set (an anchored item was set free). Order: the awake set's joints in
// slot order, before a step lists them (dkJoints_Active).
bool dkSets_ReserveJoints(dkWorld* world, int32_t capacity);
void dkSets_AddJoint(dkWorld* world, int32_t slot);
void dkSets_RemoveJoint(dkWorld* world, int32_t slot);
void dkSets_FreeStaticJoints(dkWorld* world);
void dkSets_OrderJoints(dkWorld* world);

#endif
